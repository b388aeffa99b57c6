// The ids of the product's 27 styles in the spec's order (docs/spec.md §3), apart from their words
// (styles.ts, which re-exports them): a page that only counts the styles, as the home page does, loads
// the ids alone.

export const STYLE_IDS = [
  "photorealistic",
  "anime",
  "digital-art",
  "oil-painting",
  "watercolor",
  "pixel-art",
  "3d-render",
  "comic-book",
  "line-art",
  "isometric",
  "fantasy",
  "minimalist",
  "cyberpunk",
  "steampunk",
  "art-nouveau",
  "impressionist",
  "pop-art",
  "graffiti",
  "sketch",
  "vintage",
  "neon",
  "gothic",
  "baroque",
  "surreal",
  "abstract",
  "cartoon",
  "nano-banana",
] as const;
export type StyleId = (typeof STYLE_IDS)[number];
