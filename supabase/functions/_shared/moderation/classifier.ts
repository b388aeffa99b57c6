// The image classifier: nsfwjs's MobileNetV2 model, bundled inside the nsfwjs package (no network), on
// TensorFlow.js with its WebAssembly back end, whose .wasm files are read from the installed package.
// Loaded once per process or isolate, on first use (TensorFlow.js is imported only then), so a render
// process that never classifies pays nothing. Single-threaded: on the local backend it runs in a render
// process at low priority, beside the renders.
import { type DecodeLimits, DEFAULT_DECODE_LIMITS } from "../image/limits.ts";
import type { RgbaImage } from "../image/result.ts";
import { type ImageScores, scoresOf } from "./image-verdict.ts";

/** The model nsfwjs loads from its own package. */
export const MODEL_NAME = "MobileNetV2";

/**
 * Where the back end's .wasm files are: the installed @tensorflow/tfjs-backend-wasm's dist folder, or
 * null where the package cannot be resolved to a file. A render process may read this folder and nothing
 * else (local/render-pool.ts).
 */
export function wasmDir(): string | null {
  try {
    // deno-lint-ignore no-import-prefix -- resolved in the installed package, never fetched
    const url = new URL(import.meta.resolve("npm:@tensorflow/tfjs-backend-wasm@4.22.0/dist/tfjs-backend-wasm.wasm"));
    return url.protocol === "file:" ? decodeURIComponent(url.pathname).replace(/\/[^/]*$/, "") : null;
  } catch {
    return null;
  }
}

/** A stored image is checked within the reference image's pixel limits, at the bucket's 20 MB a file. */
export const STORED_IMAGE_LIMITS: DecodeLimits = { ...DEFAULT_DECODE_LIMITS, maxBytes: 20 * 1024 * 1024 };

type Classify = (image: RgbaImage) => Promise<ImageScores>;
let loading: Promise<Classify> | null = null;

/** The classifier, loaded on first call; a failed load is tried again at the next call. */
export function loadClassifier(): Promise<Classify> {
  loading ??= load().catch((e) => {
    loading = null;
    throw e;
  });
  return loading;
}

async function load(): Promise<Classify> {
  // deno-lint-ignore no-import-prefix -- deployed functions have no package.json to map a bare name
  const tf = await import("npm:@tensorflow/tfjs@4.22.0");
  // deno-lint-ignore no-import-prefix -- as above
  const wasm = await import("npm:@tensorflow/tfjs-backend-wasm@4.22.0");
  // deno-lint-ignore no-import-prefix -- as above
  const nsfwjs = await import("npm:nsfwjs@4.4.0");
  const dir = wasmDir();
  if (!dir) throw new Error("the TensorFlow.js WebAssembly files are not installed as files here");
  const files = ["tfjs-backend-wasm.wasm", "tfjs-backend-wasm-simd.wasm", "tfjs-backend-wasm-threaded-simd.wasm"];
  wasm.setWasmPaths(Object.fromEntries(files.map((f) => [f, `${dir}/${f}`])));
  tf.env().set("WASM_HAS_MULTITHREAD_SUPPORT", false);
  if (!(await tf.setBackend("wasm"))) throw new Error("the TensorFlow.js WebAssembly back end did not start");
  await tf.ready();
  const model = await quietly(() => nsfwjs.load(MODEL_NAME));
  return async (image) => {
    const input = tf.tidy(() => tf.tensor3d(rgbOf(image), [image.height, image.width, 3], "int32"));
    try {
      const scores = scoresOf(await model.classify(input as never, 5));
      if (!scores) throw new Error("the classifier answered without every class");
      return scores;
    } finally {
      input.dispose();
    }
  };
}

/** nsfwjs announces the model it loads with console.info; the server's logs carry no such line. */
async function quietly<T>(run: () => Promise<T>): Promise<T> {
  const info = console.info;
  console.info = () => undefined;
  try {
    return await run();
  } finally {
    console.info = info;
  }
}

/** The RGB samples of an RGBA image (its alpha dropped), as the int32 the tensor takes. */
function rgbOf({ rgba, width, height }: RgbaImage): Int32Array {
  const n = width * height;
  const rgb = new Int32Array(n * 3);
  for (let i = 0, j = 0; i < n; i++, j += 3) {
    rgb[j] = rgba[i * 4];
    rgb[j + 1] = rgba[i * 4 + 1];
    rgb[j + 2] = rgba[i * 4 + 2];
  }
  return rgb;
}
