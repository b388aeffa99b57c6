// Offline search of the person's generations by prompt words and filters, over what the device
// holds. Each record keeps its prompt's distinct lower-cased words (schema 3 indexes them as `*words`);
// a query term matches every word it begins (so results follow each keystroke), and all terms must
// match. History reads the person's whole list once and runs the search over it in memory on each
// keystroke (docs/decisions/047-image-bytes-in-their-own-dexie-table.md).
import type { AspectRatio, Quality } from "#shared/vocabulary/generation.ts";
import type { GenerationRecord } from "./schema";

export type GenerationFilter = {
  text?: string;
  style?: string;
  quality?: Quality;
  aspectRatio?: AspectRatio;
  saved?: boolean;
  published?: boolean;
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
