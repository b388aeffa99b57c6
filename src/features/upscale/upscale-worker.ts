// The upscale, off the page's main thread: TensorFlow.js on the fastest backend this browser has
// (WebGPU, else WebGL on an OffscreenCanvas, else WASM), UpscalerJS's ESRGAN model of the chosen scale
// loaded from the app's own origin (/upscale/…, cached for offline by the service worker), the image
// upscaled patch by patch (progress after each; a cancel heard between two), and the result encoded as
// PNG here too, so the page only receives a finished file. Protocol: upscale-protocol.ts.
import * as tf from "@tensorflow/tfjs";
import "@tensorflow/tfjs-backend-webgpu";
import { setWasmPaths } from "@tensorflow/tfjs-backend-wasm";
import Upscaler from "upscaler";
import { x2 as mediumX2, x4 as mediumX4 } from "@upscalerjs/esrgan-medium";
import { x2 as slimX2, x4 as slimX4 } from "@upscalerjs/esrgan-slim";
import type { UpscaleAnswer, UpscaleRequest } from "./upscale-protocol";
import {
  chooseBackend,
  isSoftwareRenderer,
  modelFor,
  modelUrl,
  PATCH_PADDING,
  PATCH_SIZE,
  wasmDir,
  type BackendName,
  type ModelSize,
  type UpscaleModel,
  type UpscaleScale,
} from "./upscale-models";

type Definition = typeof slimX2;
const DEFINITIONS: Record<ModelSize, Record<UpscaleScale, Definition>> = {
  slim: { 2: slimX2, 4: slimX4 },
  medium: { 2: mediumX2, 4: mediumX4 },
};

type UpscalerInstance = InstanceType<typeof Upscaler>;
const upscalers = new Map<string, UpscalerInstance>();
let backend: Promise<BackendName | null> | undefined;
const running = new Map<number, AbortController>();

function post(answer: UpscaleAnswer, transfer: Transferable[] = []) {
  self.postMessage(answer, { transfer });
}

/** The renderer WebGL would draw with here ("" when there is no WebGL). */
function glRenderer(): string {
  const gl = new OffscreenCanvas(1, 1).getContext("webgl2") ?? new OffscreenCanvas(1, 1).getContext("webgl");
  if (!gl) return "";
  const info = gl.getExtension("WEBGL_debug_renderer_info");
  return String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER) ?? "");
}

async function startBackend(name: BackendName): Promise<boolean> {
  if (name === "webgpu") {
    const gpu = (navigator as Navigator & { gpu?: { requestAdapter(): Promise<unknown> } }).gpu;
    if (!gpu || !(await gpu.requestAdapter())) return false;
  }
  if (name === "webgl" || name === "webgl-software") {
    const renderer = glRenderer();
    if (!renderer || isSoftwareRenderer(renderer) !== (name === "webgl-software")) return false;
    return tf.setBackend("webgl");
  }
  if (name === "wasm") {
    // Where the page's policy forbids compiling WebAssembly, say so once instead of failing inside tfjs.
    if (!(await canCompileWasm())) return false;
    setWasmPaths(wasmDir());
  }
  return tf.setBackend(name);
}

/** Whether this worker may compile WebAssembly (a Content-Security-Policy can forbid it). */
async function canCompileWasm(): Promise<boolean> {
  try {
    // The smallest module there is: the magic number and version 1.
    await WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));
    return true;
  } catch {
    return false;
  }
}

function upscalerFor(model: UpscaleModel): UpscalerInstance {
  const key = `${model.size}-${model.scale}`;
  let upscaler = upscalers.get(key);
  if (!upscaler) {
    // The path points the model at the app's own copy of the package's files, never at a CDN.
    upscaler = new Upscaler({ model: { ...DEFINITIONS[model.size][model.scale], path: modelUrl(model) } });
    upscalers.set(key, upscaler);
  }
  return upscaler;
}

async function pixelsOf(image: Blob): Promise<tf.Tensor3D> {
  const bitmap = await createImageBitmap(image);
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const context = canvas.getContext("2d");
  if (!context) throw new Error("This browser cannot read the image.");
  context.drawImage(bitmap, 0, 0);
  bitmap.close();
  return tf.browser.fromPixels(context.getImageData(0, 0, canvas.width, canvas.height), 3);
}

async function pngOf(pixels: tf.Tensor3D): Promise<Blob> {
  const [height, width] = pixels.shape;
  const bytes = tf.tidy(() => pixels.round().clipByValue(0, 255).cast("int32")) as tf.Tensor3D;
  const rgba = await tf.browser.toPixels(bytes);
  bytes.dispose();
  const canvas = new OffscreenCanvas(width, height);
  canvas.getContext("2d")!.putImageData(new ImageData(rgba as Uint8ClampedArray<ArrayBuffer>, width, height), 0, 0);
  return canvas.convertToBlob({ type: "image/png" });
}

async function upscale(request: Extract<UpscaleRequest, { type: "upscale" }>) {
  const { job } = request;
  const abort = new AbortController();
  running.set(job, abort);
  let input: tf.Tensor3D | undefined;
  let output: tf.Tensor3D | undefined;
  try {
    backend ??= chooseBackend(startBackend, request.backend);
    const chosen = await backend;
    if (!chosen) throw new Error("This browser has no way to run the upscale (no WebGPU, WebGL or WebAssembly).");
    const model = modelFor(request.scale, chosen, request.model);
    const upscaler = upscalerFor(model);
    await upscaler.ready;
    if (abort.signal.aborted) return post({ type: "cancelled", job });
    post({ type: "started", job, backend: chosen, model: model.size });
    const started = performance.now();
    input = await pixelsOf(request.image);
    output = await upscaler.execute(input, {
      output: "tensor",
      patchSize: PATCH_SIZE,
      padding: PATCH_PADDING,
      // Each step waits a frame, so a "cancel" message is read between two patches.
      awaitNextFrame: true,
      signal: abort.signal,
      progress: (done: number) => post({ type: "progress", job, done }),
    });
    const png = await pngOf(output);
    const [height, width] = output.shape;
    post({ type: "done", job, image: png, width, height, ms: performance.now() - started });
  } catch (error) {
    if (abort.signal.aborted) post({ type: "cancelled", job });
    else post({ type: "failed", job, message: error instanceof Error ? error.message : String(error) });
  } finally {
    input?.dispose();
    output?.dispose();
    running.delete(job);
  }
}

self.addEventListener("message", (event: MessageEvent<UpscaleRequest>) => {
  const request = event.data;
  if (request.type === "cancel") running.get(request.job)?.abort();
  else void upscale(request);
});
