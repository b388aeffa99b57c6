// The render worker pool: renders run on worker threads side by side up to the pool's size, the rest
// wait their turn; a failed or crashed render is a rejected promise and the pool keeps serving; the
// real worker answers exactly the bytes the engine renders in-process.
import assert from "node:assert/strict";
import { renderPng } from "../../supabase/functions/_shared/engine/render.ts";
import { createRenderPool, type RenderPool } from "../../supabase/local/render-pool.ts";

const SCRIPTED = new URL("./fixtures/scripted-render-worker.ts", import.meta.url);

const job = (prompt: string) => ({ prompt, style: "photorealistic", width: 8, height: 8, seed: 1 });

/** Runs a scripted job; answers when it started and ended on its worker. */
async function timed(pool: RenderPool, ms: number): Promise<{ start: number; end: number }> {
  const bytes = await pool.render(job(`busy:${ms}`));
  const [start, end] = new Float64Array(bytes.slice().buffer);
  return { start, end };
}

async function withPool(size: number, fn: (pool: RenderPool) => Promise<void>, workerUrl = SCRIPTED) {
  const pool = createRenderPool({ size, workerUrl });
  try {
    await fn(pool);
  } finally {
    pool.close();
  }
}

Deno.test("two renders overlap in time on two workers", () =>
  withPool(2, async (pool) => {
    const [a, b] = await Promise.all([timed(pool, 300), timed(pool, 300)]);
    assert.ok(a.start < b.end && b.start < a.end, `expected overlap: ${JSON.stringify({ a, b })}`);
  }));

Deno.test("renders beyond the pool's size wait for a free worker", () =>
  withPool(2, async (pool) => {
    const runs = [timed(pool, 250), timed(pool, 250), timed(pool, 250)];
    assert.deepEqual(pool.load(), { running: 2, queued: 1 });
    const [a, b, c] = await Promise.all(runs);
    assert.ok(c.start >= Math.min(a.end, b.end), `the third started before a worker was free: ${c.start}`);
    assert.deepEqual(pool.load(), { running: 0, queued: 0 });
  }));

Deno.test("a single worker runs renders one after another", () =>
  withPool(1, async (pool) => {
    const [a, b] = await Promise.all([timed(pool, 150), timed(pool, 150)]);
    assert.ok(b.start >= a.end, "the second render overlapped the first on one worker");
  }));

Deno.test("a render that fails is a rejected promise and the pool goes on", () =>
  withPool(1, async (pool) => {
    await assert.rejects(pool.render(job("fail")), { message: "render failed on purpose" });
    const after = await timed(pool, 10);
    assert.ok(after.end >= after.start);
  }));

Deno.test("a crashed worker rejects its render and is replaced", () =>
  withPool(1, async (pool) => {
    const queuedBehind = timed(pool, 10);
    const crashed = pool.render(job("crash"));
    const alsoQueued = timed(pool, 10);
    await queuedBehind;
    await assert.rejects(crashed, /render worker failed: .*worker crashed on purpose/);
    await alsoQueued;
    assert.deepEqual(pool.load(), { running: 0, queued: 0 });
  }));

Deno.test("a closed pool refuses work and rejects what was waiting", async () => {
  const pool = createRenderPool({ size: 1, workerUrl: SCRIPTED });
  const running = pool.render(job("busy:200"));
  const waiting = pool.render(job("busy:10"));
  pool.close();
  await assert.rejects(running, /closed/);
  await assert.rejects(waiting, /closed/);
  await assert.rejects(pool.render(job("busy:1")), /closed/);
});

Deno.test("the real worker answers the engine's own bytes, and its errors", async () => {
  const pool = createRenderPool({ size: 2 });
  try {
    const input = { prompt: "a lighthouse on a cliff at dawn", style: "watercolor", width: 48, height: 32, seed: 7 };
    const [inWorker, inProcess] = await Promise.all([pool.render(input), renderPng(input)]);
    assert.deepEqual(inWorker, inProcess);
    await assert.rejects(pool.render({ ...input, style: "no-such-style" }), /unknown style/);
  } finally {
    pool.close();
  }
});
