// What the image check decides from the classifier's scores (docs/decisions/141-the-image-check-before-publishing.md).
// nsfwjs's model gives five classes that sum to one: Drawing and Neutral (safe), Sexy (suggestive, not
// explicit), Porn and Hentai (sexually explicit photographs and drawings). The content policy forbids
// sexually explicit images, so an image is flagged when the two explicit classes together reach
// EXPLICIT_THRESHOLD. At one half, a shipped style preview (steampunk: gears and a car in sepia) was
// flagged at 0.57; 0.7 leaves a margin above every benign image measured. Sexy alone never flags
// (swimwear is allowed); it is kept with the scores for an operator's review.

import { EXPLICIT_THRESHOLD } from "../vocabulary/moderation.ts";

export const NSFW_CLASSES = ["Drawing", "Hentai", "Neutral", "Porn", "Sexy"] as const;
export type NsfwClass = (typeof NSFW_CLASSES)[number];
/** The classifier's probability for each class, as stored in `generations.moderation_scores`. */
export type ImageScores = Record<NsfwClass, number>;

/** Porn + Hentai at or above this flags the image (in the vocabulary, so the content policy names it). */
export { EXPLICIT_THRESHOLD };

/** How likely the model finds the image sexually explicit: its two explicit classes together. */
export const explicitScore = (s: ImageScores): number => s.Porn + s.Hentai;

export const isFlagged = (s: ImageScores): boolean => explicitScore(s) >= EXPLICIT_THRESHOLD;

/** Scores from nsfwjs's predictions (every class present, rounded to 4 places); null when one is missing. */
export function scoresOf(predictions: { className: string; probability: number }[]): ImageScores | null {
  const scores = {} as ImageScores;
  for (const name of NSFW_CLASSES) {
    const p = predictions.find((x) => x.className === name)?.probability;
    if (typeof p !== "number" || !Number.isFinite(p)) return null;
    scores[name] = Math.round(p * 10_000) / 10_000;
  }
  return scores;
}

/** Scores read back from a stored row (moderation_scores), or null when they are not a full set. */
export function storedScores(value: unknown): ImageScores | null {
  if (value === null || typeof value !== "object") return null;
  const v = value as Record<string, unknown>;
  return scoresOf(NSFW_CLASSES.map((className) => ({ className, probability: Number(v[className]) })));
}
