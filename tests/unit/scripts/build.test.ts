// @vitest-environment node
// `npm start` builds only when a build input changed: the inputs' hash moves with any change to a file
// the build reads (and to the environment it reads), never with a file it does not, and a build folder
// is taken as current only with a matching stamp and every file the stamp lists, at its size. A build made
// for `npm start` leaves its Brotli copies for later, and the stamp says so until they are written.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { brotliDecompressSync } from "node:zlib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  BUILD_INPUTS,
  buildApp,
  compressBuild,
  describeBuild,
  inputsHash,
  isBuildCurrent,
  stampPath,
} from "../../../scripts/build.mjs";

let root: string;

function write(path: string, body: string) {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), body);
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "build-inputs-"));
  write("src/main.tsx", "export const a = 1;\n");
  write("src/features/page.tsx", "export const b = 2;\n");
  write("sw/sw.ts", "self;\n");
  write("public/previews/styles/anime.webp", "RIFF....WEBP");
  write("supabase/functions/_shared/vocabulary/styles.ts", "export const STYLES = [];\n");
  write("supabase/local/main.ts", "// the backend, not a build input\n");
  write("tests/unit/x.test.ts", "// a test, not a build input\n");
  for (const file of ["index.html", "vite.config.ts", "tsconfig.json", "package.json", "package-lock.json"]) {
    write(file, `${file}\n`);
  }
  write("scripts/prerender.mjs", "// prerender\n");
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("inputsHash", () => {
  it("is stable while nothing changes", async () => {
    expect(await inputsHash(root, {})).toBe(await inputsHash(root, {}));
  });

  it.each([
    "src/features/page.tsx",
    "sw/sw.ts",
    "public/previews/styles/anime.webp",
    "supabase/functions/_shared/vocabulary/styles.ts",
    "index.html",
    "vite.config.ts",
    "tsconfig.json",
    "package.json",
    "package-lock.json",
    "scripts/prerender.mjs",
  ])("changes when %s changes", async (file) => {
    const before = await inputsHash(root, {});
    write(file, "changed\n");
    expect(await inputsHash(root, {})).not.toBe(before);
  });

  it("changes when an input file is added, removed or renamed", async () => {
    const before = await inputsHash(root, {});
    write("src/new-module.ts", "export {};\n");
    const added = await inputsHash(root, {});
    expect(added).not.toBe(before);
    unlinkSync(join(root, "src/new-module.ts"));
    expect(await inputsHash(root, {})).toBe(before);
    unlinkSync(join(root, "src/main.tsx"));
    write("src/renamed.tsx", "export const a = 1;\n");
    expect(await inputsHash(root, {})).not.toBe(before);
  });

  it("changes with a .env file and with the environment the build reads, not with others", async () => {
    const before = await inputsHash(root, {});
    expect(await inputsHash(root, { SITE_ORIGIN: "https://example.com" })).not.toBe(before);
    expect(await inputsHash(root, { VITE_FLAG: "1" })).not.toBe(before);
    expect(await inputsHash(root, { PORT: "9000", DATA_DIR: "/tmp/x" })).toBe(before);
    write(".env.production", "VITE_FLAG=1\n");
    expect(await inputsHash(root, {})).not.toBe(before);
  });

  it("does not change with files the build does not read", async () => {
    const before = await inputsHash(root, {});
    write("supabase/local/main.ts", "// edited\n");
    write("tests/unit/x.test.ts", "// edited\n");
    write("README.md", "# edited\n");
    expect(await inputsHash(root, {})).toBe(before);
  });

  it("covers the app's real inputs", () => {
    for (const input of [
      "src",
      "sw",
      "public",
      "supabase/functions/_shared/vocabulary",
      "index.html",
      "package-lock.json",
    ])
      expect(BUILD_INPUTS).toContain(input);
  });
});

describe("isBuildCurrent", () => {
  let dist: string;
  beforeEach(() => {
    dist = join(root, "dist");
    mkdirSync(join(dist, "assets"), { recursive: true });
    writeFileSync(join(dist, "index.html"), "<!doctype html>");
    writeFileSync(join(dist, "assets/app.js"), "console.log(1)");
  });
  const stamp = (inputs: string, files: Record<string, number>) => {
    mkdirSync(dirname(stampPath(dist, root)), { recursive: true });
    writeFileSync(stampPath(dist, root), JSON.stringify({ inputs, files }));
  };

  it("is true for a stamp of the same inputs whose files are all there", async () => {
    stamp("abc", { "index.html": 15, "assets/app.js": 14 });
    expect(await isBuildCurrent(dist, "abc", root)).toBe(true);
  });

  it("is false without a stamp (a build that failed or never finished)", async () => {
    expect(await isBuildCurrent(dist, "abc", root)).toBe(false);
  });

  it("keeps the stamp out of the served folder, one per folder", () => {
    expect(stampPath(dist, root).startsWith(dist)).toBe(false);
    expect(stampPath(join(root, "dist-other"), root)).not.toBe(stampPath(dist, root));
  });

  it("is false for other inputs", async () => {
    stamp("abc", { "index.html": 15, "assets/app.js": 14 });
    expect(await isBuildCurrent(dist, "abd", root)).toBe(false);
  });

  it("is false when a built file is missing or has another size", async () => {
    stamp("abc", { "index.html": 15, "assets/app.js": 14 });
    writeFileSync(join(dist, "assets/app.js"), "console.log(12)");
    expect(await isBuildCurrent(dist, "abc", root)).toBe(false);
    unlinkSync(join(dist, "assets/app.js"));
    expect(await isBuildCurrent(dist, "abc", root)).toBe(false);
  });
});

