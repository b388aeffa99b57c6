// Writes sample PNGs from the built-in engine into a directory, to look at styles and prompts by eye.
// Usage: deno run -A scripts/render-samples.ts <out-dir> [--size 512x512] [--styles a,b] [--prompt "..."]
//        [--negative "..."] [--seed 7]
// Without --prompt it renders a fixed set of prompts; without --styles, every style.
import { describeRender, renderPng } from "../supabase/functions/_shared/engine/render.ts";
import { STYLE_IDS } from "../supabase/functions/_shared/vocabulary/styles.ts";

const PROMPTS = [
  "mountain lake at sunset",
  "night city skyline in the rain",
  "portrait of a girl with flowers",
  "a cat and a house in a snowy forest",
];

function option(name: string): string | undefined {
  const i = Deno.args.indexOf(`--${name}`);
  return i >= 0 ? Deno.args[i + 1] : undefined;
}

const outDir = Deno.args[0];
if (!outDir || outDir.startsWith("--")) {
  console.error(
    "usage: render-samples.ts <out-dir> [--size WxH] [--styles a,b] [--prompt text] [--negative text] [--seed n]",
  );
  Deno.exit(2);
}
const [width, height] = (option("size") ?? "512x512").split("x").map(Number);
const styles = option("styles")?.split(",") ?? [...STYLE_IDS];
const prompts = option("prompt") ? [option("prompt")!] : PROMPTS;
const negativePrompt = option("negative") ?? "";
const seed = Number(option("seed") ?? 7);

await Deno.mkdir(outDir, { recursive: true });
for (const style of styles) {
  for (const [i, prompt] of prompts.entries()) {
    const input = { prompt, negativePrompt, style, width, height, seed };
    const started = performance.now();
    const png = await renderPng(input);
    const ms = performance.now() - started;
    const file = `${outDir}/${style}-${i}.png`;
    await Deno.writeFile(file, png);
    console.log(`${file}  ${ms.toFixed(0)} ms  ${describeRender(input).caption}`);
  }
}
