// The fuzzer's generative core: a seeded chooser that every surface grammar draws from, and the
// productions more than one surface needs (text of odd shapes, JSON values of odd shapes and sizes).
// Request `index` of seed `seed` draws from its own stream (caseRandom), so any one request is rebuilt
// alone, without generating the ones before it.
import { pctEncode as pct } from "../../tests/support/hostile.ts";
import { seededRandom } from "../../tests/support/seeded-random.ts";

/** The random stream of one request: seed and index mixed so neighbouring requests share nothing. */
export function caseRandom(seed: number, index: number): Rng {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(index + 1, 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16), 0x27d4eb2f);
  return new Rng(seededRandom(h ^ (h >>> 15)));
}

/**
 * Items and characters one request may draw in all. Productions nest sizes (a logic tree of logic trees
 * of `in` lists), so without a budget their product would outgrow the fuzzer's memory.
 */
const FUEL = 150_000;

/**
 * Seeded choices. `depth` bounds recursive productions (each nested call passes depth - 1), and the
 * fuel bounds what they draw in all: once spent, sizes are 0 and repetitions 1.
 */
export class Rng {
  private fuel = FUEL;
  constructor(private readonly next: () => number) {}

  float(): number {
    return this.next();
  }

  /** An integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** One of `choices`, each as likely as its weight; the chosen production is then called. */
  weighted<T>(choices: readonly (readonly [number, () => T])[]): T {
    const total = choices.reduce((s, [w]) => s + w, 0);
    let r = this.next() * total;
    for (const [w, make] of choices) {
      r -= w;
      if (r < 0) return make();
    }
    return choices[choices.length - 1][1]();
  }

  /** A size that is usually small and sometimes very large: 0..max on a log scale. */
  size(max: number): number {
    const n = Math.max(0, Math.min(this.fuel, Math.floor(Math.exp(this.next() * Math.log(max + 1))) - 1));
    this.fuel -= n;
    return n;
  }

  repeat<T>(n: number, make: (i: number) => T): T[] {
    const k = Math.max(Math.min(n, 1), Math.min(n, this.fuel));
    this.fuel -= k;
    return Array.from({ length: k }, (_, i) => make(i));
  }
}

/** Characters a parser trips on: separators, quotes, escapes, percent signs, operators, NUL. */
const SYNTAX = [..."()[]{},.:;!*'\"\\/%&=+-_ ~^$|?<>@#`\t\n\r"];
/** Text beyond ASCII: combining marks, RTL and zero-width marks, astral characters, lone surrogates. */
const UNICODE = [
  "é",
  "e\u0301",
  "ß",
  "İ",
  "ﬃ",
  "Ω",
  "中文",
  "日本",
  "한",
  "ع",
  "\u202E",
  "\u200B",
  "\uFEFF",
  "😀",
  "👩‍👩‍👧",
  "\u{10FFFF}",
  "\ud800",
  "\udc00",
  "\u0000",
  "\u0085",
  "\u2028",
];
const WORDS = ["cat", "harbour", "neon", "city", "the", "a", "not", "or", "and", "sunset", "castle", "x", "é", "日本"];

/** A word-like token: letters, digits or unicode. */
export function word(r: Rng): string {
  return r.weighted([
    [6, () => r.pick(WORDS)],
    [2, () => r.repeat(r.int(1, 12), () => String.fromCharCode(r.int(97, 122))).join("")],
    [1, () => String(r.int(-1000, 1_000_000))],
    [1, () => r.pick(UNICODE)],
  ]);
}

/** Text of odd shapes: words, syntax characters, unicode, repetitions of one character (up to `max`). */
export function text(r: Rng, max = 200): string {
  return r.weighted([
    [5, () => r.repeat(r.int(1, 6), () => word(r)).join(" ")],
    [2, () => r.repeat(r.int(1, 20), () => r.pick([...SYNTAX, ...UNICODE, "a", "1"])).join("")],
    [1, () => r.pick([...SYNTAX, ...UNICODE, "a", "%00", "%"]).repeat(r.size(max))],
    [1, () => ""],
    [1, () => r.repeat(r.size(max), () => word(r)).join(r.pick([" ", "", "-", ",", "|"]))],
  ]);
}

/** A JSON value of odd shape and size (nesting up to `depth`). */
export function jsonValue(r: Rng, depth = 4): unknown {
  const leaf = (): unknown =>
    r.weighted<unknown>([
      [3, () => text(r, 64)],
      [2, () => r.int(-1e6, 1e6)],
      [1, () => r.pick([0, -0, 1e308, -1e308, 0.1, 2 ** 53 + 1, -(2 ** 31)])],
      [1, () => r.pick([true, false, null])],
      [1, () => r.pick(["", "null", "true", "[]", "{}", "NaN", "1e999", "2026-01-01T00:00:00Z"])],
    ]);
  if (depth <= 0) return leaf();
  return r.weighted<unknown>([
    [4, leaf],
    [1, () => r.repeat(r.size(40), () => jsonValue(r, depth - 1))],
    [1, () => Object.fromEntries(r.repeat(r.size(20), () => [text(r, 16), jsonValue(r, depth - 1)]))],
  ]);
}

/**
 * A JSON text, usually of `value` and sometimes broken: cut short, deep, trailing garbage, a bare
 * literal, duplicated keys, huge. Text is written as a client would (lone surrogates escaped).
 */
export function jsonBody(r: Rng, value: unknown): string {
  const good = jsonStringify(value);
  return r.weighted([
    [14, () => good],
    [1, () => good.slice(0, r.int(0, good.length))],
    [1, () => "[".repeat(r.size(3000)) + good + "]".repeat(r.int(0, 3))],
    [1, () => good + r.pick(["}", ",", " x", "\u0000", "]]"])],
    [1, () => r.pick(["", "null", "1", '"x"', "[]", "{}", "true", "{,}", "{'a':1}", "NaN"])],
    [1, () => (good.startsWith("{") && good.length > 2 ? `{"a":1,"a":2,${good.slice(1)}` : good)],
    // Past the body limits (1 MB for REST and auth): one long string costs no fuel.
    [1, () => jsonStringify({ padding: "x".repeat(r.int(0, 1_500_000)), value })],
  ]);
}

/** JSON.stringify, but a lone surrogate stays escaped (\udxxx) as a hostile client would send it. */
export function jsonStringify(value: unknown): string {
  return JSON.stringify(value).replace(/[\ud800-\udfff]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`) ?? "null";
}

/** A query value as a client might write it: encoded, raw where URL syntax allows, or doubly encoded. */
export function queryValue(r: Rng, s: string): string {
  return r.weighted([
    [8, () => pct(s)],
    [1, () => s.replace(/[#&\s%]/g, (c) => encodeURIComponent(c))],
    [1, () => pct(pct(s))],
  ]);
}