describe("the Brotli copies of a build made for npm start", () => {
  let dist: string;
  const script = `export const words = ${JSON.stringify(Array.from({ length: 800 }, (_, i) => `w${i % 31}`))};\n`;
  const readStamp = () => JSON.parse(readFileSync(stampPath(dist, root), "utf8")) as Record<string, unknown>;

  /** A finished build of the current inputs whose Brotli copies were left for later, as `npm start` makes it. */
  beforeEach(async () => {
    dist = join(root, "dist");
    mkdirSync(join(dist, "assets"), { recursive: true });
    writeFileSync(join(dist, "index.html"), `<!doctype html>${"<p>page</p>".repeat(100)}`);
    writeFileSync(join(dist, "assets/app.js"), script);
    mkdirSync(dirname(stampPath(dist, root)), { recursive: true });
    const files = { "index.html": 1115, "assets/app.js": script.length };
    const inputs = await inputsHash(root, {});
    writeFileSync(stampPath(dist, root), JSON.stringify({ inputs, brotli: false, files }));
  });

  it("are pending on a start that finds the build current, which is not built again", async () => {
    const result = await buildApp({ root, dist, env: {}, brotli: "later" });
    expect(result).toMatchObject({ built: false, brotliPending: true });
    expect(existsSync(join(dist, "assets/app.js.br"))).toBe(false);
    expect(describeBuild(result, dist, root)).toBe(
      "The app in dist/ is up to date (no build input changed); build skipped. " +
        "Its Brotli copies are written in the background once the app answers.",
    );
  });

  it("are written in the background, whole, and the stamp then lists them", async () => {
    const { summary } = await compressBuild({ root, dist });
    expect(summary).toMatch(/^precompress: 2 files \(2 compressed, 0 from the cache\)/);
    expect(brotliDecompressSync(readFileSync(join(dist, "assets/app.js.br"))).toString()).toBe(script);
    expect(readStamp()).toMatchObject({ brotli: true, files: { "assets/app.js.br": expect.any(Number) } });
    expect(await isBuildCurrent(dist, await inputsHash(root, {}), root)).toBe(true);
    expect(await buildApp({ root, dist, env: {}, brotli: "later" })).toMatchObject({ brotliPending: false });
  });

  it("leave the stamp pending when stopped, so the next start writes them", async () => {
    const stopped = new AbortController();
    stopped.abort();
    await expect(compressBuild({ root, dist, signal: stopped.signal })).rejects.toThrow();
    expect(readStamp()).toMatchObject({ brotli: false });
  });

  it("are written before the answer when a build asks for them now, as the deploy build does", async () => {
    const result = await buildApp({ root, dist, env: {}, brotli: "now" });
    expect(result).toMatchObject({ built: false, brotliPending: false });
    expect(existsSync(join(dist, "index.html.br"))).toBe(true);
    expect(readStamp()).toMatchObject({ brotli: true });
    expect(describeBuild(result, dist, root)).toMatch(/build skipped\. Wrote its Brotli copies in \d+\.\d s\.$/);
  });
});

describe("describeBuild", () => {
  it("names the Brotli step when the build ran it, and says when the copies come later", () => {
    const steps = { vite: 4, prerender: 1 };
    const now = { built: true as const, seconds: 6, compressSummary: "", brotliPending: false };
    expect(describeBuild({ ...now, steps: { ...steps, precompress: 1 } }, join(root, "dist"), root)).toBe(
      "Built the app into dist/ in 6.0 s (Vite 4.0 s, prerender 1.0 s, Brotli 1.0 s).",
    );
    const later = { ...now, seconds: 5, brotliPending: true, steps: { ...steps, precompress: null } };
    expect(describeBuild(later, join(root, "dist"), root)).toBe(
      "Built the app into dist/ in 5.0 s (Vite 4.0 s, prerender 1.0 s). " +
        "Its Brotli copies are written in the background once the app answers.",
    );
  });
});
