// Bounds on the two filter values Postgres compiles into a recursive structure: regular expressions
// (`match`, `imatch`) and text-search queries (`fts`, `plfts`, `phfts`, `wfts`). PostgREST passes both
// through; past some size Postgres answers 5xx (54001 stack depth, XX000 "tsquery stack too small") or
// spends seconds on one row, and embedded PGlite overflows its engine's own stack or 32-bit sizes
// before Postgres's guards fire. Each bound here is checked before SQL and is far above a useful query.

/** Characters of a regular expression. */
export const MAX_PATTERN_LENGTH = 256;
/** Atoms of a regular expression once its bounded repetitions (`{m,n}`) are written out. */
export const MAX_PATTERN_EXPANSION = 1_000;
/** `!` (or websearch `-`) in a row before one operand: Postgres's tsquery parser holds 32 operators. */
export const MAX_TSQUERY_NOTS = 16;
/** Words of a text-search query: Postgres builds one operator per word, and walks them recursively. */
export const MAX_TSQUERY_WORDS = 256;
/** Parentheses nested in a `to_tsquery` value. */
export const MAX_TSQUERY_DEPTH = 32;

/** Why a filter's value may not be passed to Postgres for operator `op`, or null when it may. */
export function valueTooComplex(op: string, value: string): string | null {
  if (op === "match" || op === "imatch") return patternTooComplex(value);
  if (op === "fts" || op === "plfts" || op === "phfts" || op === "wfts") return tsqueryTooComplex(value, op);
  return null;
}

/**
 * Why a regular expression may not be passed to Postgres, or null when it may. Back references are
 * refused outright: Postgres matches them by trying each split, seconds for a 200-character pattern.
 */
function patternTooComplex(pattern: string): string | null {
  if (pattern.length > MAX_PATTERN_LENGTH) {
    return `a regular expression may have at most ${MAX_PATTERN_LENGTH} characters`;
  }
  // Each open group's atoms so far; a closed group becomes one atom of its parent, weighing its sum.
  const groups: number[] = [0];
  let last = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") {
      const next = pattern[++i] ?? "";
      if (/[1-9]/.test(next)) {
        return "back references are not allowed in a regular expression filter";
      }
      last = 1;
    } else if (c === "[") {
      i = bracketEnd(pattern, i);
      last = 1;
    } else if (c === "(") {
      groups.push(0);
      last = 0;
      continue;
    } else if (c === ")") {
      last = groups.length > 1 ? groups.pop()! : 1;
    } else if (c === "{" && /^\{\d+(,\d*)?\}/.test(pattern.slice(i))) {
      const [m, n] = pattern.slice(i + 1, pattern.indexOf("}", i)).split(",");
      const copies = n === undefined ? Number(m) : n === "" ? Number(m) + 1 : Number(n);
      groups[groups.length - 1] += last * (Math.max(copies, 1) - 1);
      i = pattern.indexOf("}", i);
      last = 0;
      continue;
    } else if (c === "+") {
      // a+ is written out as aa*.
      groups[groups.length - 1] += last;
      last = 0;
      continue;
    } else {
      last = /[*?|^$]/.test(c) ? 0 : 1;
    }
    groups[groups.length - 1] += last;
    if (groups.reduce((a, b) => a + b, 0) > MAX_PATTERN_EXPANSION) break;
  }
  const size = groups.reduce((a, b) => a + b, 0);
  return size > MAX_PATTERN_EXPANSION ?
    `a regular expression may expand to at most ${MAX_PATTERN_EXPANSION} atoms (bounded repetitions written out)` :
    null;
}

/** The index of the `]` closing the bracket expression opened at `start` (a leading `]` is literal). */
function bracketEnd(s: string, start: number): number {
  let i = start + 1;
  if (s[i] === "^") i++;
  if (s[i] === "]") i++;
  for (; i < s.length; i++) {
    if (s[i] === "[" && /[:.=]/.test(s[i + 1] ?? "")) {
      const close = s.indexOf(`${s[i + 1]}]`, i + 2);
      if (close < 0) return s.length;
      i = close + 1;
    } else if (s[i] === "]") return i;
  }
  return s.length;
}

/**
 * Why a text-search query may not be passed to Postgres, or null when it may: too many words, too many
 * negations in a row (`!` in to_tsquery, `-` in websearch) or, for to_tsquery, parentheses nested too
 * deeply. Plain and phrase queries take no operators.
 */
function tsqueryTooComplex(query: string, op: "fts" | "plfts" | "phfts" | "wfts"): string | null {
  if ((query.match(/[\p{L}\p{N}_]+/gu)?.length ?? 0) > MAX_TSQUERY_WORDS) {
    return `a text-search query may have at most ${MAX_TSQUERY_WORDS} words`;
  }
  if (op === "plfts" || op === "phfts") return null;
  const not = op === "wfts" ? "-" : "!";
  let depth = 0;
  let nots = 0;
  for (const c of query) {
    if (c === not) {
      if (++nots > MAX_TSQUERY_NOTS) return `a text-search query may negate at most ${MAX_TSQUERY_NOTS} times in a row`;
    } else if (!/\s/.test(c)) {
      nots = 0;
    }
    if (op !== "fts") continue;
    if (c === "(" && ++depth > MAX_TSQUERY_DEPTH) {
      return `a text-search query may nest parentheses at most ${MAX_TSQUERY_DEPTH} deep`;
    }
    if (c === ")") depth = Math.max(0, depth - 1);
  }
  return null;
}
