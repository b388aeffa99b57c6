// The product's generation settings and how they map to pixels (spec §5 values, §9 image sizes).
// Provider-specific mappings (models, size strings) live with each provider adapter.
export const QUALITIES = ["standard", "high", "ultra"] as const;
export type Quality = (typeof QUALITIES)[number];

export const ASPECT_RATIOS = ["1:1", "16:9", "9:16"] as const;
export type AspectRatio = (typeof ASPECT_RATIOS)[number];

export const PROMPT_MAX_CHARS = 500;
export const NEGATIVE_PROMPT_MAX_CHARS = 300;
/** Seeds every provider accepts (Replicate and Runware take 32-bit unsigned seeds). */
export const SEED_MAX = 4_294_967_295;

export const DIMENSIONS: Record<AspectRatio, { width: number; height: number }> = {
  "1:1": { width: 1024, height: 1024 },
  "16:9": { width: 1536, height: 1024 },
  "9:16": { width: 1024, height: 1536 },
};

export const DEFAULTS = { style: "photorealistic", quality: "standard", aspectRatio: "1:1" } as const;

/**
 * The seed used when the person left it empty ("random"): derived from the request id, so a retried or
 * concurrently duplicated request draws the same image and stores the same metadata.
 */
export function seedFromRequestId(requestId: string): number {
  const hex = requestId.replace(/-/g, "");
  let h = 0x811c9dc5;
  for (let i = 0; i < hex.length; i++) {
    h ^= hex.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** Words added to a remote model's prompt so the chosen style reaches it (the built-in engine reads the id). */
export function styledPrompt(prompt: string, style: string): string {
  if (style === "nano-banana") return prompt;
  return `${prompt}, ${style.replace(/-/g, " ")} style`;
}
