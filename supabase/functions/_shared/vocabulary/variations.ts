// Variations (issue 46, decision 155): a new generation made from one of the person's images, linked to it.
// "subtle": the parent's recipe with the parent's picture as the reference image (the engine keeps its
// palette and layout); "strong": the parent's recipe with a new seed. The app sends the link, the server
// checks the parent is the caller's own and stores it (generations.parent_id, generations.variation).

export const VARIATION_KINDS = ["subtle", "strong"] as const;
export type VariationKind = (typeof VARIATION_KINDS)[number];

export const isVariationKind = (value: unknown): value is VariationKind =>
  VARIATION_KINDS.includes(value as VariationKind);

/** What a request says it varies, as sent (snake_case): the parent's id and how. */
export interface VariationBody {
  parent_id: string;
  kind: VariationKind;
}

/** The words a recipe and the large view use for each kind. */
export const VARIATION_LABELS: Readonly<Record<VariationKind, string>> = {
  subtle: "Vary (subtle)",
  strong: "Vary (strong)",
};
