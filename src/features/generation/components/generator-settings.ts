// The generator's form as plain data: its defaults (saved preferences, else the product defaults),
// what a /generate link fills in, the docs/spec.md §5 checks and the request the queue receives. Pure, so
// the rules are tested without rendering.
import {
  BATCH_DEFAULT,
  BATCH_MAX,
  BATCH_MIN,
  GENERATION_DEFAULTS,
  NEGATIVE_PROMPT_MAX_CHARS,
  PREFERENCE_DEFAULTS,
  PROMPT_MAX_CHARS,
  SEED_MAX,
  isAspectRatio,
  isQuality,
  type GenerationChoice,
} from "#shared/vocabulary/generation.ts";
import { clipChars, validateNegativePrompt, validatePrompt } from "#shared/vocabulary/prompt.ts";
import { isStyleId, type StyleId } from "#shared/vocabulary/styles.ts";
import type { ImageRecipe } from "#shared/recipe-metadata/recipe.ts";
import type { AppliedCustomStyle } from "#shared/vocabulary/custom-styles.ts";
import type { CustomStyleRecord } from "../../../db/schema";
import { isEngineId, type GenerateLinkParams } from "../../../lib/generate-link";

export type GeneratorSettings = GenerationChoice<StyleId> & {
  /** As typed; empty means a random seed. */
  seed: string;
  referenceImage: { dataUrl: string; name: string } | null;
  batch: boolean;
  batchCount: number;
  /** The image engine asked for; empty: the deployment's default. */
  provider: string;
  /** The person's custom style chosen (decision 152); empty: none (the built-in `style` alone). */
  customStyleId: string;
};

/** The saved defaults a person chose (a `preferences` record's fields). */
export type SavedDefaults = { defaultStyle: string; defaultQuality: string; defaultAspectRatio: string };

/** The defaults of a preferences row made for a new account (docs/spec.md §3: photorealistic, high, 1:1). */
export const NEW_ACCOUNT_DEFAULTS: SavedDefaults = {
  defaultStyle: PREFERENCE_DEFAULTS.style,
  defaultQuality: PREFERENCE_DEFAULTS.quality,
  defaultAspectRatio: PREFERENCE_DEFAULTS.aspectRatio,
};

export type StyleQualityRatio = Pick<GeneratorSettings, "style" | "quality" | "aspectRatio">;

export function defaultsFrom(prefs: SavedDefaults | undefined | null): StyleQualityRatio {
  return {
    style: prefs && isStyleId(prefs.defaultStyle) ? prefs.defaultStyle : GENERATION_DEFAULTS.style,
    quality: prefs && isQuality(prefs.defaultQuality) ? prefs.defaultQuality : GENERATION_DEFAULTS.quality,
    aspectRatio:
      prefs && isAspectRatio(prefs.defaultAspectRatio) ? prefs.defaultAspectRatio : GENERATION_DEFAULTS.aspectRatio,
  };
}

export function initialSettings(prefs?: SavedDefaults | null): GeneratorSettings {
  return {
    prompt: "",
    negativePrompt: "",
    ...defaultsFrom(prefs),
    seed: "",
    referenceImage: null,
    batch: false,
    batchCount: BATCH_DEFAULT,
    provider: "",
    customStyleId: "",
  };
}

/** The settings with what a generator link carries; anything the link leaves out keeps its value. */
export function applyLink(
  settings: GeneratorSettings,
  link: GenerateLinkParams,
  reference: string | null,
): GeneratorSettings {
  const next = { ...settings };
  if (link.prompt !== undefined) next.prompt = link.prompt;
  if (link.negativePrompt !== undefined) next.negativePrompt = link.negativePrompt;
  if (link.style !== undefined && isStyleId(link.style)) next.style = link.style;
  if (link.quality) next.quality = link.quality;
  if (link.aspectRatio) next.aspectRatio = link.aspectRatio;
  if (typeof link.seed === "number") next.seed = String(link.seed);
  if (typeof link.batch === "number") {
    next.batch = true;
    next.batchCount = clampBatch(link.batch);
  }
  if (link.engine) next.provider = link.engine;
  if (link.reference && reference) next.referenceImage = { dataUrl: reference, name: "from the previous page" };
  return next;
}

