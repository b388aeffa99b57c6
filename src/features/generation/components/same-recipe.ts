// An identical re-run: with a fixed seed, the same prompt, negative prompt, style, quality, ratio and
// engine draw the same picture again, and spend one of the day's images on it. Before such a request is
// queued the generator looks for a generation of the person's that has this recipe, and asks.
import type { GenerationRecord } from "../../../db/schema";
import { generationsWithSeed } from "../../../db/queries";
import type { GenerateSettings } from "./generator-settings";

/**
 * Whether `record` was made with the recipe of `request`. `engine` is the engine the request will be
 * drawn by (the one chosen, else the deployment's default); unknown, any engine counts. A request with
 * a reference image never matches: a record does not keep the reference it was drawn from.
 */
export function madeWithRecipe(record: GenerationRecord, request: GenerateSettings, engine: string | null): boolean {
  return (
    request.seed !== null &&
    !request.referenceImage &&
    record.seed === request.seed &&
    record.prompt.trim() === request.prompt &&
    (record.negativePrompt ?? "").trim() === request.negativePrompt &&
    record.style === request.style &&
    record.quality === request.quality &&
    record.aspectRatio === request.aspectRatio &&
    (engine === null || record.provider === engine)
  );
}

/**
 * The newest of the person's generations made with this recipe, or null (also for a random seed). The
 * engine is asked for (`engine`, see madeWithRecipe) only when there is a recipe to look for: a click
 * with a random seed goes to its send without a read.
 */
export async function findSameRecipe(
  userId: string,
  request: GenerateSettings,
  engine: string | null | (() => Promise<string | null>),
): Promise<GenerationRecord | null> {
  if (request.seed === null || request.referenceImage) return null;
  const [candidates, drawnBy] = await Promise.all([
    generationsWithSeed(userId, request.seed),
    typeof engine === "function" ? engine() : engine,
  ]);
  return candidates.find((g) => madeWithRecipe(g, request, drawnBy)) ?? null;
}
