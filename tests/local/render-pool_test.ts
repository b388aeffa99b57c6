// The render pool: renders run in processes side by side up to the pool's size, the rest wait their
// turn; a failed or crashed render is a rejected promise and the pool keeps serving; the processes run
// at a lower priority than the server; the real render process answers exactly the bytes the engine
// renders in-process, the pixels the decoder decodes, within the decode's time budget, and the image
// check's scores, within the classify's.
import assert from "node:assert/strict";
import { referenceCells } from "../../supabase/functions/_shared/engine/reference.ts";
import { renderPng } from "../../supabase/functions/_shared/engine/render.ts";
import { createRenderPool, type RenderPool } from "../../supabase/local/render-pool.ts";
import { decodeImage } from "../../supabase/functions/_shared/image/decode.ts";
import { DECODE_BUDGET_MS } from "../../supabase/functions/_shared/image/limits.ts";
import { CLASSIFY_BUDGET_MS, classifyImageFile } from "../../supabase/functions/_shared/moderation/classify-file.ts";
import { gifDeclaringHuge, pngDeclaringHuge, pngTruncated } from "../support/hostile-images.ts";

const SCRIPTED = new URL("./fixtures/scripted-render-process.ts", import.meta.url);

const job = (prompt: string) => ({ prompt, style: "photorealistic", width: 8, height: 8, seed: 1 });

/** Runs a scripted job; answers when it started and ended in its process. */
async function timed(pool: RenderPool, ms: number): Promise<{ start: number; end: number }> {
  const bytes = await pool.render(job(`busy:${ms}`));
  const [start, end] = new Float64Array(bytes.slice().buffer);
  return { start, end };
}

async function withPool(size: number, fn: (pool: RenderPool) => Promise<void>, niceness?: number) {
  const pool = createRenderPool({ size, processUrl: SCRIPTED, niceness });
  try {
    await fn(pool);
  } finally {
    await pool.close();
  }
}

Deno.test("two renders overlap in time in two processes", () =>
  withPool(2, async (pool) => {
    const [a, b] = await Promise.all([timed(pool, 300), timed(pool, 300)]);
    assert.ok(a.start < b.end && b.start < a.end, `expected overlap: ${JSON.stringify({ a, b })}`);
  }));

Deno.test("renders beyond the pool's size wait for a free process", () =>
  withPool(2, async (pool) => {
    const runs = [timed(pool, 250), timed(pool, 250), timed(pool, 250)];
    assert.deepEqual(pool.load(), { running: 2, queued: 1 });
    const [a, b, c] = await Promise.all(runs);
    assert.ok(c.start >= Math.min(a.end, b.end), `the third started before a process was free: ${c.start}`);
    assert.deepEqual(pool.load(), { running: 0, queued: 0 });
  }));

Deno.test("a single process runs renders one after another", () =>
  withPool(1, async (pool) => {
    const [a, b] = await Promise.all([timed(pool, 150), timed(pool, 150)]);
    assert.ok(b.start >= a.end, "the second render overlapped the first in one process");
  }));

Deno.test("a render that fails is a rejected promise and the pool goes on", () =>
  withPool(1, async (pool) => {
    await assert.rejects(pool.render(job("fail")), { message: "render failed on purpose" });
    const after = await timed(pool, 10);
    assert.ok(after.end >= after.start);
  }));

Deno.test("a crashed process rejects its render and is replaced", () =>
  withPool(1, async (pool) => {
    const queuedBehind = timed(pool, 10);
    const crashed = pool.render(job("crash"));
    const alsoQueued = timed(pool, 10);
    await queuedBehind;
    await assert.rejects(crashed, /render process failed: .*render process crashed on purpose/);
    await alsoQueued;
    assert.deepEqual(pool.load(), { running: 0, queued: 0 });
  }));

Deno.test({
  name: "the render processes run at a lower priority than the server, or at its own with niceness 0",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    for (const niceness of [10, 0]) {
      await withPool(1, async (pool) => {
        await timed(pool, 1);
        const own = niceOf(Deno.pid);
        assert.deepEqual(childrenOf(Deno.pid).map(niceOf), [Math.min(19, own + niceness)]);
      }, niceness);
    }
  },
});

Deno.test("a closed pool refuses work and rejects what was waiting", async () => {
  const pool = createRenderPool({ size: 1, processUrl: SCRIPTED });
  const running = pool.render(job("busy:200"));
  const waiting = pool.render(job("busy:10"));
  const closing = pool.close();
  await assert.rejects(running, /closed/);
  await assert.rejects(waiting, /closed/);
  await assert.rejects(pool.render(job("busy:1")), /closed/);
  await closing;
  assert.deepEqual(childrenOf(Deno.pid), []);
});

Deno.test("the real render process answers the engine's own bytes, and its errors", async () => {
  const pool = createRenderPool({ size: 2 });
  try {
    const input = { prompt: "a lighthouse on a cliff at dawn", style: "watercolor", width: 48, height: 32, seed: 7 };
    const [pooled, inProcess] = await Promise.all([pool.render(input), renderPng(input)]);
    assert.deepEqual(pooled, inProcess);
    await assert.rejects(pool.render({ ...input, style: "no-such-style" }), /unknown style/);
  } finally {
    await pool.close();
  }
});

