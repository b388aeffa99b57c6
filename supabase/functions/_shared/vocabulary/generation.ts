// Generation settings and how they map to pixels (docs/spec.md §5 values, §9 sizes and limits).
// Provider-specific mappings (model names, size strings) stay with each provider adapter.

export const QUALITIES = ["standard", "high", "ultra"] as const;
export type Quality = (typeof QUALITIES)[number];

export const ASPECT_RATIOS = ["1:1", "16:9", "9:16"] as const;
export type AspectRatio = (typeof ASPECT_RATIOS)[number];

/**
 * What a person chooses for one image (docs/spec.md §5), named as the app, the queue and the edge function
 * name it. Each place adds its own fields (seed, size, ids); `Style` narrows to the product's style ids
 * where they are checked.
 */
export interface GenerationChoice<Style extends string = string> {
  prompt: string;
  negativePrompt: string;
  style: Style;
  quality: Quality;
  aspectRatio: AspectRatio;
}

export const PROMPT_MAX_CHARS = 500;
export const NEGATIVE_PROMPT_MAX_CHARS = 300;

/** Seeds every provider accepts (Replicate and Runware take 32-bit unsigned seeds). */
export const SEED_MAX = 4_294_967_295;

/** Pixels per aspect ratio (docs/spec.md §9: the default size is 1024x1024). */
export const DIMENSIONS: Readonly<Record<AspectRatio, { readonly width: number; readonly height: number }>> = {
  "1:1": { width: 1024, height: 1024 },
  "16:9": { width: 1536, height: 1024 },
  "9:16": { width: 1024, height: 1536 },
};

/** The generator's settings before any preference applies (docs/spec.md §3). */
export const GENERATION_DEFAULTS = { style: "photorealistic", quality: "standard", aspectRatio: "1:1" } as const;

/** The defaults a new `user_preferences` row gets (docs/spec.md §3: photorealistic, high, 1:1, true, false). */
export const PREFERENCE_DEFAULTS = {
  style: "photorealistic",
  quality: "high",
  aspectRatio: "1:1",
  notificationsEnabled: true,
  publicGalleryOptIn: false,
} as const;

/** Batch mode's slider (docs/spec.md §5). */
export const BATCH_MIN = 1;
export const BATCH_MAX = 10;
export const BATCH_DEFAULT = 4;

/** The queue's concurrency (docs/spec.md §9). */
export const CONCURRENCY_MIN = 1;
export const CONCURRENCY_MAX = 4;
export const CONCURRENCY_DEFAULT = 2;

export const PROMPT_HISTORY_MAX = 20;

export const isQuality = (value: unknown): value is Quality => QUALITIES.includes(value as Quality);
export const isAspectRatio = (value: unknown): value is AspectRatio => ASPECT_RATIOS.includes(value as AspectRatio);

/** A reference image's limits (docs/spec.md §5): the server refuses larger uploads; the client scales below them. */
export const REFERENCE_IMAGE_MAX_BYTES = 4 * 1024 * 1024;
export const REFERENCE_IMAGE_MAX_SIDE = 4096;
/** Most pixels (width x height) a reference image may have: 16 M, i.e. 4000 x 4000 (docs/spec.md §5). */
export const REFERENCE_IMAGE_MAX_PIXELS = 16_000_000;
