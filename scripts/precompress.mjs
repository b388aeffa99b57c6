// The last build step: writes a Brotli copy (`<file>.br`, at Brotli's highest quality) beside every text
// file in the build that is worth compressing, as a static host that serves precompressed files would
// have them. scripts/serve-app.mjs sends it to browsers that accept Brotli; compressing at quality 11
// takes about half a second for the app's entry, too slow to do per request, and saves 7% against the
// quality a server can afford on the fly (docs/decisions/062-build-leaves-brotli-copies.md).
//
// Each copy is also kept in a cache keyed by the SHA-256 of the file's content
// (node_modules/.cache/precompress/), so a rebuild compresses only the files whose content changed: Vite's
// chunks are named by their content, and most of them are the same after a small change. Entries not
// used for a week are removed.
//
// `npm run build` (the deploy build) runs this as its last step. `npm start` runs it after the app answers,
// at a lower CPU priority (scripts/build.mjs, compressBuild), while the app server compresses on the fly;
// so each copy is written under a temporary name and renamed, and the server never reads half of one.
//
//   node scripts/precompress.mjs [dist] [--cache=DIR]   (DIR: node_modules/.cache/precompress)
import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { brotliCompress, constants as zc } from "node:zlib";
import { isCompressible } from "./serve-app.mjs";

const compress = promisify(brotliCompress);

async function* files(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (entry.isFile()) yield path;
  }
}

const CACHE_MAX_AGE_MS = 7 * 24 * 3600 * 1000;
/** A copy being written; never taken for a file of the build. */
const PARTIAL = ".partial";

/** Writes `body` to `path` whole: under a temporary name in the same folder, then renamed. */
async function writeWhole(path, body) {
  const partial = join(dirname(path), `.${basename(path)}.${process.pid}${PARTIAL}`);
  await writeFile(partial, body);
  await rename(partial, path);
}

/**
 * Writes `<file>.br` for each file of `dist` worth compressing; resolves to the counts (`reused`: copies
 * taken from `cacheDir` instead of compressed again).
 */
export async function precompress(dist, { cacheDir } = {}) {
  if (cacheDir) await mkdir(cacheDir, { recursive: true });
  const jobs = [];
  for await (const file of files(dist)) {
    if (file.endsWith(".br") || file.endsWith(PARTIAL)) continue;
    jobs.push(
      (async () => {
        // The files the app server sends compressed, by the same rule.
        if (!isCompressible(file, (await stat(file)).size)) return null;
        const body = await readFile(file);
        const cached = cacheDir ? join(cacheDir, `${createHash("sha256").update(body).digest("hex")}.br`) : null;
        let br = cached ? await readFile(cached).catch(() => null) : null;
        const reused = br !== null;
        if (br) {
          const now = new Date();
          await utimes(cached, now, now).catch(() => undefined);
        } else {
          br = await compress(body, {
            params: {
              [zc.BROTLI_PARAM_QUALITY]: zc.BROTLI_MAX_QUALITY,
              [zc.BROTLI_PARAM_SIZE_HINT]: body.length,
              [zc.BROTLI_PARAM_MODE]: zc.BROTLI_MODE_TEXT,
            },
          });
          // Whole or not at all, so a parallel build never reads half a copy.
          if (cached) await writeWhole(cached, br);
        }
        await writeWhole(`${file}.br`, br);
        return { raw: body.length, br: br.length, reused };
      })(),
    );
  }
  const done = (await Promise.all(jobs)).filter((x) => x !== null);
  if (cacheDir) await pruneCache(cacheDir);
  return {
    files: done.length,
    reused: done.filter((x) => x.reused).length,
    raw: done.reduce((sum, x) => sum + x.raw, 0),
    br: done.reduce((sum, x) => sum + x.br, 0),
  };
}

async function pruneCache(cacheDir) {
  const now = Date.now();
  for (const name of await readdir(cacheDir)) {
    const path = join(cacheDir, name);
    const info = await stat(path).catch(() => null);
    if (info && now - info.mtimeMs > CACHE_MAX_AGE_MS) await rm(path, { force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = join(dirname(fileURLToPath(import.meta.url)), "..");
  const args = process.argv.slice(2);
  const dist = resolve(root, args.find((a) => !a.startsWith("--")) ?? "dist");
  const cacheArg = args.find((a) => a.startsWith("--cache="))?.slice("--cache=".length);
  const started = performance.now();
  const {
    files: count,
    reused,
    raw,
    br,
  } = await precompress(dist, {
    cacheDir: cacheArg ? resolve(cacheArg) : join(root, "node_modules/.cache/precompress"),
  });
  const mb = (n) => (n / 1024 / 1024).toFixed(1);
  console.log(
    `precompress: ${count} files (${count - reused} compressed, ${reused} from the cache), ${mb(raw)} MB to ${mb(br)} MB of Brotli, in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}
