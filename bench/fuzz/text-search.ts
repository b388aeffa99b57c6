// Productions of the two small languages a filter hands to Postgres as they are: POSIX regular
// expressions (match, imatch, and realtime filters) and text-search queries (fts, plfts, phfts, wfts,
// and the gallery's search). Both recurse, so nesting, alternation and operator chains of any depth come
// out of a few rules.
import { type Rng, word } from "./grammar.ts";

const ATOMS = ["a", "b", ".", "\\d", "\\w", "\\s", "[a-z]", "[^x]", "[[:alpha:]]", "\\y", "é", "日", "x", "-"];
const QUANTIFIERS = ["*", "+", "?", "{2}", "{1,3}", "{0,}", "{255}", "{1,255}", "*?", "+?", "{2,1}"];
/** Fragments that are valid in some flavours and not in Postgres's (ARE): the parser must refuse them. */
const BROKEN = ["(", ")", "[", "\\", "(?<n>a)", "a{", "{1}", "(?=a)", "(?!a)", "\\1", "[z-a]", "***", "(?#c)"];

/** A regular expression: sequences, alternations, groups and quantifiers nested up to `depth`. */
export function regex(r: Rng, depth = 5): string {
  if (depth <= 0) return r.pick(ATOMS);
  return r.weighted([
    [3, () => r.pick(ATOMS)],
    [3, () => r.repeat(r.int(2, 5), () => regex(r, depth - 1)).join("")],
    [2, () => r.repeat(r.int(2, 6), () => regex(r, depth - 1)).join("|")],
    [3, () => `(${regex(r, depth - 1)})${r.pick(QUANTIFIERS)}`],
    [1, () => `(?:${regex(r, depth - 1)})`],
    [1, () => `${regex(r, depth - 1)}\\${r.int(1, 3)}`],
    [1, () => r.pick(BROKEN)],
    // The shapes that backtrack: a quantified group of quantified atoms, nested.
    [2, () => "(".repeat(r.int(1, 30)) + "a" + ")*".repeat(r.int(1, 30)).replace(/\*/g, () => r.pick(["*", "+"]))],
    [1, () => "(a|a?)+".repeat(r.int(1, 40)) + "b"],
    [1, () => "((((((((((a*)*)*)*)*)*)*)*)*)*)*".repeat(r.int(1, 8))],
  ]);
}

const TS_BINARY = ["&", "|", "<->", "<1>", "<5>", "<16384>", "<0>", "<->!"];

/** A to_tsquery query: terms, prefixes and weights joined by and/or/followed-by, negated, grouped. */
export function tsquery(r: Rng, depth = 5): string {
  const term = () => `${word(r)}${r.chance(0.2) ? r.pick([":*", ":A", ":AB*", ":*D", ":"]) : ""}`;
  if (depth <= 0) return term();
  return r.weighted([
    [3, term],
    [3, () => r.repeat(r.int(2, 8), () => tsquery(r, depth - 1)).join(` ${r.pick(TS_BINARY)} `)],
    [2, () => `!(${tsquery(r, depth - 1)})`],
    [2, () => `(${tsquery(r, depth - 1)})`],
    [1, () => "!".repeat(r.size(2000)) + term()],
    [1, () => r.repeat(r.size(3000), term).join(r.pick([" <-> ", " & ", " | "]))],
    [1, () => r.pick(["(", ")", "&", "| |", "<->", "'", "''", ":*", "!", "<-1>", "a <99999> b"])],
  ]);
}

/** A websearch_to_tsquery query (wfts, the gallery search): quoted phrases, or, minus, and their debris. */
export function websearch(r: Rng, depth = 4): string {
  if (depth <= 0) return word(r);
  return r.weighted([
    [3, () => r.repeat(r.int(1, 6), () => word(r)).join(" ")],
    [2, () => `"${websearch(r, depth - 1)}"`],
    [2, () => r.repeat(r.int(2, 6), () => websearch(r, depth - 1)).join(r.pick([" or ", " OR ", " -", " - "]))],
    [1, () => "-".repeat(r.size(10_000))],
    [1, () => r.repeat(r.size(3000), () => r.pick(["-", '"', "or", "a", " ", "(", ")"])).join("")],
    [1, () => `-${websearch(r, depth - 1)}`],
  ]);
}
