// "Keep in library" (decision 158): the upscaled image becomes a generation of the person's library here at
// once, offline too: its record (the original's recipe, the new size, linked to the original as
// 'upscale-2x' | 'upscale-4x'), its bytes, and an outbox entry carrying the file, in one transaction. The
// drain (src/sync/push.ts) sends it to keep-upscale, which stores the same row under the same id, so other
// devices receive it by the pull and realtime as any row; a refusal because the original is gone takes the
// record away again as a listed conflict.
import { upscaleKind } from "#shared/vocabulary/variations.ts";
import type { AppDb } from "../../db/db";
import { putImage } from "../../db/images";
import { addOutboxEntry } from "../../db/outbox";
import type { GenerationRecord } from "../../db/schema";
import { exportImage } from "../../lib/image-export";
import type { ImageRecipe } from "#shared/recipe-metadata/recipe.ts";
import type { UpscaleScale } from "./upscale-models";

const EXTENSIONS: Record<string, string> = { "image/webp": "webp", "image/png": "png", "image/jpeg": "jpg" };

/**
 * The file that is kept: WebP at the export's quality (a 4096² PNG runs to tens of MB; the bucket takes
 * 20 MiB), carrying the recipe with the upscale noted; JPEG where the browser cannot encode WebP (Safari).
 */
export async function keptFile(png: Blob, recipe: ImageRecipe): Promise<Blob> {
  try {
    return await exportImage(png, "webp", recipe);
  } catch {
    return await exportImage(png, "jpg", recipe);
  }
}

/** The kept upscale's record: the original's recipe at the new size, private, unsaved, linked to it. */
export function keptRecord(
  original: GenerationRecord,
  file: { id: string; type: string; width: number; height: number },
  scale: UpscaleScale,
  now: number,
): GenerationRecord {
  const { removedAt: _removed, removedReason: _reason, ...recipe } = original;
  return {
    ...recipe,
    id: file.id,
    width: file.width,
    height: file.height,
    imagePath: `${original.userId}/${file.id}.${EXTENSIONS[file.type] ?? "webp"}`,
    isPublic: 0,
    isSaved: 0,
    createdAt: new Date(now).toISOString(),
    variation: { of: original.id, kind: upscaleKind(scale) },
  };
}

/** Writes the record, its bytes and its outbox entry together; the new generation's id. */
export async function keepUpscale(
  db: AppDb,
  original: GenerationRecord,
  upscaled: { image: Blob; width: number; height: number },
  scale: UpscaleScale,
  now: number = Date.now(),
): Promise<string> {
  const id = crypto.randomUUID();
  const record = keptRecord(original, { id, type: upscaled.image.type, ...upscaled }, scale, now);
  await db.transaction("rw", [db.generations, db.images, db.imageUse, db.outbox], async () => {
    await db.generations.add(record);
    await putImage(db, id, original.userId, { image: upscaled.image });
    await addOutboxEntry(
      db,
      original.userId,
      { kind: "upscale.keep", payload: { generationId: id, originalId: original.id, scale, image: upscaled.image } },
      now,
    );
  });
  return id;
}
