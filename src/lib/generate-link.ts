// The /generate link contract: public pages (prompts, templates, styles, the advanced-options form)
// open the generator pre-filled through query parameters, and the generator reads them back with
// parseGenerateLink. A reference image is too large for a URL, so it waits in sessionStorage.
//   /generate?prompt=…&negative_prompt=…&style=…&quality=…&aspect_ratio=…&seed=…&batch=…&engine=…&reference=session
// Every limit and value list is the shared vocabulary's, so a link never asks for what the generator refuses;
// a longer prompt is clipped by code points (#shared/vocabulary/prompt.ts), never inside an emoji.
import {
  BATCH_MAX,
  BATCH_MIN,
  NEGATIVE_PROMPT_MAX_CHARS,
  PROMPT_MAX_CHARS,
  SEED_MAX,
  isAspectRatio,
  isQuality,
  type AspectRatio,
  type Quality,
} from "#shared/vocabulary/generation.ts";
import { clipChars } from "#shared/vocabulary/prompt.ts";
import { isStyleId, type StyleId } from "#shared/vocabulary/styles.ts";

/** Where a reference image picked on a public page waits for the generator. */
export const REFERENCE_STORAGE_KEY = "promptcanvas.reference_image";

export type GenerateLinkParams = {
  prompt?: string;
  negativePrompt?: string;
  style?: StyleId;
  quality?: Quality;
  aspectRatio?: AspectRatio;
  seed?: number | null;
  /** Batch mode with this many tasks (1-10); absent means a single generation. */
  batch?: number | null;
  /** True when a reference image waits in sessionStorage. */
  reference?: boolean;
  /** An image engine's id (the deployment's ids are short lowercase words); absent: the default. */
  engine?: string;
};

/** The shape of an engine id; whether the deployment offers it is the generator's to check. */
export const isEngineId = (v: unknown): v is string => typeof v === "string" && /^[a-z0-9]{1,20}$/.test(v);

/**
 * What a page may put in a link. The style may come from a stored row (any string); one that is not
 * the product's is left out, as the generator would ignore it.
 */
export type GenerateLinkInput = Omit<GenerateLinkParams, "style"> & { style?: string };

export function buildGenerateLink(p: GenerateLinkInput): string {
  const q = new URLSearchParams();
  const prompt = p.prompt?.trim();
  if (prompt) q.set("prompt", clipChars(prompt, PROMPT_MAX_CHARS));
  const negative = p.negativePrompt?.trim();
  if (negative) q.set("negative_prompt", clipChars(negative, NEGATIVE_PROMPT_MAX_CHARS));
  if (isStyleId(p.style)) q.set("style", p.style);
  if (p.quality) q.set("quality", p.quality);
  if (p.aspectRatio) q.set("aspect_ratio", p.aspectRatio);
  if (typeof p.seed === "number" && Number.isInteger(p.seed) && p.seed >= 0) q.set("seed", String(p.seed));
  if (typeof p.batch === "number" && p.batch >= BATCH_MIN && p.batch <= BATCH_MAX)
    q.set("batch", String(Math.trunc(p.batch)));
  if (isEngineId(p.engine)) q.set("engine", p.engine);
  if (p.reference) q.set("reference", "session");
  const query = q.toString();
  return query ? `/generate?${query}` : "/generate";
}

/** Reads a /generate query string; values that do not fit the product's rules are left out. */
export function parseGenerateLink(search: string): GenerateLinkParams {
  const q = new URLSearchParams(search.startsWith("?") ? search.slice(1) : search);
  const out: GenerateLinkParams = {};
  const prompt = q.get("prompt")?.trim();
  if (prompt) out.prompt = clipChars(prompt, PROMPT_MAX_CHARS);
  const negative = q.get("negative_prompt")?.trim();
  if (negative) out.negativePrompt = clipChars(negative, NEGATIVE_PROMPT_MAX_CHARS);
  const style = q.get("style");
  if (isStyleId(style)) out.style = style;
  const quality = q.get("quality");
  if (isQuality(quality)) out.quality = quality;
  const ratio = q.get("aspect_ratio");
  if (isAspectRatio(ratio)) out.aspectRatio = ratio;
  const seed = q.get("seed");
  if (seed && /^\d+$/.test(seed) && Number(seed) <= SEED_MAX) out.seed = Number(seed);
  const batch = Number(q.get("batch"));
  if (Number.isInteger(batch) && batch >= BATCH_MIN && batch <= BATCH_MAX) out.batch = batch;
  const engine = q.get("engine");
  if (isEngineId(engine)) out.engine = engine;
  if (q.get("reference") === "session") out.reference = true;
  return out;
}

/** Keeps a reference image (a data URL) for the generator; false when storage refuses it. */
export function stashReferenceImage(
  dataUrl: string,
  storage: Storage | undefined = globalThis.sessionStorage,
): boolean {
  try {
    storage?.setItem(REFERENCE_STORAGE_KEY, dataUrl);
    return Boolean(storage);
  } catch {
    return false;
  }
}

/** The waiting reference image, removed as it is taken so it fills the generator once. */
export function takeReferenceImage(storage: Storage | undefined = globalThis.sessionStorage): string | null {
  try {
    const value = storage?.getItem(REFERENCE_STORAGE_KEY) ?? null;
    storage?.removeItem(REFERENCE_STORAGE_KEY);
    return value;
  } catch {
    return null;
  }
}
