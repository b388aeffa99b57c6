// The compare table's rows: every field of the recipe as the large views word it (recipeRows, so a field
// the recipe gains shows here too), one value per compared image, and whether the values differ. The
// comparison is of the worded values, so two records that read the same (an empty negative prompt and
// one of spaces, both "None") count as the same.
import { recipeRows, type Recipe } from "../../lib/generation-recipe";

export type DiffRow = { label: string; values: string[]; differs: boolean };

type Field = { label: string; value: string };

export function diffRecipes(recipes: readonly Recipe[], timeZone?: string): DiffRow[] {
  return diffFields(recipes.map((r) => recipeRows(r, timeZone)));
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
