import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GenerationRow } from "#shared/vocabulary/rows.ts";
import { openAppDb, type AppDb } from "#src/db/db.ts";
import { toGenerationRecord } from "#src/db/generation-record.ts";
import type { GenerationRecord } from "#src/db/schema.ts";
import { generationCounts, listGenerations, savedGenerations } from "#src/db/queries.ts";
import { filterGenerations, promptWords, searchTerms, type GenerationFilter } from "#src/db/search.ts";

const SUBJECTS = ["fox", "lighthouse", "castle", "robot", "garden", "dragon", "city", "forest"];
const COLOURS = ["red", "blue", "golden", "misty", "neon"];
const STYLES = ["anime", "photorealistic", "watercolor"];
const QUALITIES = ["standard", "high", "ultra"] as const;
const RATIOS = ["1:1", "16:9", "9:16"] as const;
const N = 10_000;

/** Record i: deterministic prompt and settings, one minute apart, so every expectation can be counted. */
function rowAt(i: number): GenerationRow {
  return {
    id: `g${String(i).padStart(5, "0")}`,
    user_id: i % 50 === 0 ? "bob" : "alice",
    prompt: `A ${COLOURS[i % COLOURS.length]} ${SUBJECTS[i % SUBJECTS.length]} at dawn #${i}`,
    negative_prompt: "",
    style: STYLES[i % STYLES.length],
    quality: QUALITIES[i % QUALITIES.length],
    aspect_ratio: RATIOS[i % RATIOS.length],
    width: 1024,
    height: 1024,
    seed: i,
    provider: "builtin",
    model: "builtin-procedural-v1",
    image_path: `alice/g${i}.png`,
    is_public: i % 7 === 0,
    is_saved: i % 4 === 0,
    created_at: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
  };
}

const rows = Array.from({ length: N }, (_, i) => rowAt(i));
const alice = rows.filter((r) => r.user_id === "alice");
const newestFirst = (list: GenerationRow[]) => list.map((r) => r.id).reverse();

let db: AppDb;
beforeAll(async () => {
  db = openAppDb("search-10k");
  await db.generations.bulkPut(rows.map((r) => toGenerationRecord(r)));
}, 60_000);
afterAll(async () => {
  await db.delete();
});

describe("words", () => {
  it("folds case and accents and splits on anything but letters and digits", () => {
    expect(promptWords("Café, CAFÉ & crème-brûlée #2")).toEqual(["cafe", "creme", "brulee", "2"]);
    expect(searchTerms("  Red re  FOX ")).toEqual(["red", "fox"]);
  });
});

describe(`the search History runs over the whole list (${N} records)`, () => {
  let list: GenerationRecord[];
  beforeAll(async () => {
    list = await listGenerations("alice", db);
  });

  /** What History does on each keystroke: the search, in memory, over the list it read once. */
  function search(label: string, filter: GenerationFilter): GenerationRecord[] {
    const start = performance.now();
    const found = filterGenerations(list, "alice", filter);
    console.log(`[bench] search over ${N} records, ${label}: ${(performance.now() - start).toFixed(1)} ms`);
    return found;
  }

  it("lists the user's records newest first, without another user's", () => {
    expect(list.map((r) => r.id)).toEqual(newestFirst(alice));
    expect(search("no filter", {})).toEqual(list);
  });

  it("finds by prompt words (all terms, by word beginnings), the user's own only, newest first", () => {
    const found = search('text "red fox"', { text: "red fox" });
    const expected = alice.filter((r) => /\bred\b/.test(r.prompt) && /\bfox\b/.test(r.prompt));
    expect(expected.length).toBeGreaterThan(100);
    expect(found.map((r) => r.id)).toEqual(newestFirst(expected));

    const prefix = search('prefix "lightho"', { text: "lightho" });
    expect(prefix.map((r) => r.id)).toEqual(newestFirst(alice.filter((r) => r.prompt.includes("lighthouse"))));

    expect(search('text "red unicorn"', { text: "red unicorn" })).toEqual([]);
    expect(search('text "#4321"', { text: "#4321" }).map((r) => r.id)).toEqual(["g04321"]);
  });

  it("combines words with style, quality, aspect ratio, saved, published and dates", () => {
    const filter = {
      text: "dragon",
      style: "anime",
      quality: "standard" as const,
      aspectRatio: "1:1" as const,
      saved: false,
      from: "2026-01-02",
      to: "2026-01-05",
    };
    const found = search("text + every filter", filter);
    const expected = alice.filter(
      (r) =>
        r.prompt.includes("dragon") &&
        r.style === "anime" &&
        r.quality === "standard" &&
        r.aspect_ratio === "1:1" &&
        !r.is_saved &&
        r.created_at >= "2026-01-02" &&
        r.created_at < "2026-01-06",
    );
    expect(expected.length).toBeGreaterThan(0);
    expect(found.map((r) => r.id)).toEqual(newestFirst(expected));

    const published = search("published only", { published: true });
    expect(published.map((r) => r.id)).toEqual(newestFirst(alice.filter((r) => r.is_public)));

    const savedGolden = search('saved, text "golden"', { saved: true, text: "golden" });
    expect(savedGolden.map((r) => r.id)).toEqual(
      newestFirst(alice.filter((r) => r.is_saved && r.prompt.includes("golden"))),
    );

    const day = search("one day", { from: "2026-01-03", to: "2026-01-03" });
    expect(day.map((r) => r.id)).toEqual(newestFirst(alice.filter((r) => r.created_at.startsWith("2026-01-03"))));
  });
});

describe(`the saved list and the counts (${N} records)`, () => {
  it("lists the saved newest first and counts everything, the saved and the published", async () => {
    expect((await savedGenerations("alice", db)).map((r) => r.id)).toEqual(
      newestFirst(alice.filter((r) => r.is_saved)),
    );
    expect(await generationCounts("alice", db)).toEqual({
      total: alice.length,
      saved: alice.filter((r) => r.is_saved).length,
      published: alice.filter((r) => r.is_public).length,
    });
  });
});
