// Renders the public site's style previews with the product's own built-in procedural engine (through
// scripts/render-samples.ts) and stores them as small WebP files in public/previews/. Chromium does the
// WebP encoding, so no image library is needed. The files are committed; re-run after engine changes:
//   node scripts/render-previews.mjs            (every preview)
//   node scripts/render-previews.mjs anime      (only jobs whose name contains "anime")
// Functions passed to page.evaluate() run in Chromium, where these browser globals exist.
/* global createImageBitmap, OffscreenCanvas */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { chromiumPath } from "./chromium.mjs";
import { denoPath } from "./deno-path.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const OUT = join(root, "public/previews");
const MAX_BYTES = 24 * 1024;
const SEED = 7;

/** One showcase prompt per style: each names motifs the engine can draw. */
const STYLE_PROMPTS = {
  photorealistic: "mountain lake at sunset",
  anime: "a house on green hills under a big sky",
  "digital-art": "glowing planet over the sea at sunset",
  "oil-painting": "a river through a forest between rolling hills",
  watercolor: "boats on a calm sea below mountains",
  "pixel-art": "a castle on a hill at night with stars",
  "3d-render": "a friendly robot beside a small planet",
  "comic-book": "city skyline at night",
  "line-art": "a house in the forest below mountains",
  isometric: "a small city of houses",
  fantasy: "a castle in the fog above a river",
  minimalist: "a red sun above the hills and a boat on the sea",
  cyberpunk: "night city in the rain",
  steampunk: "brass gears and a car in the fog",
  "art-nouveau": "portrait of a woman with flowers",
  impressionist: "a flower garden by a river",
  "pop-art": "portrait of a cat",
  graffiti: "a car in the city",
  sketch: "a cat beside a house",
  vintage: "a car on a desert road",
  neon: "a city skyline, a car and the moon at night",
  gothic: "a castle under the moon",
  baroque: "portrait with flowers",
  surreal: "planets floating over the desert",
  abstract: "red and blue sun",
  cartoon: "a dog on the hills in the sun",
  "nano-banana": "bananas on the beach",
};

const jobs = [
  ...Object.entries(STYLE_PROMPTS).map(([style, prompt]) => ({
    file: `styles/${style}.webp`,
    style,
    prompt,
    size: "320x320",
  })),
  { file: "carousel/photoreal.webp", style: "photorealistic", prompt: "snowy mountains above a lake", size: "320x400" },
  { file: "carousel/illustration.webp", style: "digital-art", prompt: "a house by the sea at sunset", size: "320x400" },
  { file: "carousel/anime.webp", style: "anime", prompt: "a cat on the hills at sunset", size: "320x400" },
  {
    file: "carousel/3d-render.webp",
    style: "3d-render",
    prompt: "a robot and a car on a studio floor",
    size: "320x400",
  },
  {
    file: "carousel/watercolor.webp",
    style: "watercolor",
    prompt: "boats in a harbour below mountains",
    size: "320x400",
  },
  ...[
    "beach with boats at sunset",
    "a foggy forest with a river",
    "night city skyline in the rain",
    "a dog in the snow",
  ].map((prompt, i) => ({
    file: `examples/photorealistic-${i + 1}.webp`,
    style: "photorealistic",
    prompt,
    size: "384x384",
  })),
  ...[
    "portrait of a girl with flowers",
    "a house on the hills under the stars",
    "a cat in a snowy forest",
    "the sea at sunset with birds",
  ].map((prompt, i) => ({ file: `examples/anime-${i + 1}.webp`, style: "anime", prompt, size: "384x384" })),
  // The Open Graph card: an engine picture behind the product's name, as a JPEG for social sites.
  {
    file: "../og/promptcanvas.jpg",
    style: "digital-art",
    prompt: "glowing planet over the sea at sunset",
    size: "1200x630",
    card: true,
  },
];

/** Lays the product's name over the picture and saves a JPEG screenshot of exactly the card's size. */
async function writeCard(job, png) {
  const [width, height] = job.size.split("x").map(Number);
  const card = await browser.newPage({ viewport: { width, height } });
  await card.setContent(`<body style="margin:0;width:${width}px;height:${height}px;font-family:system-ui,sans-serif;
    background:url(data:image/png;base64,${png}) center/cover;display:flex;align-items:flex-end">
    <div style="width:100%;padding:56px 64px;background:linear-gradient(transparent,rgba(10,8,30,.85));color:#fff">
      <div style="font-size:34px;font-weight:600;opacity:.9">PromptCanvas</div>
      <div style="font-size:72px;font-weight:800;line-height:1.05;margin-top:8px">AI Text to Image Generator</div>
      <div style="font-size:26px;margin-top:16px;opacity:.9">Prompt, style, quality, aspect ratio &mdash; works offline, installs as an app.</div>
    </div></body>`);
  const target = join(OUT, job.file);
  mkdirSync(dirname(target), { recursive: true });
  const bytes = await card.screenshot({ type: "jpeg", quality: 78 });
  writeFileSync(target, bytes);
  await card.close();
  console.log(
    `${job.file.padEnd(36)} ${(bytes.length / 1024).toFixed(1)} KB  (card over ${job.style}: "${job.prompt}")`,
  );
}

const filter = process.argv[2];
const chosen = filter ? jobs.filter((j) => j.file.includes(filter)) : jobs;
const tmp = mkdtempSync(join(tmpdir(), "previews-"));
const browser = await chromium.launch({
  executablePath: chromiumPath(),
  args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
});
const page = await browser.newPage();

try {
  for (const job of chosen) {
    const dir = join(tmp, job.file.replace(/[/.]/g, "_"));
    const r = spawnSync(
      denoPath(),
      [
        "run",
        "-A",
        "scripts/render-samples.ts",
        dir,
        "--size",
        job.size,
        "--styles",
        job.style,
        "--prompt",
        job.prompt,
        "--seed",
        String(SEED),
      ],
      { cwd: root, encoding: "utf8" },
    );
    if (r.status !== 0) throw new Error(`render failed for ${job.file}: ${r.stderr}`);
    const png = readFileSync(join(dir, `${job.style}-0.png`)).toString("base64");
    if (job.card) {
      await writeCard(job, png);
      continue;
    }
    const webp = await page.evaluate(
      async ({ png, maxBytes }) => {
        const blob = await (await fetch(`data:image/png;base64,${png}`)).blob();
        const bitmap = await createImageBitmap(blob);
        const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
        canvas.getContext("2d").drawImage(bitmap, 0, 0);
        let out;
        for (let quality = 0.82; quality >= 0.3; quality -= 0.06) {
          out = await canvas.convertToBlob({ type: "image/webp", quality });
          if (out.size <= maxBytes) break;
        }
        const bytes = new Uint8Array(await out.arrayBuffer());
        let s = "";
        for (const b of bytes) s += String.fromCharCode(b);
        return btoa(s);
      },
      { png, maxBytes: MAX_BYTES },
    );
    const target = join(OUT, job.file);
    mkdirSync(dirname(target), { recursive: true });
    const bytes = Buffer.from(webp, "base64");
    writeFileSync(target, bytes);
    console.log(`${job.file.padEnd(36)} ${(bytes.length / 1024).toFixed(1)} KB  (${job.style}: "${job.prompt}")`);
  }
} finally {
  await browser.close();
  rmSync(tmp, { recursive: true, force: true });
}
