// The one interface every image provider implements, so the generate function never knows which
// service drew the picture. An adapter turns a validated request into image bytes, or an AppError
// already classified into the docs/spec.md §8 catalogue; it never throws for a provider failure.
import type { Result } from "../errors.ts";
import type { GenerationChoice } from "../vocabulary/generation.ts";

export const PROVIDER_IDS = [
  "builtin",
  "replicate",
  "runware",
  "openai",
  "bfl",
  "fal",
  "gemini",
  "a1111",
  "comfyui",
] as const;
export type ProviderId = (typeof PROVIDER_IDS)[number];

export interface ReferenceImage {
  /** The data URL as the client sent it (remote providers accept it as is). */
  dataUrl: string;
  mimeType: string;
  width: number;
  height: number;
  rgba: Uint8Array;
  /** What the built-in engine reads of the pixels, when the decoder answered these instead (engine/reference.ts). */
  cells?: Float32Array;
}

export interface ProviderInput extends GenerationChoice {
  requestId: string;
  width: number;
  height: number;
  seed: number;
  reference: ReferenceImage | null;
  /**
   * Where this render stands among others waiting for the engine: the person's tier as a number
   * (builtin.ts's renderPriorityOf). Only the built-in engine's pool on the local backend reads it; a
   * hosted provider has its own queue and takes no priority from its callers.
   */
  priority?: number;
}

export interface ProviderImage {
  bytes: Uint8Array;
  /** The seed the image was drawn with, or null when the provider takes none. */
  seed: number | null;
  model: string;
}

export interface ImageProvider {
  id: ProviderId;
  /** Whether this provider is an AI model; the built-in engine is a procedural renderer. */
  kind: "procedural" | "ai-model";
  model(input: ProviderInput): string;
  /** Must settle soon after `signal` aborts (the generation's deadline). */
  generate(input: ProviderInput, signal: AbortSignal): Promise<Result<ProviderImage>>;
}
