// The person's custom styles on this device (decision 152), read live, with whether their tier lets them
// make and change styles (the limits this device last read: the server decides again on every save).
import { useLiveQuery } from "dexie-react-hooks";
import { CUSTOM_STYLES_TIER } from "#shared/vocabulary/custom-styles.ts";
import { listCustomStyles } from "../../../../db/custom-styles";
import { getImages } from "../../../../db/images";
import { newestGenerations } from "../../../../db/queries";
import type { CustomStyleRecord } from "../../../../db/schema";
import { makeThumbnail } from "../../../../lib/thumbnail";
import { useLimitsRecord } from "../../../../sync/use-limits-record";

/**
 * The person's custom styles on this device, read live (undefined while read). Read alone: the quota's
 * writes (one a made image) do not read them again.
 */
export function useCustomStyles(userId: string | null | undefined): CustomStyleRecord[] | undefined {
  return useLiveQuery(() => (userId ? listCustomStyles(userId) : undefined), [userId]);
}

/** Whether the tier this device knows allows making and changing styles; undefined while unknown. */
export function useCustomStylesAllowed(userId: string | null | undefined): boolean | undefined {
  const tier = useLimitsRecord(userId)?.tier;
  return tier === undefined ? undefined : tier === CUSTOM_STYLES_TIER;
}

/** How many of the person's newest images the editor offers as a preview. */
const PREVIEW_CHOICES = 12;

export type PreviewChoice = { id: string; prompt: string; src: string };

/**
 * The person's newest images this device holds, as small JPEG data: URLs (the grid's thumbnail, made from
 * the full image when there is none yet): the previews a style may take.
 */
export async function previewChoices(userId: string): Promise<PreviewChoice[]> {
  const records = await newestGenerations(userId, PREVIEW_CHOICES);
  const images = await getImages(records.map((r) => r.id));
  const choices = await Promise.all(
    records.map(async (r, i): Promise<PreviewChoice | null> => {
      const held = images[i];
      const src = held?.thumbnail ?? (held?.image ? await makeThumbnail(held.image) : undefined);
      return src?.startsWith("data:image/") ? { id: r.id, prompt: r.prompt, src } : null;
    }),
  );
  return choices.filter((c): c is PreviewChoice => c !== null);
}
