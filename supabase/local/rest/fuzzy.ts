// The "Perhaps you meant …" hints of PostgREST's errors pick the closest name with a fuzzy string set
// (the Haskell `fuzzyset` package, after fuzzyset.js): candidates share n-grams with the query (trigrams,
// then bigrams of the lower-cased text stripped to letters, digits, spaces and commas, between hyphens),
// the 50 best by cosine similarity are scored again by normalised Levenshtein similarity, and the best at
// or above a minimum score wins. PostgREST up to v13 asked for 0.33 everywhere; since v14.9 it asks 0.75
// for table and function names so that hints leak fewer names, and 0.33 for parameter lists. The local
// backend follows the newer, stricter thresholds (fewer hints, never more).

/** The minimum score of a hint naming a table or a function. */
export const NAME_HINT_SCORE = 0.75;
/** The minimum score of a hint naming a function's parameters. */
export const PARAMS_HINT_SCORE = 0.33;

const normalized = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}\s,]/gu, "");

function gramVector(text: string, size: number): Map<string, number> {
  const s = `-${normalized(text)}-`;
  const out = new Map<string, number>();
  for (let i = 0; i + size <= s.length; i++) {
    const g = s.slice(i, i + size);
    out.set(g, (out.get(g) ?? 0) + 1);
  }
  return out;
}

const magnitude = (v: Map<string, number>) => Math.sqrt([...v.values()].reduce((n, c) => n + c * c, 0));

function levenshtein(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}

function similarity(a: string, b: string): number {
  const longest = Math.max(a.length, b.length);
  return longest === 0 ? 1 : 1 - levenshtein(a, b) / longest;
}

/** The entry of `candidates` closest to `query` with at least `minScore`, or null. */
export function closestMatch(query: string, candidates: Iterable<string>, minScore: number): string | null {
  const byKey = new Map<string, string>();
  for (const c of candidates) if (!byKey.has(c.toLowerCase())) byKey.set(c.toLowerCase(), c);
  const key = query.toLowerCase();
  const exact = byKey.get(key);
  if (exact !== undefined) return exact;
  for (const size of [3, 2]) {
    const q = gramVector(key, size);
    const qMagnitude = magnitude(q);
    const scored: Array<[number, string]> = [];
    for (const entry of byKey.keys()) {
      const e = gramVector(entry, size);
      let dot = 0;
      for (const [g, n] of q) dot += n * (e.get(g) ?? 0);
      if (dot > 0) scored.push([dot / (qMagnitude * magnitude(e)), entry]);
    }
    const best = scored
      .sort((a, b) => b[0] - a[0])
      .slice(0, 50)
      .map(([, entry]) => [similarity(key, entry), entry] as [number, string])
      .sort((a, b) => b[0] - a[0])
      .filter(([score]) => score >= minScore);
    if (best.length) return byKey.get(best[0][1]) ?? null;
  }
  return null;
}
