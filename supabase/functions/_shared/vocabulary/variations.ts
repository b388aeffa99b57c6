// Variations (issue 46, decision 155): a new generation made from one of the person's images, linked to it.
// "subtle": the parent's recipe with the parent's picture as the reference image (the engine keeps its
// palette and layout); "strong": the parent's recipe with a new seed. The app sends the link, the server
// checks the parent is the caller's own and stores it (generations.parent_id, generations.variation).
// "upscale-2x" and "upscale-4x" (decision 158): the parent's picture upscaled on the person's device and kept
// in the library through keep-upscale; the kind names the scale, so a row says it without its parent.

/** What generate-image may be asked to make of a parent. */
export const VARY_KINDS = ["subtle", "strong"] as const;
export type VaryKind = (typeof VARY_KINDS)[number];

export const isVaryKind = (value: unknown): value is VaryKind => VARY_KINDS.includes(value as VaryKind);

/** What keep-upscale stores: the parent upscaled 2× or 4× (decision 158). */
export const UPSCALE_KINDS = ["upscale-2x", "upscale-4x"] as const;
export type UpscaleKind = (typeof UPSCALE_KINDS)[number];

export const upscaleKind = (scale: 2 | 4): UpscaleKind => `upscale-${scale}x`;

/** Every way a row may be linked to its parent (generations.variation). */
export const VARIATION_KINDS = [...VARY_KINDS, ...UPSCALE_KINDS] as const;
export type VariationKind = (typeof VARIATION_KINDS)[number];

export const isVariationKind = (value: unknown): value is VariationKind =>
  VARIATION_KINDS.includes(value as VariationKind);

/** What a request says it varies, as sent (snake_case): the parent's id and how. */
export interface VariationBody {
  parent_id: string;
  kind: VaryKind;
}

/** The words a recipe and the large view use for each kind. */
export const VARIATION_LABELS: Readonly<Record<VariationKind, string>> = {
  subtle: "Vary (subtle)",
  strong: "Vary (strong)",
  "upscale-2x": "Upscale 2×",
  "upscale-4x": "Upscale 4×",
};
