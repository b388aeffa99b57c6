// What the on-device upscale runs (docs/decisions/154-on-device-upscale.md): UpscalerJS's ESRGAN models,
// whose weights ship inside their npm packages and are served by the app itself under /upscale/ (the
// build copies them there: scripts/upscale-files-plugin.ts), never fetched from a CDN; and the TensorFlow.js
// backend, the fastest the browser has. Pure data and choices, shared by the page, the worker, the
// build and the tests.

export type UpscaleScale = 2 | 4;
export const UPSCALE_SCALES: readonly UpscaleScale[] = [2, 4];

export type ModelSize = "slim" | "medium";
export type UpscaleModel = { size: ModelSize; scale: UpscaleScale };

/** The npm packages' version; part of the URL, so a new version is a new cache entry. */
export const MODEL_VERSION = "1.0.0";
/** Where the app serves the files it copies from node_modules (models, TensorFlow.js's WASM binaries). */
export const UPSCALE_FILES_PATH = "/upscale/";
export const TFJS_WASM_VERSION = "4.22.0";
export const TFJS_WASM_FILES = [
  "tfjs-backend-wasm.wasm",
  "tfjs-backend-wasm-simd.wasm",
  "tfjs-backend-wasm-threaded-simd.wasm",
] as const;

/**
 * The model a scale uses, by where it runs. On a GPU (WebGPU, or WebGL on a hardware renderer): 2× uses
 * medium (ten dense blocks against slim's two), because a 2× result is looked at closely and has a quarter
 * of 4×'s output pixels, so the better model's cost is affordable there; 4× uses slim, because its output
 * has sixteen times the input's pixels and medium costs about four times slim's time a pixel (measured:
 * docs/benchmarks.md). On the CPU (WASM, or WebGL drawn in software) both use slim: medium's 2× of a
 * 1024² image takes minutes there.
 */
export const MODEL_FOR_SCALE: Record<"gpu" | "cpu", Record<UpscaleScale, ModelSize>> = {
  gpu: { 2: "medium", 4: "slim" },
  cpu: { 2: "slim", 4: "slim" },
};

export function onGpu(backend: BackendName): boolean {
  return backend === "webgpu" || backend === "webgl";
}

export function modelFor(scale: UpscaleScale, backend: BackendName, size?: ModelSize): UpscaleModel {
  return { size: size ?? MODEL_FOR_SCALE[onGpu(backend) ? "gpu" : "cpu"][scale], scale };
}

/** Every model the build copies (the app uses two; the benchmark compares all four). */
export const SERVED_MODELS: readonly UpscaleModel[] = UPSCALE_SCALES.flatMap((scale) =>
  (["slim", "medium"] as const).map((size) => ({ size, scale })),
);

export function modelDir(model: UpscaleModel): string {
  return `${UPSCALE_FILES_PATH}esrgan-${model.size}-${MODEL_VERSION}/x${model.scale}/`;
}

export function modelUrl(model: UpscaleModel): string {
  return `${modelDir(model)}model.json`;
}

export const MODEL_FILE_NAMES = ["model.json", "group1-shard1of1.bin"] as const;

export function wasmDir(): string {
  return `${UPSCALE_FILES_PATH}tfjs-wasm-${TFJS_WASM_VERSION}/`;
}

/** "esrgan-medium" as the recipe and the dialog name it. */
export function modelName(model: Pick<UpscaleModel, "size">): string {
  return `esrgan-${model.size}`;
}

/**
 * Tiling: the image is cut into patches of this many pixels a side (the size the models were trained
 * on), each read with PADDING pixels of its neighbours so the seams do not show, one patch at a time:
 * progress is counted in patches, a cancel is heard between them, and the GPU never holds more than one
 * patch's activations.
 */
export const PATCH_SIZE = 128;
export const PATCH_PADDING = 8;

/**
 * Where TensorFlow.js runs: "webgl" is WebGL on a hardware renderer, "webgl-software" WebGL drawn on the
 * CPU (SwiftShader, llvmpipe: what a machine without a usable GPU gets), which is tried last because WASM
 * was ten times faster than it here (docs/benchmarks.md).
 */
export type BackendName = "webgpu" | "webgl" | "wasm" | "webgl-software";
/** Fastest first; the first one that starts is used. */
export const BACKEND_ORDER: readonly BackendName[] = ["webgpu", "webgl", "wasm", "webgl-software"];

/** Whether a WebGL renderer's name is one that draws on the CPU. */
export function isSoftwareRenderer(renderer: string): boolean {
  return /swiftshader|llvmpipe|softpipe|software|microsoft basic render/i.test(renderer);
}

/**
 * The first backend of `order` (from `only` when given) for which `start` answers true; null when none
 * starts. `start` is asked in order and stops being asked once one starts.
 */
export async function chooseBackend(
  start: (name: BackendName) => Promise<boolean>,
  only?: BackendName,
  order: readonly BackendName[] = BACKEND_ORDER,
): Promise<BackendName | null> {
  for (const name of only ? [only] : order) {
    const started = await start(name).catch(() => false);
    if (started) return name;
  }
  return null;
}

export const BACKEND_LABELS: Record<BackendName, string> = {
  webgpu: "WebGPU",
  webgl: "WebGL",
  wasm: "WebAssembly",
  "webgl-software": "WebGL in software",
};
