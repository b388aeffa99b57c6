// The on-device upscale (src/features/upscale, docs/decisions/154-on-device-upscale.md) in Chromium, on each
// TensorFlow.js backend the browser here can start: seconds an image at 2× and 4× (the model the app uses
// for each scale, and the other one for comparison), the peak memory of the browser's processes above
// their level before the upscale, and the longest task on the page's main thread while the worker runs
// (PerformanceObserver "longtask"; goal <= 50 ms). Prints figures; it is not a test.
//
// The built app (scripts/build.mjs, into BENCH_UP_DIST, default dist-bench-upscale) is served by a small
// static server of its own, so the page and its worker have no Content-Security-Policy: the app's policy
// refuses WebAssembly compilation today (see the decision), and this measures the engine. The page makes a
// test image (gradients, shapes and noise, so every patch has detail) and posts it to the app's worker.
//
//   node bench/upscale-bench.mjs
//   BENCH_UP_SIDES=256,512   sides of the square test images (default 256,512,1024)
//   BENCH_UP_BACKENDS=wasm   backends to try (default webgpu,webgl-software,wasm)
//   BENCH_UP_CASES=2:slim,4:slim,2:medium   scale:model pairs (the default)
//   BENCH_UP_MAX_S=150       a case whose smaller size took longer than this (s) is not run at larger sizes
/* global OffscreenCanvas, Worker */
import { createServer } from "node:http";
import { readdirSync, readFileSync, existsSync } from "node:fs";
import { extname, join, normalize } from "node:path";
import { chromium } from "playwright-core";
import { chromiumPath } from "../scripts/chromium.mjs";
import { buildApp } from "../scripts/build.mjs";
import { root } from "./support/app.mjs";

const list = (v, d) =>
  (v ?? d)
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
const SIDES = list(process.env.BENCH_UP_SIDES, "256,512,1024").map(Number);
const BACKENDS = list(process.env.BENCH_UP_BACKENDS, "webgpu,webgl-software,wasm");
const CASES = list(process.env.BENCH_UP_CASES, "2:slim,4:slim,2:medium").map((c) => {
  const [scale, model] = c.split(":");
  return { scale: Number(scale), model };
});
const MAX_S = Number(process.env.BENCH_UP_MAX_S ?? 150);
const DIST = join(root, process.env.BENCH_UP_DIST ?? "dist-bench-upscale");
const TYPES = {
  ".html": "text/html",
  ".js": "text/javascript",
  ".json": "application/json",
  ".wasm": "application/wasm",
};

const PAGE = `<!doctype html><meta charset="utf-8"><title>upscale bench</title><script>
globalThis.longest = 0;
new PerformanceObserver((list) => { for (const e of list.getEntries()) globalThis.longest = Math.max(globalThis.longest, e.duration); })
  .observe({ type: "longtask" });
</script>`;

function serve(dir) {
  const server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? "/").split("?")[0]);
    if (path === "/bench") return res.writeHead(200, { "Content-Type": "text/html" }).end(PAGE);
    const file = normalize(join(dir, path));
    if (!file.startsWith(dir) || !existsSync(file) || path.endsWith("/")) return res.writeHead(404).end();
    res.writeHead(200, { "Content-Type": TYPES[extname(file)] ?? "application/octet-stream" }).end(readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

/** Resident memory (kB) of `pid` and every process under it. */
function treeRss(pid) {
  const parents = new Map();
  for (const p of readdirSync("/proc")) {
    if (!/^\d+$/.test(p)) continue;
    try {
      const stat = readFileSync(`/proc/${p}/stat`, "utf8").split(") ")[1].split(" ");
      const rss = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, "utf8"))?.[1];
      parents.set(Number(p), { parent: Number(stat[1]), rss: Number(rss ?? 0) });
    } catch {
      // Ended while read.
    }
  }
  const ours = new Set([pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [p, v] of parents) if (!ours.has(p) && ours.has(v.parent) && ours.add(p)) grew = true;
  }
  let total = 0;
  for (const p of ours) total += parents.get(p)?.rss ?? 0;
  return total;
}

