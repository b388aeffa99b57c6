// The person's custom styles on this device (decision 152), read live, with whether their tier lets them
// make and change styles (the limits this device last read: the server decides again on every save).
import { useLiveQuery } from "dexie-react-hooks";
import { useEffect, useRef, useState } from "react";
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

/** A newest generation and the bytes this device holds of it (read live from Dexie alone). */
type HeldImage = { id: string; prompt: string; thumbnail?: string; image?: Blob };

async function heldImages(userId: string): Promise<HeldImage[]> {
  const records = await newestGenerations(userId, PREVIEW_CHOICES);
  const images = await getImages(records.map((r) => r.id));
  return records.map((r, i) => ({
    id: r.id,
    prompt: r.prompt,
    thumbnail: images[i]?.thumbnail,
    image: images[i]?.image,
  }));
}

/**
 * The person's newest images this device holds, as small JPEG data: URLs (the grid's thumbnail, made from
 * the full image when there is none yet): the previews a style may take. Read live, so an image stored
 * while the editor is open (made here, or fetched for one made on another device) joins the choices;
 * null while first read. A thumbnail made from a full image is made once per id.
 */
export function usePreviewChoices(userId: string): PreviewChoice[] | null {
  const held = useLiveQuery(() => heldImages(userId), [userId]);
  const made = useRef(new Map<string, string | undefined>());
  const [choices, setChoices] = useState<PreviewChoice[] | null>(null);
  useEffect(() => {
    if (!held) return;
    let live = true;
    const sourceOf = async (h: HeldImage): Promise<string | undefined> => {
      if (h.thumbnail) return h.thumbnail;
      if (!h.image) return undefined;
      if (!made.current.has(h.id)) made.current.set(h.id, await makeThumbnail(h.image).catch(() => undefined));
      return made.current.get(h.id);
    };
    void Promise.all(
      held.map(async (h): Promise<PreviewChoice | null> => {
        const src = await sourceOf(h);
        return src?.startsWith("data:image/") ? { id: h.id, prompt: h.prompt, src } : null;
      }),
    ).then((c) => live && setChoices(c.filter((x): x is PreviewChoice => x !== null)));
    return () => {
      live = false;
    };
  }, [held]);
  return choices;
}
