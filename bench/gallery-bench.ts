// Gallery search over 100,000 published generations on the machine's PostgreSQL, through the local
// backend's REST with the app's own query (listPublished in src/api/gallery.ts, as a visitor):
// p50/p95 of full-text searches for common and rare prompt words, and of the first page without a
// search, plus the plan PostgreSQL picks for each kind (search runs in search_gallery, a migration).
// Goal: search p50 ≤ 20 ms. Prints figures.
// Run: `npx tsx bench/gallery-bench.ts` (or `npm run bench gallery`). ROWS overrides the row count;
// KEEP_DB=1 keeps the database.
import pg from "pg";
import { setBackendClient } from "#src/api/client.ts";
import { GALLERY_PAGE_DEFAULT, listPublished } from "#src/api/gallery.ts";
import { startBackend } from "../tests/support/backend.ts";
import { anonClient, newUser } from "../tests/support/clients.ts";
import { createDatabase, postgresAvailable } from "../tests/support/postgres.ts";

const ROWS = Number(process.env.ROWS ?? 100_000);
const ROUNDS = 50;

// Prompts are built from these lists by the row number, so every word's frequency is known: a
// subject word is in 1 row of 16, a place word in 1 of 12, a mood word in 1 of 7, and each rare
// word (in "rare<k>" rows) in 1 row of RARE_EVERY.
const SUBJECTS = [
  "fox",
  "lighthouse",
  "castle",
  "dragon",
  "robot",
  "garden",
  "ship",
  "owl",
  "forest",
  "city",
  "mountain",
  "river",
  "cat",
  "tower",
  "bridge",
  "whale",
];
const PLACES = ["dunes", "harbour", "meadow", "glacier", "canyon", "island", "marsh", "valley", "cliff", "lake"];
const PLACES_ALL = [...PLACES, "desert", "reef"];
const MOODS = ["misty", "golden", "stormy", "quiet", "neon", "ancient", "frozen"];
const RARE_EVERY = 5_000;
const RARE = ["zephyrine", "quillwort", "obsidianfall"];

const sqlArray = (words: string[]) => `array[${words.map((w) => `'${w}'`).join(",")}]`;

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function seed(url: string, userId: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const t = performance.now();
  // One statement: the prompt mixes a mood, a subject and a place by the row number; every
  // RARE_EVERY-th row also carries a rare word. Rows are a minute apart, newest last.
  await c.query(
    `insert into public.generations (id, user_id, prompt, style, provider, model, image_path, is_public, created_at)
     select gen_random_uuid(), $1::uuid,
       format('a %s %s above the %s, detailed study number %s%s',
         (${sqlArray(MOODS)})[1 + i % ${MOODS.length}],
         (${sqlArray(SUBJECTS)})[1 + i % ${SUBJECTS.length}],
         (${sqlArray(PLACES_ALL)})[1 + i % ${PLACES_ALL.length}],
         i,
         case when i % ${RARE_EVERY} = 0 then ' ' || (${sqlArray(RARE)})[1 + (i / ${RARE_EVERY}) % ${RARE.length}] else '' end),
       'anime', 'builtin', 'bench', $1::uuid::text || '/bench-' || i || '.png', true,
       now() - make_interval(mins => $2::int - i)
     from generate_series(1, $2::int) as i`,
    [userId, ROWS],
  );
  await c.query("analyze public.generations");
  console.log(`  seeded ${ROWS} published rows in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  await c.end();
}

async function explain(url: string, label: string, word: string | null): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  // What listPublished runs: with a word, search_gallery's statement (it runs as the function's owner,
  // with the values known when it is planned); without one, the table read as the anon role, under RLS.
  const { rows } = word
    ? await (async () => {
        await c.query("begin");
        return c.query(
          `explain (analyze, costs off, timing off, summary on) select g.id from public.generations as g
           where g.is_public and g.search @@ websearch_to_tsquery('english', '${word.replace(/'/g, "''")}')
           order by g.created_at desc, g.id desc limit ${GALLERY_PAGE_DEFAULT + 1}`,
        );
      })()
    : await (async () => {
        await c.query("begin; set local role anon");
        return c.query(
          `explain (analyze, costs off, timing off, summary on) select id from public.generations
           where is_public order by created_at desc, id desc limit ${GALLERY_PAGE_DEFAULT + 1}`,
        );
      })();
  await c.query("rollback");
  await c.end();
  const plan = rows.map((r) => r["QUERY PLAN"] as string);
  const nodes = plan
    .filter((l) => /Scan|Sort|Limit/.test(l))
    .map((l) => l.trim().replace(/^->\s*/, ""))
    .map((l) => l.replace(/\s*\(actual.*$/, ""));
  const time = plan.find((l) => l.startsWith("Execution Time"));
  console.log(`  plan ${label.padEnd(22)} ${nodes.join(" > ")}; ${time}`);
}

async function measure(label: string, run: () => Promise<void>): Promise<number> {
  await run(); // warm the connection and the plan cache
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t = performance.now();
    await run();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  console.log(
    `  ${label.padEnd(34)} p50 ${pct(times, 50).toFixed(1).padStart(6)} ms   p95 ${pct(times, 95).toFixed(1).padStart(6)} ms   (${ROUNDS} requests)`,
  );
  return pct(times, 50);
}

async function main(): Promise<void> {
  if (!(await postgresAvailable())) {
    console.log("  skipped: no PostgreSQL at 127.0.0.1:5432");
    return;
  }
  const db = await createDatabase("pc_gallery_bench");
  const backend = await startBackend({ databaseUrl: db.url });
  try {
    const owner = await newUser(backend, "gallery-bench");
    await seed(db.url, owner.id);
    setBackendClient(anonClient(backend));

    const words = [...SUBJECTS.slice(0, 4), ...PLACES.slice(0, 3), ...MOODS.slice(0, 3), ...RARE];
    let round = 0;
    const search = async (q: string) => {
      const page = await listPublished({ q });
      if (!page.ok) throw new Error(page.error.detail);
      if (page.value.rows.length === 0) throw new Error(`no results for ${q}`);
    };
    console.log(`\nGallery on PostgreSQL, ${ROWS} published rows, page of ${GALLERY_PAGE_DEFAULT}`);
    const mixed = await measure("search (common and rare words)", () => search(words[round++ % words.length]));
    await measure("search, common word", () => search(SUBJECTS[round++ % 4]));
    await measure("search, rare word", () => search(RARE[round++ % RARE.length]));
    await measure("search, two words", () => search(`${MOODS[round % 3]} ${SUBJECTS[round++ % 4]}`));
    await measure("first page, no search", async () => {
      const page = await listPublished({});
      if (!page.ok || page.value.rows.length !== GALLERY_PAGE_DEFAULT) throw new Error("first page is short");
    });
    await explain(db.url, "common word", "fox");
    await explain(db.url, "rare word", "zephyrine");
    await explain(db.url, "no search", null);
    console.log(`  goal: search p50 ≤ 20 ms → ${mixed <= 20 ? "met" : "MISSED"} (${mixed.toFixed(1)} ms)`);
  } finally {
    await backend.stop();
    // KEEP_DB=1 leaves the seeded database for looking at plans by hand.
    if (process.env.KEEP_DB) console.log(`  kept ${db.url}`);
    else await db.drop();
  }
}

await main();
