// What "Vary (subtle)" and "Vary (strong)" queue (decision 155): the parent's own recipe as a new request
// that names its parent. Strong sends no seed, so the server draws it with a new one; subtle keeps the
// parent's seed and sends the parent's picture as the reference image, at the size of its thumbnail (the
// engine keeps the reference's palette and layout, which a small picture gives as well as a large one, and
// a thumbnail is on the device offline, within the reference's limits, with no download). The request goes
// through the generator's own queue: offline it waits for the connection like any other.
import type { GenerationRecord, TaskVariation } from "../../db/schema";
import { getImage } from "../../db/images";
import { makeThumbnail } from "../../lib/thumbnail";
import type { VaryKind } from "#shared/vocabulary/variations.ts";

/** The parent's picture as a small data: URL: its kept thumbnail, else one made from the bytes at hand. */
export async function referenceOf(parent: GenerationRecord, image: Blob | undefined): Promise<string | undefined> {
  const kept = (await getImage(parent.id))?.thumbnail;
  if (kept?.startsWith("data:image/")) return kept;
  return image ? makeThumbnail(image) : undefined;
}

/** A variation as the generator queues a request (its settings, with the parent it varies). */
export type VariationSettings = Pick<
  GenerationRecord,
  "prompt" | "negativePrompt" | "style" | "quality" | "aspectRatio" | "seed"
> & { referenceImage?: string; provider?: string; variation: TaskVariation };

/** Queues a variation as the generator queues a request: ok, or why not (the daily limit, offline storage). */
export type QueueVariation = (settings: VariationSettings) => Promise<{ ok: true } | { ok: false; message: string }>;

/** The settings of a variation of `parent`; `reference` is needed for subtle only. */
export function variationSettings(
  parent: GenerationRecord,
  kind: VaryKind,
  reference: string | undefined,
): VariationSettings {
  const variation: TaskVariation = { parentId: parent.id, kind };
  return {
    prompt: parent.prompt,
    negativePrompt: parent.negativePrompt,
    style: parent.style,
    quality: parent.quality,
    aspectRatio: parent.aspectRatio,
    seed: kind === "subtle" ? parent.seed : null,
    ...(kind === "subtle" && reference ? { referenceImage: reference } : {}),
    provider: parent.provider,
    variation,
  };
}
