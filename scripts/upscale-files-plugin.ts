// A Vite plugin: the files the upscale fetches at run time, copied from node_modules into the build under
// /upscale/ (and served from there by the dev server), so the app serves them from its own origin and
// nothing is fetched from a CDN: the ESRGAN models' model.json and weights, and TensorFlow.js's WASM
// binaries. They are not in the precache (about 7 MB a visitor would download for a feature few use);
// the service worker keeps each one the first time it is fetched (sw/sw.ts), so an upscale done once
// works offline after.
import { createReadStream, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Plugin } from "vite";
import {
  MODEL_FILE_NAMES,
  modelDir,
  SERVED_MODELS,
  TFJS_WASM_FILES,
  UPSCALE_FILES_PATH,
  wasmDir,
} from "../src/features/upscale/upscale-models.ts";

type Served = { url: string; source: string };

export function upscaleFiles(root: string): Served[] {
  const modules = join(root, "node_modules");
  const models = SERVED_MODELS.flatMap((model) =>
    MODEL_FILE_NAMES.map((name) => ({
      url: `${modelDir(model)}${name}`,
      source: join(modules, "@upscalerjs", `esrgan-${model.size}`, "models", `x${model.scale}`, name),
    })),
  );
  const wasm = TFJS_WASM_FILES.map((name) => ({
    url: `${wasmDir()}${name}`,
    source: join(modules, "@tensorflow", "tfjs-backend-wasm", "dist", name),
  }));
  return [...models, ...wasm];
}

const TYPES: Record<string, string> = {
  json: "application/json",
  bin: "application/octet-stream",
  wasm: "application/wasm",
};

export function upscaleFilesPlugin(): Plugin {
  let root = process.cwd();
  return {
    name: "promptcanvas-upscale-files",
    configResolved(config) {
      root = config.root;
    },
    configureServer(server) {
      const byUrl = new Map(upscaleFiles(root).map((f) => [f.url, f.source]));
      server.middlewares.use((req, res, next) => {
        const path = (req.url ?? "").split("?")[0];
        const source = path.startsWith(UPSCALE_FILES_PATH) ? byUrl.get(path) : undefined;
        if (!source) return next();
        res.setHeader("Content-Type", TYPES[path.split(".").pop() ?? ""] ?? "application/octet-stream");
        createReadStream(source).pipe(res);
      });
    },
    generateBundle() {
      for (const file of upscaleFiles(root)) {
        this.emitFile({ type: "asset", fileName: file.url.slice(1), source: readFileSync(file.source) });
      }
    },
  };
}
