// The recipe an image file carries: what a person chose (prompt, negative prompt, style, quality, aspect
// ratio) and what drew it (size, seed, engine and model), as a versioned JSON object ({"v":1,...}) for
// programs, and as one human-readable text in the style AUTOMATIC1111 writes ("parameters"), for people and
// the tools that read that text. The writers for each file format (png.ts, jpeg.ts, webp.ts, with xmp.ts)
// and the reader that opens an image to make it again (recipe-file.ts) share this one shape.
import { type GenerationChoice, isAspectRatio, isQuality } from "../vocabulary/generation.ts";
import { isVariationKind, type VariationKind } from "../vocabulary/variations.ts";

/** The fields of the app's Recipe (src/lib/generation-recipe.ts) that say how to make the picture again. */
export type ImageRecipe = GenerationChoice & {
  width: number;
  height: number;
  /** Null when the engine takes no seed. */
  seed: number | null;
  /** The engine (provider id: builtin, replicate, ...). */
  provider: string;
  model: string;
  /**
   * The name of the person's custom style it was made with (decision 152), whose words are already in the
   * prompt and negative prompt; absent when none was.
   */
  customStyle?: string;
  /** The image it varies (decision 155): that generation's id, and how; absent when it is no variation. */
  variation?: { of: string; kind: VariationKind };
  /**
   * An upscale made on the device (decision 154): by how much, with which model. Width and height stay the
   * drawn size, which is what makes the picture again; absent for the drawn image itself.
   */
  upscale?: { scale: 2 | 4; model: string };
};

export const RECIPE_VERSION = 1;

/** The PNG text keyword of the JSON recipe. */
export const RECIPE_KEYWORD = "promptcanvas:recipe";
/** The PNG text keyword AUTOMATIC1111 stores its generation text under. */
export const PARAMETERS_KEYWORD = "parameters";

/** The recipe's own fields, in a fixed order, whatever else the object passed in holds. */
function fieldsOf(r: ImageRecipe): ImageRecipe {
  return {
    prompt: r.prompt,
    negativePrompt: r.negativePrompt,
    style: r.style,
    quality: r.quality,
    aspectRatio: r.aspectRatio,
    width: r.width,
    height: r.height,
    seed: r.seed,
    provider: r.provider,
    model: r.model,
    ...(typeof r.customStyle === "string" && r.customStyle ? { customStyle: r.customStyle } : {}),
    ...(isVariation(r.variation) ? { variation: { of: r.variation.of, kind: r.variation.kind } } : {}),
    ...(isUpscale(r.upscale) ? { upscale: { scale: r.upscale.scale, model: r.upscale.model } } : {}),
  };
}

function isUpscale(v: unknown): v is { scale: 2 | 4; model: string } {
  const o = v as { scale?: unknown; model?: unknown } | null | undefined;
  return typeof o === "object" && o !== null && (o.scale === 2 || o.scale === 4) && typeof o.model === "string" &&
    o.model !== "";
}

function isVariation(v: unknown): v is { of: string; kind: VariationKind } {
  const o = v as { of?: unknown; kind?: unknown } | null | undefined;
  return typeof o === "object" && o !== null && typeof o.of === "string" && o.of !== "" && isVariationKind(o.kind);
}

export function recipeJson(r: ImageRecipe): string {
  return JSON.stringify({ v: RECIPE_VERSION, ...fieldsOf(r) });
}

const isText = (v: unknown): v is string => typeof v === "string";
const isSide = (v: unknown): v is number => Number.isInteger(v) && (v as number) > 0;
const isSeed = (v: unknown): v is number | null => v === null || (Number.isInteger(v) && (v as number) >= 0);

/** A recipe from a parsed object of this version, or null when any field is missing or of the wrong kind. */
export function recipeFromObject(o: unknown): ImageRecipe | null {
  if (!o || typeof o !== "object") return null;
  const r = o as Record<string, unknown>;
  if (r.v !== RECIPE_VERSION) return null;
  const ok = isText(r.prompt) && isText(r.negativePrompt) && isText(r.style) && isQuality(r.quality) &&
    isAspectRatio(r.aspectRatio) && isSide(r.width) && isSide(r.height) && isSeed(r.seed) && isText(r.provider) &&
    isText(r.model) && (r.customStyle === undefined || isText(r.customStyle)) &&
    (r.variation === undefined || isVariation(r.variation)) && (r.upscale === undefined || isUpscale(r.upscale));
  return ok ? fieldsOf(r as unknown as ImageRecipe) : null;
}

export function recipeFromJson(text: string): ImageRecipe | null {
  try {
    return recipeFromObject(JSON.parse(text));
  } catch {
    return null;
  }
}

/** A value as AUTOMATIC1111 writes it in its list: JSON-quoted when it holds a comma, colon, quote or line break. */
function listValue(v: string): string {
  return /[,:"\n]/.test(v) ? JSON.stringify(v) : v;
}

/**
 * The human-readable recipe: the prompt, then "Negative prompt: ..." when there is one, then one line of
 * "Key: value" pairs (AUTOMATIC1111's layout, so the tools that read its text read this one).
 */
export function parametersText(r: ImageRecipe): string {
  const pairs: [string, string][] = [
    ...(r.seed === null ? [] : [["Seed", String(r.seed)] as [string, string]]),
    ["Size", `${r.width}x${r.height}`],
    ["Model", r.model],
    ["Engine", r.provider],
    ["Style", r.style],
    ...(r.customStyle ? [["Custom style", r.customStyle] as [string, string]] : []),
    ...(r.variation ? [["Variation", `${r.variation.kind} of ${r.variation.of}`] as [string, string]] : []),
    ["Quality", r.quality],
    ["Aspect ratio", r.aspectRatio],
    ...(r.upscale ? [["Upscale", `${r.upscale.scale}x`], ["Upscaler", r.upscale.model]] as [string, string][] : []),
  ];
  const negative = r.negativePrompt.trim() ? [`Negative prompt: ${r.negativePrompt}`] : [];
  return [r.prompt, ...negative, pairs.map(([k, v]) => `${k}: ${listValue(v)}`).join(", ")].join("\n");
}
