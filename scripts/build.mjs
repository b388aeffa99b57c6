// The app's build, as `npm start` runs it: Vite, the prerendered public pages, then their Brotli
// copies (the same steps as `npm run build`), skipped when nothing the build reads has changed since
// the build in that folder was made. `npm start` asks for the Brotli copies later (`brotli: "later"`):
// Brotli's highest quality over the whole build is most of a first build's time on a busy machine, and
// pays only for what a browser downloads again and again, so the app answers first, compressed on the fly
// by the app server, and compressBuild writes the copies after, at a lower CPU priority
// (docs/decisions/138-npm-start-compresses-after-the-app-answers.md).
//
// "Nothing changed" is a content hash (SHA-256) over every input of the build: src/, sw/, public/, the
// shared vocabulary the app imports (supabase/functions/_shared/vocabulary/), index.html, the configs,
// package.json and package-lock.json (so an `npm install` that changes a dependency rebuilds), the build
// scripts themselves, and the environment variables the build reads. The hash is written to a stamp
// last, once every step succeeded; a failed or interrupted build leaves no stamp, so the next start
// builds again. The stamp also lists the build's files with their sizes, and a build folder missing one
// of them, or holding a different size, is built again; it says whether the Brotli copies are still to
// be written (`brotli: false`). Stamps live in node_modules/.cache/, one per build folder, not in the
// folder the app is served from.
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

/** The stamp of the build in `dist`, or null when there is none that can be read. */
async function readStamp(dist, root) {
  try {
    const stamp = JSON.parse(await readFile(stampPath(dist, root), "utf8"));
    return stamp && typeof stamp === "object" && stamp.files && typeof stamp.files === "object" ? stamp : null;
  } catch {
    return null;
  }
}

async function writeStamp(dist, root, { inputs, brotli }) {
  const path = stampPath(dist, root);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, JSON.stringify({ dist: resolve(dist), inputs, brotli, files: await outputFiles(dist) }));
}

/** Whether `dist` holds a complete build of exactly these inputs (its Brotli copies written or not). */
export async function isBuildCurrent(dist, hash, root = ROOT) {
  const stamp = await readStamp(dist, root);
  if (stamp?.inputs !== hash) return false;
  for (const [name, size] of Object.entries(stamp.files)) {
    const info = await stat(join(dist, name)).catch(() => null);
    if (!info || info.size !== size) return false;
  }
  return existsSync(join(dist, "index.html"));
}

/**
 * Runs a Node script, keeping its output to show only if it fails. `niceness` (nice's scale, 0 to 19)
 * starts it at a lower CPU priority where `nice` is a command, at the usual one elsewhere; `signal` stops it.
 */
function run(args, root, { niceness = 0, signal } = {}) {
  return new Promise((resolvePromise, reject) => {
    const started = performance.now();
    const [command, ...rest] = niceness > 0 ? ["nice", "-n", String(niceness), process.execPath] : [process.execPath];
    const child = spawn(command, [...rest, ...args], { cwd: root, stdio: ["ignore", "pipe", "pipe"], signal });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    let failed = false;
    child.on("error", (e) => {
      failed = true;
      if (e.code === "ENOENT" && command === "nice") resolvePromise(run(args, root, { signal }));
      else reject(e);
    });
    child.on("close", (code) => {
      if (failed) return;
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
 * Builds the app into `dist` unless it holds a build of the current inputs (or `force`). `brotli: "now"`
 * writes the Brotli copies as the last step, as the deploy build does; `"later"` leaves them to
 * compressBuild, and the answer's `brotliPending` says they are still to be written (for this build, or
 * for a current one made the same way whose copies were never finished). Resolves to what happened, for
 * a one-line summary; rejects with the failing step's output on `error.output`.
 */
export async function buildApp({
  root = ROOT,
  dist = join(root, "dist"),
  force = false,
  env = process.env,
  brotli = "now",
} = {}) {
  const started = performance.now();
  const hash = await inputsHash(root, env);
  if (!force && (await isBuildCurrent(dist, hash, root))) {
    const pending = (await readStamp(dist, root))?.brotli === false;
    if (pending && brotli === "now") {
      const compress = await compressStep(dist, root);
      await writeStamp(dist, root, { inputs: hash, brotli: true });
      return {
        built: false,
        seconds: (performance.now() - started) / 1000,
        brotliPending: false,
        compressed: compress,
      };
    }
    return { built: false, seconds: (performance.now() - started) / 1000, brotliPending: pending };
  }
  await rm(stampPath(dist, root), { force: true });
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
  const compress = brotli === "now" ? await compressStep(dist, root) : null;
  // Written last: only a build whose every step succeeded is ever taken as current.
  await writeStamp(dist, root, { inputs: hash, brotli: compress !== null });
  return {
    built: true,
    seconds: (performance.now() - started) / 1000,
    steps: { vite: vite.seconds, prerender: prerender.seconds, precompress: compress?.seconds ?? null },
    compressSummary: compress?.summary ?? "",
    brotliPending: compress === null,
  };
}

/** scripts/precompress.mjs over `dist`, with the project's cache of copies. */
async function compressStep(dist, root, options) {
  const cache = join(root, "node_modules/.cache/precompress");
  const { seconds, output } = await run([join(here, "precompress.mjs"), dist, `--cache=${cache}`], root, options);
  return { seconds, summary: output.trim().split("\n").at(-1) ?? "" };
}

/**
 * How much lower than `npm start`'s own the priority of its Brotli step is, on nice's scale: on Linux a
 * task at nice 0 gets about ten times the CPU of one at nice 10 when both want it, so the app server and
 * the backend answer first and the copies take what is left, finishing even on a busy machine.
 */
const BACKGROUND_NICENESS = 10;

/**
 * Writes the Brotli copies of a build made with `brotli: "later"`, at a lower CPU priority, and then
 * marks its stamp finished, unless the build changed meanwhile. `signal` stops it; the copies written so
 * far stay (each one whole) and the next start writes the rest, most of them from the cache.
 */
export async function compressBuild({ root = ROOT, dist, signal } = {}) {
  const before = await readStamp(dist, root);
  const compress = await compressStep(dist, root, { niceness: BACKGROUND_NICENESS, signal });
  const after = await readStamp(dist, root);
  if (before && after?.inputs === before.inputs && after.brotli === false) {
    await writeStamp(dist, root, { inputs: after.inputs, brotli: true });
  }
  return compress;
}

/** One line for the console. */
export function describeBuild(result, dist, root = ROOT) {
  const where = relative(root, dist) || dist;
  const s = (n) => `${n.toFixed(1)} s`;
  const later = result.brotliPending ? " Its Brotli copies are written in the background once the app answers." : "";
  if (!result.built) {
    const now = result.compressed ? ` Wrote its Brotli copies in ${s(result.compressed.seconds)}.` : "";
    return `The app in ${where}/ is up to date (no build input changed); build skipped.${now}${later}`;
  }
  const { vite, prerender, precompress } = result.steps;
  const brotli = precompress === null ? "" : `, Brotli ${s(precompress)}`;
  return `Built the app into ${where}/ in ${s(result.seconds)} (Vite ${s(vite)}, prerender ${s(prerender)}${brotli}).${later}`;
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
