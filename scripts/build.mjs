// The app's build, as `npm start` runs it: Vite, the prerendered public pages, then their Brotli
// copies (the same steps as `npm run build`), skipped when nothing the build reads has changed since
// the build in that folder was made.
//
// "Nothing changed" is a content hash (SHA-256) over every input of the build: src/, sw/, public/, the
// shared vocabulary the app imports (supabase/functions/_shared/vocabulary/), index.html, the configs,
// package.json and package-lock.json (so an `npm install` that changes a dependency rebuilds), the build
// scripts themselves, and the environment variables the build reads. The hash is written to a stamp
// last, once every step succeeded; a failed or interrupted build leaves no stamp, so the next start
// builds again. The stamp also lists the build's files with their sizes, and a build folder missing one
// of them, or holding a different size, is built again. Stamps live in node_modules/.cache/, one per
// build folder, not in the folder the app is served from.
//
//   node scripts/build.mjs [dist]        builds unless current; prints one summary line
//   node scripts/build.mjs [dist] --force
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
export const ROOT = join(here, "..");

/** Where the stamp of the build in `dist` is kept. */
export function stampPath(dist, root = ROOT) {
  const key = createHash("sha256").update(resolve(dist)).digest("hex").slice(0, 16);
  return join(root, "node_modules/.cache/promptcanvas-build", `${key}.json`);
}

/** Folders and files, relative to the project, whose content the build reads. */
export const BUILD_INPUTS = [
  "src",
  "sw",
  "public",
  "supabase/functions/_shared/vocabulary",
  "index.html",
  "vite.config.ts",
  "tsconfig.json",
  "package.json",
  "package-lock.json",
  "scripts/build.mjs",
  "scripts/prerender.mjs",
  "scripts/security-headers.mjs",
  "scripts/precompress.mjs",
  // precompress.mjs compresses the files the app server would (isCompressible).
  "scripts/serve-app.mjs",
];

/** Environment variables the build reads: the canonical origin of the prerendered pages, Vite's own. */
function buildEnv(env) {
  return Object.keys(env)
    .filter((k) => k === "SITE_ORIGIN" || k === "NODE_ENV" || k.startsWith("VITE_"))
    .sort()
    .map((k) => `${k}=${env[k]}`);
}

async function* walk(dir) {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (e) {
    if (e.code === "ENOENT") return;
    throw e;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (entry.isFile()) yield path;
  }
}

/**
 * The SHA-256 of the build's inputs under `root` (paths and contents, in a fixed order, plus `.env`
 * files Vite would load and the build's environment variables).
 */
export async function inputsHash(root = ROOT, env = process.env) {
  const hash = createHash("sha256");
  const add = (path, body) => {
    hash.update(`${relative(root, path).split(sep).join("/")}\0${body.length}\0`);
    hash.update(body);
  };
  const topLevel = (await readdir(root)).filter((n) => n === ".env" || n.startsWith(".env.")).sort();
  for (const input of [...BUILD_INPUTS, ...topLevel]) {
    const path = join(root, input);
    const info = await stat(path).catch(() => null);
    if (!info) {
      hash.update(`${input}\0missing\0`);
      continue;
    }
    if (info.isDirectory()) {
      for await (const file of walk(path)) add(file, await readFile(file));
    } else add(path, await readFile(path));
  }
  hash.update(`env\0${buildEnv(env).join("\n")}`);
  return hash.digest("hex");
}

async function outputFiles(dist) {
  const files = {};
  for await (const file of walk(dist)) {
    files[relative(dist, file).split(sep).join("/")] = (await stat(file)).size;
  }
  return files;
}

/** Whether `dist` holds a complete build of exactly these inputs. */
export async function isBuildCurrent(dist, hash, root = ROOT) {
  let stamp;
  try {
    stamp = JSON.parse(await readFile(stampPath(dist, root), "utf8"));
  } catch {
    return false;
  }
  if (stamp?.inputs !== hash || !stamp.files || typeof stamp.files !== "object") return false;
  for (const [name, size] of Object.entries(stamp.files)) {
    const info = await stat(join(dist, name)).catch(() => null);
    if (!info || info.size !== size) return false;
  }
  return existsSync(join(dist, "index.html"));
}

/** Runs a Node script, keeping its output to show only if it fails. */
function run(args, root) {
  return new Promise((resolvePromise, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolvePromise({ output, seconds: (performance.now() - started) / 1000 });
      else {
        const error = new Error(`${args.map((a) => relative(root, a) || a).join(" ")} failed (exit ${code})`);
        error.output = output;
        reject(error);
      }
    });
  });
}

/**
 * Builds the app into `dist` unless it holds a build of the current inputs (or `force`). Resolves to
 * what happened, for a one-line summary; rejects with the failing step's output on `error.output`.
 */
export async function buildApp({ root = ROOT, dist = join(root, "dist"), force = false, env = process.env } = {}) {
  const started = performance.now();
  const hash = await inputsHash(root, env);
  if (!force && (await isBuildCurrent(dist, hash, root))) {
    return { built: false, seconds: (performance.now() - started) / 1000 };
  }
  const stamp = stampPath(dist, root);
  await rm(stamp, { force: true });
  const vite = await run(
    [
      join(root, "node_modules/vite/bin/vite.js"),
      "build",
      "--manifest",
      "--logLevel",
      "warn",
      "--outDir",
      dist,
      "--emptyOutDir",
    ],
    root,
  );
  const prerender = await run([join(here, "prerender.mjs"), dist], root);
  const compress = await run([join(here, "precompress.mjs"), dist], root);
  // Written last: only a build whose every step succeeded is ever taken as current.
  await mkdir(dirname(stamp), { recursive: true });
  await writeFile(stamp, JSON.stringify({ dist: resolve(dist), inputs: hash, files: await outputFiles(dist) }));
  return {
    built: true,
    seconds: (performance.now() - started) / 1000,
    steps: { vite: vite.seconds, prerender: prerender.seconds, precompress: compress.seconds },
    compressSummary: compress.output.trim().split("\n").at(-1) ?? "",
  };
}

/** One line for the console. */
export function describeBuild(result, dist, root = ROOT) {
  const where = relative(root, dist) || dist;
  if (!result.built) return `The app in ${where}/ is up to date (no build input changed); build skipped.`;
  const s = (n) => `${n.toFixed(1)} s`;
  const { vite, prerender, precompress } = result.steps;
  return `Built the app into ${where}/ in ${s(result.seconds)} (Vite ${s(vite)}, prerender ${s(prerender)}, Brotli ${s(precompress)}).`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const dist = resolve(ROOT, args.find((a) => !a.startsWith("--")) ?? "dist");
  try {
    const result = await buildApp({ dist, force: args.includes("--force") });
    console.log(describeBuild(result, dist));
  } catch (e) {
    if (e.output) process.stderr.write(e.output);
    console.error(`The build failed: ${e.message}`);
    process.exit(1);
  }
}
