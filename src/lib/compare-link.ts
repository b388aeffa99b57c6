// The /compare link contract (decision 156): History, Saved and the gallery (and, once they exist,
// collections) open a comparison of 2 to 4 images through `/compare?ids=a,b,c`, and the compare page
// reads the ids back with parseCompareIds. The link holds ids alone, so the same address reopens the
// same comparison on another device: the person's own images come from their library there, published
// ones from the gallery for anyone. Features do not import each other; this link is what they share.
//
// A grid's selection for comparing is the ids in the order they were picked (the comparison's order).

const COMPARE_PATH = "/compare";
export const COMPARE_MIN = 2;
export const COMPARE_MAX = 4;

const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `/compare?ids=…` for these ids, in this order (commas are kept readable in the address). */
export function compareLink(ids: readonly string[]): string {
  return `${COMPARE_PATH}?ids=${ids.map(encodeURIComponent).join(",")}`;
}

/**
 * The ids a /compare address asks for: well-formed ids only, each once, in order, at most COMPARE_MAX
 * (a longer list is cut, never refused: the first four are compared).
 */
export function parseCompareIds(search: string): string[] {
  const raw = new URLSearchParams(search).get("ids") ?? "";
  const ids: string[] = [];
  for (const part of raw.split(",")) {
    const id = part.trim().toLowerCase();
    if (ID.test(id) && !ids.includes(id)) ids.push(id);
    if (ids.length === COMPARE_MAX) break;
  }
  return ids;
}

/** Whether a selection of `count` images can be compared. */
export function canCompare(count: number): boolean {
  return count >= COMPARE_MIN && count <= COMPARE_MAX;
}

/** What a selection bar says about comparing `count` selected images. */
export function compareHint(count: number): string {
  if (count < COMPARE_MIN) return `Select ${COMPARE_MIN} to ${COMPARE_MAX} images to compare`;
  if (count > COMPARE_MAX) return `Compare takes at most ${COMPARE_MAX} images: ${count} are selected`;
  return `${count} selected`;
}

/** The selection with `id` added at its end, or taken out when it was in (the order picked is kept). */
export function toggledSelection(selected: readonly string[], id: string): string[] {
  return selected.includes(id) ? selected.filter((x) => x !== id) : [...selected, id];
}
