// The last build step: writes a Brotli copy (`<file>.br`, at Brotli's highest quality) beside every text
// file in the build that is worth compressing, as a static host that serves precompressed files would
// have them. scripts/serve-app.mjs sends it to browsers that accept Brotli; compressing at quality 11
// takes about half a second for the app's entry, too slow to do per request, and saves 7% against the
// quality a server can afford on the fly (README decision 62).
//
//   node scripts/precompress.mjs [dist]
import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
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

/** Writes `<file>.br` for each file of `dist` worth compressing; resolves to the counts. */
export async function precompress(dist) {
  const jobs = [];
  for await (const file of files(dist)) {
    if (file.endsWith(".br")) continue;
    jobs.push(
      (async () => {
        // The files the app server sends compressed, by the same rule.
        if (!isCompressible(file, (await stat(file)).size)) return null;
        const body = await readFile(file);
        const br = await compress(body, {
          params: {
            [zc.BROTLI_PARAM_QUALITY]: zc.BROTLI_MAX_QUALITY,
            [zc.BROTLI_PARAM_SIZE_HINT]: body.length,
            [zc.BROTLI_PARAM_MODE]: zc.BROTLI_MODE_TEXT,
          },
        });
        await writeFile(`${file}.br`, br);
        return { raw: body.length, br: br.length };
      })(),
    );
  }
  const done = (await Promise.all(jobs)).filter((x) => x !== null);
  return {
    files: done.length,
    raw: done.reduce((sum, x) => sum + x.raw, 0),
    br: done.reduce((sum, x) => sum + x.br, 0),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = join(dirname(fileURLToPath(import.meta.url)), "..");
  const dist = resolve(root, process.argv[2] ?? "dist");
  const started = performance.now();
  const { files: count, raw, br } = await precompress(dist);
  const mb = (n) => (n / 1024 / 1024).toFixed(1);
  console.log(
    `precompress: ${count} files, ${mb(raw)} MB to ${mb(br)} MB of Brotli, in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}
