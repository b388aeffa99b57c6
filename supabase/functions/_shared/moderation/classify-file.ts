// The image check of one stored image file: decoded within the stored-image limits (PNG, JPEG, GIF),
// then scored by the classifier. A file that does not decode is a value (its ImageError), as a decode's
// is; a classifier that cannot start throws. The local backend runs this in a render process (a
// classify job, local/render-protocol.ts); hosted Edge Functions run it in the function's isolate.
import { decodeImage } from "../image/decode.ts";
import { fail, type ImageResult, ok } from "../image/result.ts";
import { loadClassifier, STORED_IMAGE_LIMITS } from "./classifier.ts";
import type { ImageScores } from "./image-verdict.ts";

export async function classifyImageFile(bytes: Uint8Array): Promise<ImageResult<ImageScores>> {
  const decoded = decodeImage(bytes, STORED_IMAGE_LIMITS);
  if (!decoded.ok) return fail(decoded.error.code, decoded.error.message);
  const classify = await loadClassifier();
  return ok(await classify(decoded.value));
}

/** How much CPU time one classify job may take in a render process, the model's first load included. */
export const CLASSIFY_BUDGET_MS = 10_000;
