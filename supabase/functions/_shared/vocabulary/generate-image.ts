// The generate-image call as it crosses the wire (docs/architecture.md, "A generation, end to end"), typed
// once for both sides: the app sends a GenerateImageBody (src/api/generate.ts) and reads a
// GenerateImageAnswer; the function parses the body (../generation-request.ts, which trusts none of it)
// and answers with the same shape.
import type { AspectRatio, Quality } from "./generation.ts";
import type { GenerationRow } from "./rows.ts";
import type { VariationBody } from "./variations.ts";

/** The request body, snake_case as sent. Only request_id and prompt are required; the rest has defaults. */
export interface GenerateImageBody {
  /** Minted by the client: the same id sent again is a replay, answered from the stored row at no charge. */
  request_id: string;
  prompt: string;
  negative_prompt?: string;
  style?: string;
  quality?: Quality;
  aspect_ratio?: AspectRatio;
  /** null or absent: a random seed. */
  seed?: number | null;
  /** A data URL; null or absent: none. */
  reference_image?: string | null;
  /** An image provider's id; absent: the platform default. */
  provider?: string;
  /** An IANA time zone for the daily reset; absent: the X-Timezone header. */
  timezone?: string;
  /**
   * The person's custom style (decision 152), as the task keeps it: its words are added to the prompt
   * (and its negative prompt to the negative prompt) where the prompt is validated; the row names it.
   */
  custom_style?: { id: string; name: string; prompt: string; negative_prompt?: string } | null;
  /**
   * The person's own image this one varies (decision 155); the row links to it. The recipe fields above
   * are the variation's own (the parent's recipe, a new seed for strong, its picture as reference for subtle).
   */
  variation?: VariationBody | null;
}

/** The caller's quota after the request (snake_case, as the quota RPCs return it). */
export interface QuotaState {
  remaining: number;
  daily_limit: number;
  /** ISO 8601. */
  reset_at: string;
}

/** A successful answer: the stored row with a signed URL of its image, and the quota after it. */
export interface GenerateImageAnswer {
  generation: GenerationRow & { image_url: string };
  quota: QuotaState;
  /** True when the request id was already stored: nothing was drawn or charged again. */
  replayed: boolean;
}

/**
 * The answer to a request whose image was made and then deleted by the person (a late retry of a send
 * whose first answer was lost): it is done, nothing was drawn, stored or charged again.
 */
export interface GenerateImageDeleted {
  deleted: { id: string };
  quota: QuotaState;
  replayed: true;
}
