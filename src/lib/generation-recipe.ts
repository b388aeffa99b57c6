// A generation's settings (its "recipe") as every library surface shows them: the rows of the large
// view, the /generate link that makes the same image again (seed included), and the settings file
// that travels with a zip. One shape serves the device's records (camelCase) and the gallery's
// server rows (snake_case), so History, Saved and Gallery word a setting the same way.
import { STYLES, STYLE_BY_ID } from "#shared/vocabulary/styles.ts";
import { ASPECT_RATIOS, QUALITIES, type GenerationChoice } from "#shared/vocabulary/generation.ts";
import type { GenerationRow } from "#shared/vocabulary/rows.ts";
import type { VariationKind } from "#shared/vocabulary/variations.ts";
import { buildGenerateLink } from "./generate-link";
import { engineName } from "./model-names";

export type Recipe = GenerationChoice & {
  id: string;
  createdAt: string;
  /** What the server drew: its pixels, the seed it used (null: the provider takes none) and by whom. */
  width: number;
  height: number;
  seed: number | null;
  provider: string;
  model: string;
  /** The person's custom style it was made with (decision 152); absent when none. */
  customStyle?: string;
  /** The image it varies (decision 155), and how; absent when it is no variation. */
  variation?: { of: string; kind: VariationKind };
};

export function recipeFromRow(row: GenerationRow): Recipe {
  return {
    id: row.id,
    prompt: row.prompt,
    negativePrompt: row.negative_prompt ?? "",
    style: row.style,
    quality: row.quality,
    aspectRatio: row.aspect_ratio,
    width: row.width,
    height: row.height,
    seed: row.seed,
    provider: row.provider,
    model: row.model,
    createdAt: row.created_at,
    ...(row.custom_style_name ? { customStyle: row.custom_style_name } : {}),
    ...(row.parent_id && row.variation ? { variation: { of: row.parent_id, kind: row.variation } } : {}),
  };
}

const VARIATION_WORDS: Record<VariationKind, string> = {
  subtle: "Subtle, of an earlier image",
  strong: "Strong, of an earlier image",
  "upscale-2x": "Upscale 2×, of an earlier image",
  "upscale-4x": "Upscale 4×, of an earlier image",
};

export function styleLabel(id: string): string {
  return (STYLE_BY_ID as Record<string, { label: string } | undefined>)[id]?.label ?? id;
}

const QUALITY_LABELS: Record<Recipe["quality"], string> = { standard: "Standard", high: "High", ultra: "Ultra" };

export function qualityLabel(q: string): string {
  return QUALITY_LABELS[q as Recipe["quality"]] ?? q;
}

/** Each setting's values as the choices of a list, worded as a recipe words them. */
export const STYLE_OPTIONS = STYLES.map((s) => ({ value: s.id as string, label: s.label }));
export const QUALITY_OPTIONS = QUALITIES.map((q) => ({ value: q, label: QUALITY_LABELS[q] }));
export const ASPECT_RATIO_OPTIONS = ASPECT_RATIOS.map((r) => ({ value: r, label: r }));

/** "22 Nov 2026, 14:05" in the reader's own locale and zone (the record keeps ISO UTC). */
export function formatCreatedAt(iso: string, locale?: string, timeZone?: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleString(locale, { dateStyle: "medium", timeStyle: "short", timeZone });
}

/** The settings of the large view, in reading order; an empty negative prompt reads "None". */
export function recipeRows(r: Recipe, timeZone?: string): { label: string; value: string }[] {
  return [
    { label: "Prompt", value: r.prompt },
    { label: "Negative prompt", value: r.negativePrompt.trim() || "None" },
    { label: "Style", value: styleLabel(r.style) },
    ...(r.customStyle ? [{ label: "Custom style", value: r.customStyle }] : []),
    ...(r.variation ? [{ label: "Variation", value: VARIATION_WORDS[r.variation.kind] }] : []),
    { label: "Quality", value: qualityLabel(r.quality) },
    { label: "Aspect ratio", value: r.aspectRatio },
    { label: "Size", value: `${r.width} × ${r.height}` },
    { label: "Seed", value: r.seed === null ? "Random" : String(r.seed) },
    { label: "Model", value: engineName(r.provider, r.model) },
    { label: "Created", value: formatCreatedAt(r.createdAt, undefined, timeZone) },
  ];
}

/** /generate filled with this recipe, the seed too, so the same image can be made again. */
export function recipeLink(
  r: Pick<Recipe, "prompt" | "negativePrompt" | "style" | "quality" | "aspectRatio" | "seed">,
) {
  return buildGenerateLink({
    prompt: r.prompt,
    negativePrompt: r.negativePrompt,
    style: r.style,
    quality: r.quality,
    aspectRatio: r.aspectRatio,
    seed: r.seed,
  });
}

const CSV_COLUMNS = [
  ["file", "file"],
  ["id", "id"],
  ["prompt", "prompt"],
  ["negative_prompt", "negativePrompt"],
  ["style", "style"],
  ["quality", "quality"],
  ["aspect_ratio", "aspectRatio"],
  ["width", "width"],
  ["height", "height"],
  ["seed", "seed"],
  ["provider", "provider"],
  ["model", "model"],
  ["created_at", "createdAt"],
] as const;

export type RecipeWithFile = Recipe & { file: string };

function csvCell(value: unknown): string {
  const text = value === null || value === undefined ? "" : String(value);
  // Quote every cell that could break a row; a leading formula sign is defused for spreadsheets.
  const safe = /^[=+\-@]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) || safe !== text ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** RFC 4180 CSV (CRLF rows, header first) of the recipes, one row per image file. */
export function recipesCsv(items: readonly RecipeWithFile[]): string {
  const header = CSV_COLUMNS.map(([name]) => name).join(",");
  const rows = items.map((item) => CSV_COLUMNS.map(([, key]) => csvCell(item[key])).join(","));
  return [header, ...rows].join("\r\n") + "\r\n";
}
