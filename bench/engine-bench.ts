// Built-in engine speed: milliseconds per image (median of warm runs, after one warm-up render) for the
// product's three sizes over a spread of styles, at each quality (one table per quality, then one line
// per quality and size), the share of that time spent encoding the PNG, and the two zlib back ends
// compared on the same filtered scanlines. Wall time depends on what else the machine runs; the CPU
// column (this process's user + system time) is the one-core cost.
// Usage: deno run -A bench/engine-bench.ts [--runs 3] [--styles a,b,...] [--qualities standard,high,ultra] [--cold]
import process from "node:process";
import { deflateSync } from "node:zlib";
import { renderRgb } from "../supabase/functions/_shared/engine/render.ts";
import { encodePng, filterScanlines } from "../supabase/functions/_shared/image/png.ts";
import { isQuality, QUALITIES } from "../supabase/functions/_shared/vocabulary/generation.ts";

function option(name: string): string | undefined {
  const i = Deno.args.indexOf(`--${name}`);
  return i >= 0 ? Deno.args[i + 1] : undefined;
}

const SIZES: [number, number][] = [
  [1024, 1024],
  [1536, 1024],
  [1024, 1536],
];
const DEFAULT_STYLES = [
  "photorealistic",
  "anime",
  "oil-painting",
  "watercolor",
  "pixel-art",
  "3d-render",
  "comic-book",
  "neon",
  "isometric",
  "impressionist",
  "sketch",
  "gothic",
];
const styles = option("styles")?.split(",") ?? DEFAULT_STYLES;
const runs = Math.max(1, Number(option("runs") ?? 3));
const qualities = option("qualities")?.split(",").filter(isQuality) ?? [...QUALITIES];
const PROMPT = "a cat by a mountain lake at sunset with trees";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

console.log(`built-in engine benchmark: deno ${Deno.version.deno}, ${runs} warm run(s) per cell, prompt "${PROMPT}"`);
console.log("milliseconds per image: render = pixels, png = encode, total = both (wall clock), cpu = total CPU time");
console.log(
  `load average before: ${Deno.loadavg()
    .map((v) => v.toFixed(2))
    .join(" ")} on ${navigator.hardwareConcurrency} cores\n`,
);
const totals: Record<string, number[]> = {};
const cpuTotals: Record<string, number[]> = {};
let encodeMs = 0,
  allMs = 0;
for (const quality of qualities) {
  console.log(`quality ${quality}`);
  console.log(["style".padEnd(16), ...SIZES.map(([w, h]) => `${w}x${h}`.padStart(29))].join(""));
  console.log(" ".repeat(16) + SIZES.map(() => "render   png  total    cpu".padStart(29)).join(""));
  for (const style of styles) {
    const cells: string[] = [];
    for (const [width, height] of SIZES) {
      const input = { prompt: PROMPT, style, width, height, seed: 42, quality };
      if (!Deno.args.includes("--cold")) await encodePng(renderRgb(input), width, height, { channels: 3 });
      const render: number[] = [],
        png: number[] = [],
        cpu: number[] = [];
      for (let r = 0; r < runs; r++) {
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        const rgb = renderRgb({ ...input, seed: 42 + r });
        const t1 = performance.now();
        await encodePng(rgb, width, height, { channels: 3 });
        const t2 = performance.now();
        const used = process.cpuUsage(c0);
        cpu.push((used.user + used.system) / 1000);
        render.push(t1 - t0);
        png.push(t2 - t1);
        encodeMs += t2 - t1;
        allMs += t2 - t0;
      }
      const total = median(render.map((v, i) => v + png[i]));
      const key = `${quality} ${width}x${height}`;
      (totals[key] ??= []).push(total);
      (cpuTotals[key] ??= []).push(median(cpu));
      const cell = `${median(render).toFixed(0).padStart(6)} ${median(png).toFixed(0).padStart(5)} ${total
        .toFixed(0)
        .padStart(6)} ${median(cpu).toFixed(0).padStart(6)}`;
      cells.push(cell.padStart(29));
    }
    console.log(style.padEnd(16) + cells.join(""));
  }
  console.log("");
}
for (const [key, list] of Object.entries(totals)) {
  const cpu = cpuTotals[key];
  console.log(
    `${key.padEnd(19)}: wall median ${median(list).toFixed(0)} ms, worst ${Math.max(...list).toFixed(0)} ms; ` +
      `CPU median ${median(cpu).toFixed(0)} ms, worst ${Math.max(...cpu).toFixed(0)} ms, over ${list.length} styles`,
  );
}
console.log(
  `load average after: ${Deno.loadavg()
    .map((v) => v.toFixed(2))
    .join(" ")}`,
);
console.log(`PNG encoding share of all measured time: ${((encodeMs / allMs) * 100).toFixed(1)}%`);

const rgb = renderRgb({ prompt: PROMPT, style: "photorealistic", width: 1024, height: 1024, seed: 1 });
const scanlines = filterScanlines(rgb, 1024, 1024, 3, 3);
const zlibMs: number[] = [],
  streamMs: number[] = [];
let zlibBytes = 0,
  streamBytes = 0;
for (let r = 0; r < 3; r++) {
  let t = performance.now();
  zlibBytes = deflateSync(scanlines, { level: 4 }).length;
  zlibMs.push(performance.now() - t);
  t = performance.now();
  const stream = new Blob([scanlines as Uint8Array<ArrayBuffer>])
    .stream()
    .pipeThrough(new CompressionStream("deflate"));
  streamBytes = (await new Response(stream).arrayBuffer()).byteLength;
  streamMs.push(performance.now() - t);
}
console.log(
  `zlib on 1024x1024 scanlines: node:zlib level 4 ${median(zlibMs).toFixed(0)} ms -> ${zlibBytes} B; ` +
    `CompressionStream('deflate') ${median(streamMs).toFixed(0)} ms -> ${streamBytes} B`,
);
