// The compare table's rows: every field of the recipe as the large views word it (recipeRows, so a field
// the recipe gains shows here too), one value per compared image, and whether the values differ. The
// comparison is of the worded values, so two records that read the same (an empty negative prompt and
// one of spaces, both "None") count as the same.
import type { VariationKind } from "#shared/vocabulary/variations.ts";
import { recipeRows, type Recipe } from "../../lib/generation-recipe";

export type DiffRow = { label: string; values: string[]; differs: boolean };

/** A compared image's recipe, with what it varies when it is a variation (decision 155). */
export type ComparedRecipe = Recipe & { variation?: { of: string; kind: VariationKind } };

type Field = { label: string; value: string };

const LETTERS = ["A", "B", "C", "D"];

/**
 * The reference image, when one of the compared images is a variation (decision 155; the recipe itself
 * says how it varies): a subtle variation's reference is its parent's picture, named by its letter when
 * the parent is compared too. No other reference a request carried is kept, so the others have none
 * recorded.
 */
function referenceFields(recipes: readonly ComparedRecipe[]): Field[][] {
  if (!recipes.some((r) => r.variation)) return recipes.map(() => []);
  return recipes.map(({ variation }) => {
    if (variation?.kind !== "subtle") return [{ label: "Reference image", value: "None recorded" }];
    const at = recipes.findIndex((r) => r.id === variation.of);
    return [{ label: "Reference image", value: at >= 0 ? `The picture of ${LETTERS[at]}` : "Its parent's picture" }];
  });
}

export function diffRecipes(recipes: readonly ComparedRecipe[], timeZone?: string): DiffRow[] {
  const references = referenceFields(recipes);
  return diffFields(recipes.map((r, i) => [...recipeRows(r, timeZone), ...references[i]]));
}

/** The rows of several images' worded fields: every label any image has, in the order first met. */
function diffFields(columns: readonly (readonly Field[])[]): DiffRow[] {
  const labels: string[] = [];
  for (const rows of columns) for (const { label } of rows) if (!labels.includes(label)) labels.push(label);
  return labels.map((label) => {
    // A field one recipe lacks reads as a dash, and differs from any value.
    const values = columns.map((rows) => rows.find((row) => row.label === label)?.value ?? "—");
    return { label, values, differs: values.some((v) => v !== values[0]) };
  });
}

/** How many fields differ, worded for the table's caption. */
export function differenceSummary(rows: readonly DiffRow[]): string {
  const n = rows.filter((r) => r.differs).length;
  if (n === 0) return "Every field is the same.";
  return n === 1 ? "1 field differs." : `${n} fields differ.`;
}
