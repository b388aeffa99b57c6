// The /generate link contract: public pages (prompts, templates, styles, the advanced-options form)
// open the generator pre-filled through query parameters, and the generator reads them back with
// parseGenerateLink. A reference image is too large for a URL, so it waits in sessionStorage.
//   /generate?prompt=…&negative_prompt=…&style=…&quality=…&aspect_ratio=…&seed=…&batch=…&reference=session

export const QUALITY_VALUES = ["standard", "high", "ultra"] as const;
export const ASPECT_RATIO_VALUES = ["1:1", "16:9", "9:16"] as const;
export const PROMPT_MAX_CHARS = 500;
export const NEGATIVE_PROMPT_MAX_CHARS = 300;
export const BATCH_MIN = 1;
export const BATCH_MAX = 10;
export const SEED_MAX = 4_294_967_295;
/** Where a reference image picked on a public page waits for the generator. */
export const REFERENCE_STORAGE_KEY = "promptcanvas.reference_image";

export type Quality = (typeof QUALITY_VALUES)[number];
export type AspectRatio = (typeof ASPECT_RATIO_VALUES)[number];

export type GenerateLinkParams = {
  prompt?: string;
  negativePrompt?: string;
  style?: string;
  quality?: Quality;
  aspectRatio?: AspectRatio;
  seed?: number | null;
  /** Batch mode with this many tasks (1-10); absent means a single generation. */
  batch?: number | null;
  /** True when a reference image waits in sessionStorage. */
  reference?: boolean;
};

function isOneOf<T extends string>(values: readonly T[], v: unknown): v is T {
  return typeof v === "string" && (values as readonly string[]).includes(v);
}

export function buildGenerateLink(p: GenerateLinkParams): string {
  const q = new URLSearchParams();
  const prompt = p.prompt?.trim();
  if (prompt) q.set("prompt", prompt.slice(0, PROMPT_MAX_CHARS));
  const negative = p.negativePrompt?.trim();
  if (negative) q.set("negative_prompt", negative.slice(0, NEGATIVE_PROMPT_MAX_CHARS));
  if (p.style) q.set("style", p.style);
  if (p.quality) q.set("quality", p.quality);
  if (p.aspectRatio) q.set("aspect_ratio", p.aspectRatio);
  if (typeof p.seed === "number" && Number.isInteger(p.seed) && p.seed >= 0) q.set("seed", String(p.seed));
  if (typeof p.batch === "number" && p.batch >= BATCH_MIN && p.batch <= BATCH_MAX)
    q.set("batch", String(Math.trunc(p.batch)));
  if (p.reference) q.set("reference", "session");
  const query = q.toString();
  return query ? `/generate?${query}` : "/generate";
}

/** Reads a /generate query string; values that do not fit the product's rules are left out. */
export function parseGenerateLink(search: string, styleIds: readonly string[]): GenerateLinkParams {
  const q = new URLSearchParams(search.startsWith("?") ? search.slice(1) : search);
  const out: GenerateLinkParams = {};
  const prompt = q.get("prompt")?.trim();
  if (prompt) out.prompt = prompt.slice(0, PROMPT_MAX_CHARS);
  const negative = q.get("negative_prompt")?.trim();
  if (negative) out.negativePrompt = negative.slice(0, NEGATIVE_PROMPT_MAX_CHARS);
  const style = q.get("style");
  if (style && styleIds.includes(style)) out.style = style;
  const quality = q.get("quality");
  if (isOneOf(QUALITY_VALUES, quality)) out.quality = quality;
  const ratio = q.get("aspect_ratio");
  if (isOneOf(ASPECT_RATIO_VALUES, ratio)) out.aspectRatio = ratio;
  const seed = q.get("seed");
  if (seed && /^\d+$/.test(seed) && Number(seed) <= SEED_MAX) out.seed = Number(seed);
  const batch = Number(q.get("batch"));
  if (Number.isInteger(batch) && batch >= BATCH_MIN && batch <= BATCH_MAX) out.batch = batch;
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