/** In the page: a test image of `side` pixels, then one upscale through the app's worker. */
async function upscaleInPage({ workerUrl, side, scale, model, backend }) {
  const canvas = new OffscreenCanvas(side, side);
  const c = canvas.getContext("2d");
  const g = c.createLinearGradient(0, 0, side, side);
  g.addColorStop(0, "#1d3557");
  g.addColorStop(0.5, "#e9c46a");
  g.addColorStop(1, "#e76f51");
  c.fillStyle = g;
  c.fillRect(0, 0, side, side);
  for (let i = 0; i < 60; i++) {
    c.fillStyle = `hsl(${(i * 47) % 360} 70% 50% / 0.6)`;
    c.beginPath();
    c.arc((i * 97) % side, (i * 61) % side, 8 + ((i * 13) % 60), 0, Math.PI * 2);
    c.fill();
  }
  const image = await canvas.convertToBlob({ type: "image/png" });
  const worker = new Worker(workerUrl);
  const answer = (job, payload) =>
    new Promise((resolve) => {
      const events = { started: 0, progress: 0 };
      worker.onmessage = ({ data }) => {
        if (data.type === "started") events.started = performance.now();
        if (data.type === "progress") events.progress++;
        if (data.type === "done" || data.type === "failed" || data.type === "cancelled")
          resolve({ ...data, ...events });
      };
      worker.postMessage({ type: "upscale", job, ...payload });
    });
  // A first small job loads the model and starts the backend (shader compilation, WASM instantiation).
  const warm = new OffscreenCanvas(64, 64);
  warm.getContext("2d").fillRect(0, 0, 64, 64);
  const warmStarted = performance.now();
  const first = await answer(1, { image: await warm.convertToBlob({ type: "image/png" }), scale, model, backend });
  const warmMs = performance.now() - warmStarted;
  if (first.type !== "done") {
    worker.terminate();
    return { ok: false, message: first.message ?? first.type };
  }
  globalThis.longest = 0;
  const done = await answer(2, { image, scale, model, backend });
  await new Promise((r) => setTimeout(r, 100));
  worker.terminate();
  if (done.type !== "done") return { ok: false, message: done.message ?? done.type };
  return {
    ok: true,
    ms: done.ms,
    width: done.width,
    height: done.height,
    progress: done.progress,
    warmMs,
    longest: globalThis.longest,
  };
}

const build = await buildApp({ dist: DIST, brotli: "later" });
const worker = readdirSync(join(DIST, "assets")).find((f) => /^upscale-worker-.*\.js$/.test(f));
if (!worker) throw new Error("The build has no upscale worker.");
const server = await serve(DIST);
const origin = `http://127.0.0.1:${server.address().port}`;
console.log(
  `build: ${build.built ? "made" : "current"}; load average ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`,
);

const ARGS = {
  webgpu: ["--enable-unsafe-webgpu", "--enable-features=Vulkan", "--use-angle=swiftshader"],
  "webgl-software": ["--use-angle=swiftshader", "--enable-unsafe-swiftshader"],
  wasm: ["--disable-gpu"],
};
for (const backend of BACKENDS) {
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: ["--no-sandbox", ...ARGS[backend]] });
  try {
    const page = await browser.newPage();
    await page.goto(`${origin}/bench`);
    // Chromium runs under this process: its tree is this one (Node itself varies by little).
    const pid = process.pid;
    for (const { scale, model } of CASES) {
      for (const side of SIDES) {
        const before = pid ? treeRss(pid) : 0;
        let peak = before;
        const sampler = setInterval(() => pid && (peak = Math.max(peak, treeRss(pid))), 250);
        const r = await page.evaluate(upscaleInPage, { workerUrl: `/assets/${worker}`, side, scale, model, backend });
        clearInterval(sampler);
        const label = `${backend} ${scale}x ${model} ${side}²`;
        if (!r.ok) {
          console.log(`${label}: not available (${r.message})`);
          break;
        }
        const perMegapixel = r.ms / 1000 / ((side * side) / 1024 ** 2);
        console.log(
          `${label} -> ${r.width}x${r.height}: ${(r.ms / 1000).toFixed(1)} s (${perMegapixel.toFixed(1)} s a 1024² at this rate), ` +
            `first-run start ${(r.warmMs / 1000).toFixed(1)} s, peak memory +${Math.round((peak - before) / 1024)} MB, ` +
            `longest main-thread task ${Math.round(r.longest)} ms, ${r.progress} progress events`,
        );
        if (r.ms / 1000 > MAX_S) break;
      }
    }
  } finally {
    await browser.close();
  }
}
server.close();
console.log(
  `load average ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")} (shared machine, 2 cores)`,
);
