// Prints what the image check costs (docs/decisions/141-the-image-check-before-publishing.md):
//   1. in process: the classifier's first load (nsfwjs MobileNetV2 on TensorFlow.js WASM, from the
//      package), then the classification time warm, p50 and p95, of the built-in engine's 1024 x 1024
//      images as pixels (goal p50 <= 150 ms), and of their stored PNG files (decode + classify);
//   2. through the local backend on PGlite: what publishing costs with it, the publish-generation round
//      trip p50 and p95 of images not yet scored (the check runs in a render process), of the first
//      publish (the process loads the model), and of a publish again (the kept scores are reused).
// The load average is printed before and after: the figures depend on what else the machine runs, and the
// fastest run (min) shows what one classification costs when the process has a core to itself.
// Run: npx deno run -A bench/nsfw-bench.ts [--runs=40] [--publishes=20]
import { renderPng } from "../supabase/functions/_shared/engine/render.ts";
import { decodeImage } from "../supabase/functions/_shared/image/decode.ts";
import { loadClassifier, STORED_IMAGE_LIMITS } from "../supabase/functions/_shared/moderation/classifier.ts";
import { classifyImageFile } from "../supabase/functions/_shared/moderation/classify-file.ts";
import { BUILTIN_ONLY, startBackend } from "../tests/support/backend.ts";
import { newUser, serviceClient } from "../tests/support/clients.ts";

const arg = (name: string, fallback: number) =>
  Number(Deno.args.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback);
const RUNS = arg("runs", 40);
const PUBLISHES = arg("publishes", 20);
const STYLES = ["photorealistic", "anime", "watercolor", "oil-painting", "cyberpunk", "sketch", "pixel-art", "fantasy"];

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const ms = (n: number) => `${n.toFixed(1)} ms`;
const line = (label: string, xs: number[]) =>
  console.log(
    `${label.padEnd(50)} p50 ${ms(percentile(xs, 50)).padStart(9)}  p95 ${ms(percentile(xs, 95)).padStart(9)}` +
      `  min ${ms(Math.min(...xs)).padStart(9)}  (n=${xs.length})`,
  );
const loadavg = () =>
  Deno.loadavg()
    .map((x) => x.toFixed(2))
    .join(" ");

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const value = await work();
  return [value, performance.now() - t0];
}

async function inProcess(): Promise<void> {
  const files: Uint8Array[] = [];
  for (let i = 0; i < 8; i++) {
    const style = STYLES[i % STYLES.length];
    files.push(await renderPng({ prompt: `a harbour at dusk, ${style}`, style, width: 1024, height: 1024, seed: i }));
  }
  const images = files.map((f) => {
    const d = decodeImage(f, STORED_IMAGE_LIMITS);
    if (!d.ok) throw new Error(d.error.message);
    return d.value;
  });
  const [classify, loadMs] = await timed(() => loadClassifier());
  console.log(`classifier first load (in process)            ${ms(loadMs)}`);
  for (let i = 0; i < 3; i++) await classify(images[i % images.length]);
  const pixels: number[] = [];
  const stored: number[] = [];
  for (let i = 0; i < RUNS; i++) pixels.push((await timed(() => classify(images[i % images.length])))[1]);
  for (let i = 0; i < RUNS; i++) stored.push((await timed(() => classifyImageFile(files[i % files.length])))[1]);
  line("classify 1024x1024 pixels, warm (goal p50 <= 150)", pixels);
  line("check a stored 1024x1024 PNG (decode + classify)", stored);
}

async function throughBackend(): Promise<void> {
  const backend = await startBackend({ env: BUILTIN_ONLY });
  try {
    const { client, id } = await newUser(backend, "nsfw-bench");
    await client.rpc("get_my_limits");
    const raised = await serviceClient(backend)
      .from("user_daily_limits")
      .update({ subscription_tier: "premium" })
      .eq("user_id", id);
    if (raised.error) throw new Error(`could not raise the bench user's tier: ${raised.error.message}`);
    const ids: string[] = [];
    for (let i = 0; i <= PUBLISHES; i++) {
      const style = STYLES[i % STYLES.length];
      const { data, error } = await client.functions.invoke("generate-image", {
        body: { request_id: crypto.randomUUID(), prompt: `a lighthouse at dawn, ${style}`, style, seed: i },
      });
      if (error) throw error;
      ids.push(data.generation.id);
    }
    const publish = async (generationId: string) => {
      const [res] = await timed(() =>
        client.functions.invoke("publish-generation", { body: { generation_id: generationId } }),
      );
      if (res.error) throw res.error;
    };
    const [, firstMs] = await timed(() => publish(ids[0]));
    console.log(`publish, first (the render process loads the model) ${ms(firstMs)}`);
    const fresh: number[] = [];
    const again: number[] = [];
    for (const g of ids.slice(1)) fresh.push((await timed(() => publish(g)))[1]);
    for (const g of ids.slice(1)) again.push((await timed(() => publish(g)))[1]);
    line("publish-generation round trip, image checked", fresh);
    line("publish-generation round trip, scores kept", again);
  } finally {
    await backend.stop();
  }
}

console.log(`load average before: ${loadavg()}  (${new Date().toISOString()}, ${navigator.hardwareConcurrency} CPUs)`);
await inProcess();
await throughBackend();
console.log(`load average after:  ${loadavg()}`);
