// The generator's batch figures with next to nothing on the device: what the machine allows before the
// app's own work. Prints figures; it is not a test. The same batch of 8 the generator bench queues
// (bench/generator-bench.mjs) is sent straight to generate-image on `npm start`'s local backend, at
// concurrency 1 and 2, by two bare clients: this Node process (each image downloaded), and a blank page in
// Chromium (each image shown in an <img> and decoded; no React, no IndexedDB, no service worker). Each
// sends plain (a lane frees at the answer) and streamed (a lane frees at `drawn`, as the app's queue does:
// decision 123), with the render pool at its default size and at RENDER_WORKERS=2. So the goals of issue
// 26 item 6 (a render in flight >= 85% of a batch at concurrency 1; concurrency 2 <= 0.6 of concurrency
// 1) can be read against clients that cost almost nothing, and each batch's CPU a send by kind of
// process shows what the renders share the two cores with.
//
//   node bench/sends-floor-bench.mjs        (BENCH_FLOOR_REPS: batches of each kind, 3)
// The functions handed to page.evaluate run in the browser, where these exist.
/* global document */
import { randomBytes } from "node:crypto";
import { chromium } from "playwright-core";
import { chromiumPath } from "../scripts/chromium.mjs";
import { json, moveToTier, percentile, startApp } from "./support/app.mjs";
import { cpuByKind, cpuSince } from "./support/process-cpu.mjs";

const REPS = Number(process.env.BENCH_FLOOR_REPS ?? 3);
const PASSWORD = "correct-horse-battery";

/** A new account on the pro tier (the free tier's 5 a day would cut the batches short); its headers. */
async function proUser(app, secret) {
  const email = `floor-${Date.now().toString(36)}@example.com`;
  const headers = { apikey: app.anonKey, "Content-Type": "application/json" };
  const credentials = JSON.stringify({ email, password: PASSWORD });
  await json(await fetch(`${app.api}/auth/v1/signup`, { method: "POST", headers, body: credentials }));
  return { ...(await moveToTier(app, secret, email, PASSWORD, "pro")), "x-timezone": "UTC" };
}

/**
 * A batch of `count` sends in `concurrency` lanes; answers its wall time (to the last image kept or
 * shown) and the sum of the function's render steps. Self-contained, so it runs as it is in Node and,
 * through page.evaluate, in the page: `inPage` shows each image in an <img> and waits for its decode.
 */
