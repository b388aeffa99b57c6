// One zip of chosen generations: each image as stored (no re-encoding), with its recipe written in
// (lib/image-export.ts, withRecipe: its pixels untouched), plus their settings as
// settings.json and settings.csv, so the recipes open in a script or a spreadsheet. Images are
// already compressed, so they are stored as they are; only the settings files are deflated.
import { zipSync, strToU8, type Zippable } from "fflate";
import { fileNameFor, withRecipe } from "../../lib/image-export";
import { recipesCsv, type RecipeWithFile } from "../../lib/generation-recipe";
import type { GenerationRecord } from "../../db/schema";

const EXT_BY_MIME: Record<string, string> = { "image/png": "png", "image/jpeg": "jpg", "image/webp": "webp" };

export type ZipItem = { record: GenerationRecord; image: Blob };

/** Unique, readable names: the prompt's slug, numbered when two prompts read the same. */
function uniqueName(taken: Set<string>, prompt: string, ext: string): string {
  const base = fileNameFor(prompt, "png").replace(/\.png$/, "");
  let name = `${base}.${ext}`;
  for (let n = 2; taken.has(name); n++) name = `${base}-${n}.${ext}`;
  taken.add(name);
  return name;
}

function recipeOf(record: GenerationRecord, file: string): RecipeWithFile {
  return {
    file,
    id: record.id,
    prompt: record.prompt,
    negativePrompt: record.negativePrompt,
    style: record.style,
    quality: record.quality,
    aspectRatio: record.aspectRatio,
    width: record.width,
    height: record.height,
    seed: record.seed,
    provider: record.provider,
    model: record.model,
    createdAt: record.createdAt,
    ...(record.customStyle ? { customStyle: record.customStyle } : {}),
  };
}

export async function buildZip(items: readonly ZipItem[]): Promise<Uint8Array> {
  const taken = new Set<string>(["settings.json", "settings.csv"]);
  const files: Zippable = {};
  const recipes: RecipeWithFile[] = [];
  for (const { record, image } of items) {
    const name = uniqueName(taken, record.prompt, EXT_BY_MIME[image.type] ?? "png");
    files[name] = [new Uint8Array(await (await withRecipe(image, record)).arrayBuffer()), { level: 0 }];
    recipes.push(recipeOf(record, name));
  }
  files["settings.json"] = strToU8(JSON.stringify(recipes, null, 2) + "\n");
  files["settings.csv"] = strToU8(recipesCsv(recipes));
  return zipSync(files, { level: 6 });
}

/** "promptcanvas-saved-2026-11-22.zip"; a collection's: "promptcanvas-<its name as a slug>-2026-11-22.zip". */
export function zipFileName(now: Date = new Date(), name = "saved"): string {
  const day = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, "0")}-${String(now.getDate()).padStart(2, "0")}`;
  const slug = fileNameFor(name, "png").replace(/\.png$/, "");
  return `promptcanvas-${slug}-${day}.zip`;
}
