// The History filters as the form holds them (strings, "any" for no filter) and as the device
// search takes them (searchGenerations options). Dates are calendar days in the reader's zone: a
// "to" day includes all of that day.
import { isAspectRatio, isQuality } from "#shared/vocabulary/generation.ts";
import { dayBoundary, type GenerationFilter } from "../../db/search";

export type TriState = "any" | "yes" | "no";

export type HistoryFilters = {
  text: string;
  style: string;
  quality: string;
  aspectRatio: string;
  saved: TriState;
  published: TriState;
  /** yyyy-mm-dd or "". */
  from: string;
  to: string;
};

export const EMPTY_FILTERS: HistoryFilters = {
  text: "",
  style: "any",
  quality: "any",
  aspectRatio: "any",
  saved: "any",
  published: "any",
  from: "",
  to: "",
};

function tri(value: TriState): boolean | undefined {
  return value === "any" ? undefined : value === "yes";
}

export function toSearchOptions(f: HistoryFilters): GenerationFilter {
  const out: GenerationFilter = {};
  const text = f.text.trim();
  if (text) out.text = text;
  if (f.style !== "any") out.style = f.style;
  if (isQuality(f.quality)) out.quality = f.quality;
  if (isAspectRatio(f.aspectRatio)) out.aspectRatio = f.aspectRatio;
  const saved = tri(f.saved);
  if (saved !== undefined) out.saved = saved;
  const published = tri(f.published);
  if (published !== undefined) out.published = published;
  const from = dayBoundary(f.from, false);
  if (from) out.from = from;
  const to = dayBoundary(f.to, true);
  if (to) out.to = to;
  return out;
}

/** How many filters other than the search text are set (for the "Clear filters" control). */
export function activeFilterCount(f: HistoryFilters): number {
  return (Object.keys(EMPTY_FILTERS) as (keyof HistoryFilters)[]).filter(
    (k) => k !== "text" && f[k] !== EMPTY_FILTERS[k],
  ).length;
}
