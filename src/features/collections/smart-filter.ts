// A smart collection's filter as its form holds it (strings, "any" for no choice, as History's filters
// are) and as it is stored (CollectionFilter, the shared vocabulary), and the chips that read it back.
import type { CollectionFilter } from "#shared/vocabulary/collections.ts";
import { isAspectRatio, isQuality } from "#shared/vocabulary/generation.ts";
import { qualityLabel, styleLabel } from "../../lib/generation-recipe";
import { providerName } from "../../lib/model-names";

type TriState = "any" | "yes" | "no";

export type SmartFilterForm = {
  text: string;
  style: string;
  quality: string;
  aspectRatio: string;
  engine: string;
  saved: TriState;
  published: TriState;
  /** yyyy-mm-dd or "". */
  from: string;
  to: string;
  /** A whole number of days, or "". */
  withinDays: string;
};

export const EMPTY_SMART_FILTER: SmartFilterForm = {
  text: "",
  style: "any",
  quality: "any",
  aspectRatio: "any",
  engine: "any",
  saved: "any",
  published: "any",
  from: "",
  to: "",
  withinDays: "",
};

const tri = (v: TriState): boolean | undefined => (v === "any" ? undefined : v === "yes");
const fromTri = (v: boolean | undefined): TriState => (v === undefined ? "any" : v ? "yes" : "no");

/** The stored filter of a form: only the fields set (validateCollectionFilter says whether it is acceptable). */
export function toCollectionFilter(f: SmartFilterForm): CollectionFilter {
  const out: CollectionFilter = {};
  const text = f.text.trim();
  if (text) out.text = text;
  if (f.style !== "any") out.style = f.style;
  if (isQuality(f.quality)) out.quality = f.quality;
  if (isAspectRatio(f.aspectRatio)) out.aspectRatio = f.aspectRatio;
  if (f.engine !== "any") out.engine = f.engine;
  const saved = tri(f.saved);
  if (saved !== undefined) out.saved = saved;
  const published = tri(f.published);
  if (published !== undefined) out.published = published;
  if (f.from) out.from = f.from;
  if (f.to) out.to = f.to;
  const days = f.withinDays.trim();
  if (days) out.withinDays = Number(days);
  return out;
}

export function toSmartFilterForm(filter: CollectionFilter): SmartFilterForm {
  return {
    text: filter.text ?? "",
    style: filter.style ?? "any",
    quality: filter.quality ?? "any",
    aspectRatio: filter.aspectRatio ?? "any",
    engine: filter.engine ?? "any",
    saved: fromTri(filter.saved),
    published: fromTri(filter.published),
    from: filter.from ?? "",
    to: filter.to ?? "",
    withinDays: filter.withinDays === undefined ? "" : String(filter.withinDays),
  };
}

/** What a smart collection filters on, one short phrase per field, in the form's order. */
export function filterChips(filter: CollectionFilter): string[] {
  const chips: string[] = [];
  if (filter.text) chips.push(`Words: “${filter.text}”`);
  if (filter.style) chips.push(`Style: ${styleLabel(filter.style)}`);
  if (filter.quality) chips.push(`Quality: ${qualityLabel(filter.quality)}`);
  if (filter.aspectRatio) chips.push(`Aspect ratio: ${filter.aspectRatio}`);
  if (filter.engine) chips.push(`Engine: ${providerName(filter.engine)}`);
  if (filter.saved !== undefined) chips.push(filter.saved ? "Saved" : "Not saved");
  if (filter.published !== undefined) chips.push(filter.published ? "Published" : "Private");
  if (filter.from) chips.push(`From ${filter.from}`);
  if (filter.to) chips.push(`To ${filter.to}`);
  const days = filter.withinDays;
  if (days !== undefined) chips.push(`Made in the last ${days} ${days === 1 ? "day" : "days"}`);
  return chips;
}
