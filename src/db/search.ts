// Offline search of the person's generations by prompt words and filters, over what the device
// holds. Each record keeps its prompt's distinct lower-cased words in a multiEntry index; a query
// term matches every word it begins (so results follow each keystroke), and all terms must match.
// Words are looked up in the index (no scan of the prompts); the filters then apply to the
// candidates, and the newest come first.
import type { AppDb } from "./db";
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
 * The same search over records already read (newest first in, newest first out): what a view holding
 * the person's whole list runs on each keystroke, with no database round trip.
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

/** Ids of records having, for every term, a word that begins with it. */
async function idsMatchingTerms(db: AppDb, terms: string[]): Promise<string[]> {
  let ids: string[] = [];
  for (const [i, term] of terms.entries()) {
    // One record can hold several words with the same beginning: the Set keeps it once.
    const keys = new Set<string>(await db.generations.where("words").startsWith(term).primaryKeys());
    ids = i === 0 ? [...keys] : ids.filter((id) => keys.has(id));
    if (ids.length === 0) return [];
  }
  return ids;
}

/** The smallest candidate set an index gives for the filters other than text. */
function candidatesByIndex(db: AppDb, userId: string, f: GenerationFilter): Promise<GenerationRecord[]> {
  if (f.saved !== undefined) return db.generations.where({ userId, isSaved: f.saved ? 1 : 0 }).toArray();
  if (f.published !== undefined) return db.generations.where({ userId, isPublic: f.published ? 1 : 0 }).toArray();
  return db.generations
    .where("[userId+createdAt]")
    .between([userId, f.from ?? ""], [userId, f.to !== undefined ? upperBound(f.to) : HIGH], true, true)
    .toArray();
}

export async function searchGenerationsIn(
  db: AppDb,
  userId: string,
  filter: GenerationFilter,
): Promise<GenerationRecord[]> {
  const terms = searchTerms(filter.text ?? "");
  let candidates: GenerationRecord[];
  if (terms.length) {
    const ids = await idsMatchingTerms(db, terms);
    candidates = (await db.generations.bulkGet(ids)).filter((r): r is GenerationRecord => r !== undefined);
  } else {
    candidates = await candidatesByIndex(db, userId, filter);
  }
  return candidates
    .filter((r) => matches(r, userId, filter))
    .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
}