/**
 * The settings an image's recipe carries (an image opened to remix it): its prompt, negative prompt,
 * style, quality, aspect ratio, seed and engine; a value the product does not know keeps the current
 * one. The reference image goes (a recipe does not carry one); batch mode stays as it is.
 */
export function applyRecipe(settings: GeneratorSettings, recipe: ImageRecipe): GeneratorSettings {
  // A recipe's prompt already holds its custom style's words: the style is not added a second time.
  const next = { ...settings, referenceImage: null, customStyleId: "" };
  next.prompt = clipChars(recipe.prompt.trim(), PROMPT_MAX_CHARS);
  next.negativePrompt = clipChars(recipe.negativePrompt.trim(), NEGATIVE_PROMPT_MAX_CHARS);
  if (isStyleId(recipe.style)) next.style = recipe.style;
  if (isQuality(recipe.quality)) next.quality = recipe.quality;
  if (isAspectRatio(recipe.aspectRatio)) next.aspectRatio = recipe.aspectRatio;
  next.seed =
    typeof recipe.seed === "number" && Number.isInteger(recipe.seed) && recipe.seed >= 0 && recipe.seed <= SEED_MAX
      ? String(recipe.seed)
      : "";
  next.provider = isEngineId(recipe.provider) ? recipe.provider : "";
  return next;
}

export function clampBatch(n: number): number {
  return Math.min(BATCH_MAX, Math.max(BATCH_MIN, Math.round(n)));
}

export const SEED_MESSAGE = `The seed must be a whole number from 0 to ${SEED_MAX.toLocaleString("en-US")}, or empty for random`;

export type SettingsErrors = Partial<Record<"prompt" | "negativePrompt" | "seed", string>>;

/** docs/spec.md §5 checks (the session and quota checks happen when the request is made). */
export function validateSettings(s: GeneratorSettings): SettingsErrors {
  const errors: SettingsErrors = {};
  const prompt = validatePrompt(s.prompt);
  if (prompt) errors.prompt = prompt;
  const negativePrompt = validateNegativePrompt(s.negativePrompt);
  if (negativePrompt) errors.negativePrompt = negativePrompt;
  if (parseSeed(s.seed) === undefined) errors.seed = SEED_MESSAGE;
  return errors;
}

/** null for empty (random), the number when valid, undefined when not a seed. */
export function parseSeed(raw: string): number | null | undefined {
  const text = raw.trim();
  if (!text) return null;
  if (!/^\d+$/.test(text)) return undefined;
  const n = Number(text);
  return n <= SEED_MAX ? n : undefined;
}

export type GenerateSettings = GenerationChoice<StyleId> & {
  seed: number | null;
  referenceImage?: string;
  batchCount?: number;
  customStyle?: AppliedCustomStyle;
};

/**
 * The request for generate(): batch mode asks for N tasks, otherwise one. `custom` is the chosen custom
 * style's record (decision 152): each task keeps its name and words as they are now.
 */
export function toRequest(s: GeneratorSettings, custom?: CustomStyleRecord | null): GenerateSettings {
  return {
    prompt: s.prompt.trim(),
    negativePrompt: s.negativePrompt.trim(),
    style: s.style,
    quality: s.quality,
    aspectRatio: s.aspectRatio,
    seed: parseSeed(s.seed) ?? null,
    ...(s.referenceImage ? { referenceImage: s.referenceImage.dataUrl } : {}),
    ...(s.batch ? { batchCount: s.batchCount } : {}),
    ...(s.provider ? { provider: s.provider } : {}),
    ...(custom && custom.id === s.customStyleId
      ? {
          customStyle: {
            id: custom.id,
            name: custom.name,
            prompt: custom.prompt,
            negativePrompt: custom.negativePrompt,
          },
        }
      : {}),
  };
}
