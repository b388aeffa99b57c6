// The render pool's order (docs/decisions/153-paid-renders-start-first.md): waiting jobs start by priority
// (premium 2, pro 1, free 0), first come first served within one; a job that has waited long rises, so a
// stream of paid renders delays a free one but never starves it; a job whose caller gave up while it
// waited leaves the queue without being drawn. Observed through the scripted render process, which answers
// each job's start and end times in its process.
import assert from "node:assert/strict";
import { createRenderPool, type RenderPool } from "../../supabase/local/render-pool.ts";
import { RENDER_PRIORITY } from "../../supabase/functions/_shared/providers/builtin.ts";

const SCRIPTED = new URL("./fixtures/scripted-render-process.ts", import.meta.url);
const { free, pro, premium } = RENDER_PRIORITY;

/** A scripted job computing for `ms`; answers when it started and ended in its process. */
async function run(pool: RenderPool, ms: number, priority?: number, signal?: AbortSignal) {
  const input = { prompt: `busy:${ms}`, style: "photorealistic", width: 8, height: 8, seed: 1 };
  const bytes = await pool.render(input, { priority, signal });
  const [start, end] = new Float64Array(bytes.slice().buffer);
  return { start, end };
}

async function withPool(opts: { size: number; agingMs?: number }, fn: (pool: RenderPool) => Promise<void>) {
  const pool = createRenderPool({ processUrl: SCRIPTED, ...opts });
  try {
    await fn(pool);
  } finally {
    await pool.close();
  }
}

/** Names ordered by when their job started. */
async function startOrder(jobs: Record<string, Promise<{ start: number }>>): Promise<string[]> {
  const started = await Promise.all(
    Object.entries(jobs).map(async ([name, job]) => [name, (await job).start] as const),
  );
  return started.sort((a, b) => a[1] - b[1]).map(([name]) => name);
}

Deno.test("waiting renders start premium first, then pro, then free, each tier in the order it came", () =>
  withPool({ size: 1 }, async (pool) => {
    const busy = run(pool, 200, free);
    const waiting = {
      free1: run(pool, 5, free),
      pro1: run(pool, 5, pro),
      free2: run(pool, 5, free),
      premium1: run(pool, 5, premium),
      unset: run(pool, 5),
      pro2: run(pool, 5, pro),
      premium2: run(pool, 5, premium),
    };
    assert.deepEqual(pool.load(), { running: 1, queued: 7 });
    await busy;
    assert.deepEqual(await startOrder(waiting), ["premium1", "premium2", "pro1", "pro2", "free1", "free2", "unset"]);
  }));

Deno.test("a paid render queued behind eight free ones starts next, once the running render ends", () =>
  withPool({ size: 1 }, async (pool) => {
    const running = run(pool, 150, free);
    const frees = Array.from({ length: 8 }, () => run(pool, 20, free));
    const paid = run(pool, 20, pro);
    const [ran, p, ...rest] = await Promise.all([running, paid, ...frees]);
    assert.ok(p.start >= ran.end, "the paid render started while another ran in the one process");
    assert.ok(rest.every((f) => f.start > p.start), "a free render queued earlier started before the paid one");
  }));

Deno.test("a free render behind a steady stream of premium ones starts once it has waited two aging steps", () =>
  withPool({ size: 1, agingMs: 150 }, async (pool) => {
    await run(pool, 1); // the process is up before the clock matters
    const first = run(pool, 60, premium);
    const starved = run(pool, 60, free);
    // A new premium render joins every 40 ms for 1.2 s: one is always waiting, newer than the free one.
    const stream: Promise<{ start: number }>[] = [first];
    const joined = Date.now();
    while (Date.now() - joined < 1_200) {
      stream.push(run(pool, 60, premium));
      await new Promise((r) => setTimeout(r, 40));
    }
    const s = await starved;
    const starts = (await Promise.all(stream)).map((p) => p.start);
    const after = starts.filter((t) => t > s.start).length;
    assert.ok(after > 0, "the free render ran only after the whole stream: it was starved");
    assert.ok(starts.filter((t) => t < s.start).length > 1, "the free render did not wait behind paid ones");
  }));

Deno.test("a render whose caller gives up while it waits leaves the queue and is never drawn", () =>
  withPool({ size: 1 }, async (pool) => {
    const busy = run(pool, 150, free);
    const giveUp = new AbortController();
    const abandoned = run(pool, 5, premium, giveUp.signal);
    const kept = run(pool, 5, free);
    assert.equal(pool.load().queued, 2);
    giveUp.abort();
    await assert.rejects(abandoned, /abandoned before it started/);
    assert.equal(pool.load().queued, 1);
    await Promise.all([busy, kept]);
    await assert.rejects(run(pool, 5, free, AbortSignal.abort()), /abandoned/);
    assert.deepEqual(pool.load(), { running: 0, queued: 0 });
  }));

Deno.test("a running render is not stopped by its caller giving up: it runs out and the next follows", () =>
  withPool({ size: 1 }, async (pool) => {
    const giveUp = new AbortController();
    const running = run(pool, 100, free, giveUp.signal);
    const next = run(pool, 5, free);
    await new Promise((r) => setTimeout(r, 20));
    giveUp.abort();
    const [r, n] = await Promise.all([running, next]);
    assert.ok(n.start >= r.end);
  }));
