// The bounds on regular expressions and text-search queries (decision 125): each input they let through
// runs on embedded PGlite with no broken instance, no internal error and no stall, over seeded random
// inputs of every size the bounds allow and past them; and each attack the product met is refused.
import assert from "node:assert/strict";
import { openDb } from "../../../supabase/local/db.ts";
import {
  MAX_PATTERN_LENGTH,
  MAX_TSQUERY_DEPTH,
  MAX_TSQUERY_NOTS,
  MAX_TSQUERY_WORDS,
  valueTooComplex,
} from "../../../supabase/local/rest/pattern-bounds.ts";

/** A small seeded generator (an LCG), so a failure names inputs that can be made again. */
function random(seed: number) {
  let s = seed;
  const next = () => (s = (s * 1103515245 + 12345) % 2 ** 31);
  return {
    int: (n: number) => next() % n,
    pick: <T>(xs: readonly T[]) => xs[next() % xs.length],
  };
}

const REGEX_PIECES = ["a", "b*", "(", ")", "(?:", "[a-z]", "[[:alpha:]]+", "a{1,30}", "{2,9}", "|", "\\d", ".*", "?"];

function regex(r: ReturnType<typeof random>): string {
  // Balanced enough to compile often, unbalanced sometimes: both kinds must be answered.
  const parts: string[] = [];
  const n = 1 + r.int(r.int(4) === 0 ? 400 : 40);
  let open = 0;
  for (let i = 0; i < n; i++) {
    const p = r.pick(REGEX_PIECES);
    if (p === ")" && open === 0) continue;
    if (p.startsWith("(")) open++;
    if (p === ")") open--;
    parts.push(p);
    if (p === ")" && r.int(2)) parts.push(r.pick(["{1,12}", "{2}", "*", "+"]));
  }
  return parts.join("") + ")".repeat(open);
}

function tsquery(r: ReturnType<typeof random>): string {
  const pieces = ["cat", "!", "! ", "(", ")", " & ", " | ", " <-> ", "-", "dog:*", " "];
  return Array.from({ length: 1 + r.int(r.int(4) === 0 ? 3000 : 80) }, () => r.pick(pieces)).join("");
}

/** Postgres's own refusals a bounded input may still meet: a 4xx on both databases. */
const CALLER_ERRORS = new Set(["2201B", "42601", "22023", "42883"]);

Deno.test("regular expressions within the bounds run on PGlite without breaking it or stalling", async () => {
  const db = await openDb({});
  try {
    const r = random(125);
    const subject = "a".repeat(2000);
    let ran = 0;
    for (let i = 0; i < 300; i++) {
      const p = regex(r);
      if (valueTooComplex("match", p) !== null) continue;
      ran++;
      const t0 = performance.now();
      try {
        await db.query("select $2 ~ $1 as x", [p, subject]);
      } catch (e) {
        const code = (e as { code?: string }).code ?? String(e);
        assert.ok(CALLER_ERRORS.has(code), `pattern ${p}: ${code} ${String(e)}`);
      }
      assert.ok(performance.now() - t0 < 2000, `pattern ${p} took ${performance.now() - t0} ms`);
    }
    assert.ok(ran > 50, `only ${ran} generated patterns were within the bounds`);
    assert.deepEqual((await db.query("select 1 as one")).rows, [{ one: 1 }]);
  } finally {
    await db.close();
  }
});

Deno.test("text-search queries within the bounds run on PGlite; deeper ones are refused", async () => {
  const db = await openDb({});
  try {
    const r = random(137);
    const fns = {
      fts: "to_tsquery",
      wfts: "websearch_to_tsquery",
      plfts: "plainto_tsquery",
      phfts: "phraseto_tsquery",
    };
    let ran = 0;
    for (let i = 0; i < 400; i++) {
      const q = tsquery(r);
      const op = r.pick(["fts", "wfts", "plfts", "phfts"] as const);
      if (valueTooComplex(op, q) !== null) continue;
      ran++;
      try {
        await db.query(`select ${fns[op]}('english', $1) is null as x`, [q]);
      } catch (e) {
        const code = (e as { code?: string }).code ?? String(e);
        assert.ok(CALLER_ERRORS.has(code), `${op} ${q.slice(0, 80)}: ${code} ${String(e)}`);
      }
    }
    assert.ok(ran > 100, `only ${ran} generated queries were within the bounds`);
    assert.deepEqual((await db.query("select 1 as one")).rows, [{ one: 1 }]);
  } finally {
    await db.close();
  }
});

Deno.test("refuses the attacks met: deep groups, expanded repetitions, back references, runs of negations", () => {
  const refused = [
    ["match", "(".repeat(3000) + "a" + ")".repeat(3000)],
    ["imatch", "[a]".repeat(MAX_PATTERN_LENGTH)],
    ["match", "(a{1,255}){1,255}b"],
    ["match", "(a*)*\\1"],
    ["fts", "!".repeat(MAX_TSQUERY_NOTS + 1) + "a"],
    ["fts", "! ".repeat(MAX_TSQUERY_NOTS + 1) + "a"],
    ["fts", "(".repeat(MAX_TSQUERY_DEPTH + 1) + "a" + ")".repeat(MAX_TSQUERY_DEPTH + 1)],
    ["wfts", "-".repeat(5000)],
    ["plfts", "cat ".repeat(MAX_TSQUERY_WORDS + 1)],
  ];
  for (const [op, value] of refused) assert.notEqual(valueTooComplex(op, value), null, `${op} ${value.slice(0, 40)}`);
  const allowed = [
    ["match", "^a(b|c)*[0-9]{2,4}$"],
    ["imatch", "(?:harbour|kite)s?\\M"],
    ["fts", "!(!(cat & dog)) | !bird"],
    ["wfts", '"quiet harbour" -storm or -dusk'],
    ["plfts", "!".repeat(5000)],
    ["phfts", "cat dog ".repeat(MAX_TSQUERY_WORDS / 2)],
    ["eq", "(".repeat(5000)],
  ];
  for (const [op, value] of allowed) assert.equal(valueTooComplex(op, value), null, `${op} ${value}`);
});
