// Offline search of the person's generations by prompt words and filters, over what the device
// holds. Each record keeps its prompt's distinct lower-cased words (schema 3 indexes them as `*words`);
// a query term matches every word it begins (so results follow each keystroke), and all terms must
// match. History reads the person's whole list once and runs the search over it in memory on each
// keystroke (docs/decisions/047-image-bytes-in-their-own-dexie-table.md).
import type { CollectionFilter } from "#shared/vocabulary/collections.ts";
import type { GenerationRecord } from "./schema";

/**
 * What the search filters on: a smart collection's fields (the shared vocabulary's: words, style, quality,
 * ratio, engine, saved, published), its days read as instants.
 */
export type GenerationFilter = Omit<CollectionFilter, "from" | "to" | "withinDays"> & {
  /** Inclusive lower bound: an ISO instant, or a date (YYYY-MM-DD, UTC). */
  from?: string;
  /** Inclusive upper bound: an ISO instant, or a date (YYYY-MM-DD, UTC) meaning that whole day. */
  to?: string;
};

/** Accents fold away ("café" is found by "cafe"); anything but letters and digits separates words. */
function words(text: string): string[] {
  return text
    .toLowerCase()
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** The distinct words of a prompt, for the `*words` index. */
export function promptWords(prompt: string): string[] {
  return [...new Set(words(prompt))];
}

/** A query's terms; a term that another term begins adds nothing and is dropped. */
export function searchTerms(text: string): string[] {
  const terms = [...new Set(words(text))];
  return terms.filter((t) => !terms.some((other) => other !== t && other.startsWith(t)));
}

const HIGH = "\uffff";

/** A date-only upper bound includes its whole day; so does the end of an instant's own text. */
const upperBound = (to: string) => (to.length <= 10 ? `${to}${HIGH}` : to);

function matches(record: GenerationRecord, userId: string, f: GenerationFilter): boolean {
  if (record.userId !== userId) return false;
  if (f.style !== undefined && record.style !== f.style) return false;
  if (f.quality !== undefined && record.quality !== f.quality) return false;
  if (f.aspectRatio !== undefined && record.aspectRatio !== f.aspectRatio) return false;
  if (f.engine !== undefined && record.provider !== f.engine) return false;
  if (f.saved !== undefined && record.isSaved !== (f.saved ? 1 : 0)) return false;
  if (f.published !== undefined && record.isPublic !== (f.published ? 1 : 0)) return false;
  if (f.from !== undefined && record.createdAt < f.from) return false;
  if (f.to !== undefined && record.createdAt > upperBound(f.to)) return false;
  return true;
}

/**
 * The search, over records already read (newest first in, newest first out): what a view holding the
 * person's whole list runs on each keystroke, with no database round trip.
 */
export function filterGenerations(
  records: readonly GenerationRecord[],
  userId: string,
  filter: GenerationFilter,
): GenerationRecord[] {
  const terms = searchTerms(filter.text ?? "");
  return records.filter(
    (r) => matches(r, userId, filter) && (terms.length === 0 || hasAllTerms(r.words ?? promptWords(r.prompt), terms)),
  );
}

function hasAllTerms(recordWords: readonly string[], terms: readonly string[]): boolean {
  return terms.every((t) => recordWords.some((w) => w.startsWith(t)));
}

/** Local midnight of a yyyy-mm-dd day as ISO; `endOfDay` gives the last millisecond of that day. */
export function dayBoundary(day: string, endOfDay: boolean): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return undefined;
  const d = endOfDay
    ? new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 23, 59, 59, 999)
    : new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

const DAY_MS = 86_400_000;

/**
 * A smart collection's saved filter (decision 157) as the search takes it at `now`: its days are the
 * viewer's calendar days (as History's filters are), and "made in the last N days" starts N × 24 hours
 * before now (the later of it and `from` when both are set).
 */
export function toGenerationFilter(filter: CollectionFilter, now: number = Date.now()): GenerationFilter {
  const { from: fromDay, to: toDay, withinDays, ...rest } = filter;
  const out: GenerationFilter = { ...rest };
  const from = fromDay !== undefined ? dayBoundary(fromDay, false) : undefined;
  const within = withinDays !== undefined ? new Date(now - withinDays * DAY_MS).toISOString() : undefined;
  const start = from && within ? (from > within ? from : within) : (from ?? within);
  if (start) out.from = start;
  const to = toDay !== undefined ? dayBoundary(toDay, true) : undefined;
  if (to) out.to = to;
  return out;
}
