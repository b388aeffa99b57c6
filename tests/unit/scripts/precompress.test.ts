// @vitest-environment node
// The Brotli step keeps each copy under the SHA-256 of its content, so a rebuild compresses only what
// changed; a copy taken from the cache is the file's own. Each copy is written whole (under another name,
// then renamed), so a server reading the folder meanwhile never sends half of one.
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync } from "node:zlib";
import { afterEach, beforeEach, expect, it } from "vitest";
import { precompress } from "../../../scripts/precompress.mjs";

let dir: string;
let dist: string;
let cacheDir: string;
const text = (seed: string) => Array.from({ length: 400 }, (_, i) => `${seed}-${i % 37};`).join("\n");

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "precompress-"));
  dist = join(dir, "dist");
  cacheDir = join(dir, "cache");
  mkdirSync(join(dist, "assets"), { recursive: true });
  writeFileSync(join(dist, "assets/a.js"), text("a"));
  writeFileSync(join(dist, "assets/b.js"), text("b"));
  writeFileSync(join(dist, "index.html"), text("<p>page</p>"));
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

it("compresses each file once and takes unchanged ones from the cache", async () => {
  const first = await precompress(dist, { cacheDir });
  expect(first).toMatchObject({ files: 3, reused: 0 });
  expect(readdirSync(cacheDir)).toHaveLength(3);

  // A rebuild: one file changed, the others are the same bytes.
  rmSync(join(dist, "assets/a.js.br"));
  writeFileSync(join(dist, "index.html"), text("<p>new page</p>"));
  const second = await precompress(dist, { cacheDir });
  expect(second).toMatchObject({ files: 3, reused: 2 });
  for (const file of ["assets/a.js", "assets/b.js", "index.html"]) {
    expect(brotliDecompressSync(readFileSync(join(dist, `${file}.br`))).toString()).toBe(
      readFileSync(join(dist, file), "utf8"),
    );
  }
});

it("without a cache compresses everything", async () => {
  await precompress(dist, { cacheDir });
  expect(await precompress(dist)).toMatchObject({ files: 3, reused: 0 });
});

it("writes each copy whole and leaves no partial file behind", async () => {
  writeFileSync(join(dist, "assets/a.js.br"), "an old copy");
  await precompress(dist, { cacheDir });
  expect(readdirSync(join(dist, "assets")).sort()).toEqual(["a.js", "a.js.br", "b.js", "b.js.br"]);
  expect(readdirSync(dist).filter((name) => name.startsWith("."))).toEqual([]);
  expect(brotliDecompressSync(readFileSync(join(dist, "assets/a.js.br"))).toString()).toBe(text("a"));
});