Deno.test("a reference image's pixels reach the render process intact", async () => {
  const pool = createRenderPool({ size: 1 });
  try {
    const rgba = new Uint8Array(16 * 16 * 4).map((_, i) => (i * 37) % 251);
    const input = {
      prompt: "a harbour at noon",
      style: "photorealistic",
      width: 64,
      height: 64,
      seed: 3,
      reference: { width: 16, height: 16, rgba },
    };
    assert.deepEqual(await pool.render(input), await renderPng(input));
    assert.notDeepEqual(await pool.render(input), await renderPng({ ...input, reference: null }));
    // Sent as what the engine reads of them (a decode's answer, decision 161), the same render comes out.
    const cells = { width: 16, height: 16, rgba: new Uint8Array(0), cells: referenceCells(input.reference) };
    assert.deepEqual(await pool.render({ ...input, reference: cells }), await renderPng(input));
  } finally {
    await pool.close();
  }
});

Deno.test("a decode in a render process answers what the engine reads of the decoder's own pixels, and its errors as values", async () => {
  const pool = createRenderPool({ size: 1 });
  try {
    const file = pngDeclaringHuge(64, 48);
    const here = decodeImage(file);
    assert.ok(here.ok);
    // The size and format, and the engine's cells of those pixels, not the pixels (decision 161).
    const { rgba, ...size } = here.value;
    assert.deepEqual(await pool.decode(file, DECODE_BUDGET_MS), {
      ok: true,
      value: { ...size, rgba: new Uint8Array(0), cells: referenceCells({ ...size, rgba }) },
    });
    const lastRow = await pool.decode(pngDeclaringHuge(64, 48, true), DECODE_BUDGET_MS);
    assert.equal(lastRow.ok ? "" : lastRow.error.code, "image_corrupt");
    const cut = await pool.decode(pngTruncated(64, 48), DECODE_BUDGET_MS);
    assert.equal(cut.ok ? "" : cut.error.code, "image_corrupt");
    // A decoder's console message (omggif's, for a GIF stream cut short) does not break the protocol.
    const gif = await pool.decode(gifDeclaringHuge(64, 48), DECODE_BUDGET_MS);
    assert.deepEqual(gif.ok && [gif.value.width, gif.value.height], [64, 48]);
    // The header's limits hold in the process too: nothing past 4096 px a side is decoded.
    const huge = await pool.decode(pngDeclaringHuge(5000, 8), DECODE_BUDGET_MS);
    assert.equal(huge.ok ? "" : huge.error.code, "image_too_large");
  } finally {
    await pool.close();
  }
});

Deno.test("a decode past its budget is image_too_slow at once, its process killed, and the pool goes on", async () => {
  const pool = createRenderPool({ size: 1 });
  try {
    // Warm the process first, so the budget times the decode, not Deno's start.
    assert.ok((await pool.decode(pngDeclaringHuge(8, 8), DECODE_BUDGET_MS)).ok);
    const [before] = childrenOf(Deno.pid);
    const started = performance.now();
    const slow = await pool.decode(pngDeclaringHuge(4096, 3900, true), 50);
    const waited = performance.now() - started;
    assert.equal(slow.ok ? "" : slow.error.code, "image_too_slow");
    assert.ok(waited < 1_000, `answered after ${Math.round(waited)} ms`);
    const next = await pool.decode(pngDeclaringHuge(8, 8), DECODE_BUDGET_MS);
    assert.ok(next.ok, "the next decode ran");
    if (Deno.build.os === "linux") assert.notEqual(childrenOf(Deno.pid)[0], before, "the slow process was replaced");
  } finally {
    await pool.close();
  }
});

Deno.test("a classify in a render process answers the classifier's own scores, a file it cannot read as a value, and a budget", async () => {
  const pool = createRenderPool({ size: 1 });
  try {
    const png = await renderPng({ prompt: "a harbour at dusk", style: "watercolor", width: 256, height: 256, seed: 3 });
    // The first classify loads the model in the process: far more than a millisecond of CPU time.
    const tooSlow = await pool.classify(png, 1);
    assert.equal(tooSlow.ok ? "" : tooSlow.error.code, "image_too_slow");
    const scored = await pool.classify(png, CLASSIFY_BUDGET_MS);
    assert.deepEqual(scored, await classifyImageFile(png));
    const text = await pool.classify(new TextEncoder().encode("not an image"), CLASSIFY_BUDGET_MS);
    assert.equal(text.ok ? "" : text.error.code, "image_not_an_image");
    // The same process renders on after classifying.
    const next = { ...job("a lighthouse"), width: 64, height: 64 };
    assert.deepEqual(await pool.render(next), await renderPng(next));
  } finally {
    await pool.close();
  }
});

/** Linux's view of a process: its parent and its niceness (fields 4 and 19 of /proc/<pid>/stat). */
function statOf(pid: number): { ppid: number; nice: number } | null {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { ppid: Number(fields[1]), nice: Number(fields[16]) };
  } catch {
    return null; // gone meanwhile
  }
}

const niceOf = (pid: number) => statOf(pid)!.nice;

/** The live processes whose parent is `pid`. */
function childrenOf(pid: number): number[] {
  if (Deno.build.os !== "linux") return [];
  const pids = [...Deno.readDirSync("/proc")].map((e) => Number(e.name)).filter(Number.isInteger);
  return pids.filter((p) => statOf(p)?.ppid === pid);
}