async function runBatch({ api, headers, concurrency, count, streamed, label, inPage }) {
  const providerMs = (timing) => Number(/provider;dur=([\d.]+)/.exec(timing ?? "")?.[1] ?? NaN);
  const keep = async (url) => {
    if (!inPage) return void (await (await fetch(url)).arrayBuffer());
    const img = document.createElement("img");
    img.width = 256;
    img.height = 256;
    img.alt = "";
    img.src = url;
    await img.decode();
    document.body.replaceChildren(img);
  };
  /** One send: `freed` when its lane may take the next task, `done` with its render time once kept. */
  const send = (prompt) => {
    let free;
    const freed = new Promise((r) => (free = r));
    const done = (async () => {
      const res = await fetch(`${api}/functions/v1/generate-image`, {
        method: "POST",
        headers: streamed ? { ...headers, Accept: "text/event-stream" } : headers,
        body: JSON.stringify({ request_id: crypto.randomUUID(), prompt }),
      });
      if (!res.ok) throw new Error(`generate-image answered ${res.status}: ${await res.text()}`);
      let answer;
      let timing = res.headers.get("server-timing");
      if ((res.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
        const reader = res.body.getReader();
        const decoder = new TextDecoder();
        let text = "";
        for (;;) {
          const { done: ended, value } = await reader.read();
          if (ended) break;
          text += decoder.decode(value, { stream: true });
          if (/^event: drawn$/m.test(text)) free();
        }
        timing = JSON.parse(/^event: timing\ndata: (.*)$/m.exec(text)?.[1] ?? "null");
        const data = /^event: (answer|error)\ndata: (.*)$/m.exec(text);
        if (data?.[1] !== "answer") throw new Error(`the stream ended without an answer: ${text.slice(-300)}`);
        answer = JSON.parse(data[2]);
      } else answer = await res.json();
      free();
      await keep(answer.generation.image_url);
      return providerMs(timing);
    })();
    done.catch(() => free());
    return { freed, done };
  };
  const start = performance.now();
  const all = [];
  await Promise.all(
    Array.from({ length: concurrency }, async (_, lane) => {
      for (let i = lane; i < count; i += concurrency) {
        const one = send(`${label} ${i + 1}, a red fox in the snow`);
        all.push(one.done);
        await one.freed;
      }
    }),
  );
  const renders = await Promise.all(all);
  return { wall: performance.now() - start, render: renders.reduce((a, b) => a + b, 0) };
}

const ms = (v) => `${Math.round(v)} ms`;
const BATCH = 8;

/** One batch through `client` with its CPU a send by kind of process. */
async function measured(client, options) {
  const before = cpuByKind();
  const result = await client(options);
  return { ...result, cpu: cpuSince(before, cpuByKind()) };
}

const browser = await chromium.launch({ executablePath: chromiumPath(), args: ["--no-sandbox", "--disable-gpu"] });
try {
  for (const workers of [undefined, "2"]) {
    const secret = randomBytes(32).toString("hex");
    const env = { JWT_SECRET: secret, ...(workers ? { RENDER_WORKERS: workers } : {}) };
    const app = await startApp({ port: 55830, apiPort: 55831, env });
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${app.api}/functions/v1/health`);
      const headers = await proUser(app, secret);
      const clients = [
        ["Node", (o) => runBatch(o)],
        ["a blank page in Chromium", (o) => page.evaluate(runBatch, { ...o, inPage: true })],
      ];
      const base = { api: app.api, headers, count: BATCH };
      // A batch at each concurrency through each client first, not counted: the first renders of a fresh
      // backend (and the first sends of a fresh page) run slower, which would flatter that first ratio.
      for (const [, client] of clients) {
        for (const concurrency of [1, 2]) await client({ ...base, concurrency, streamed: true, label: "Warm-up" });
      }
      console.log(
        `\nRender pool: ${workers ? `RENDER_WORKERS=${workers}` : "the default size"} (${REPS} batches of each)`,
      );
      for (const [name, client] of clients) {
        for (const streamed of [false, true]) {
          const rows = [];
          for (let rep = 0; rep < REPS; rep++) {
            const one = await measured(client, { ...base, concurrency: 1, streamed, label: `Floor c1 ${rep}` });
            const two = await measured(client, { ...base, concurrency: 2, streamed, label: `Floor c2 ${rep}` });
            rows.push({ one, two });
          }
          const cpuLine = (b) =>
            Object.entries(b.cpu ?? {})
              .map(([kind, v]) => `${kind} ${ms(v / BATCH)}`)
              .join(", ");
          const last = rows.at(-1);
          console.log(
            `  ${name}, ${streamed ? "streamed (a lane frees at drawn)" : "plain (a lane frees at the answer)"}: ` +
              `render in flight at concurrency 1 ${rows.map((r) => `${Math.round((100 * r.one.render) / r.one.wall)}%`).join(", ")}` +
              ` (goal >= 85%); concurrency 2 / 1 ${rows.map((r) => (r.two.wall / r.one.wall).toFixed(2)).join(", ")} (goal <= 0.6)`,
          );
          const p50 = (f) => ms(percentile(rows.map(f), 50));
          console.log(
            `    p50: wall a send c1 ${p50((r) => r.one.wall / BATCH)}, c2 ${p50((r) => r.two.wall / BATCH)}; ` +
              `render a send c1 ${p50((r) => r.one.render / BATCH)}`,
          );
          console.log(`    CPU a send, last batch, c1: ${cpuLine(last.one)}`);
          console.log(`    CPU a send, last batch, c2: ${cpuLine(last.two)}`);
        }
      }
    } finally {
      await context.close();
      await app.stop();
    }
  }
} finally {
  await browser.close();
}
