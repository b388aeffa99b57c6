// @vitest-environment node
// The app server sends the build's Brotli copies (written at Brotli's highest quality by the last build
// step) to browsers that accept Brotli, compresses anything without a current copy itself, and falls
// back to gzip: whichever it sends decodes to the file. Told to forget what it read (once `npm start` has
// written the copies after answering), it sends the copies written since.
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, constants as zc } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { precompress } from "../../../scripts/precompress.mjs";
import { createAppServer } from "../../../scripts/serve-app.mjs";

let dist: string;
let server: Server & { forgetFiles(): void };
let base: string;
const script = `export const words = ${JSON.stringify(Array.from({ length: 2000 }, (_, i) => `word${i % 97}`))};\n`;

/** GET with an Accept-Encoding (fetch would decode the body itself). */
function get(path: string, acceptEncoding: string) {
  return new Promise<{ status: number; encoding?: string; vary?: string; body: Buffer }>((resolve, reject) => {
    const req = request(`${base}${path}`, { headers: { "Accept-Encoding": acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          encoding: res.headers["content-encoding"],
          vary: res.headers.vary as string | undefined,
          body: Buffer.concat(chunks),
        }),
      );
    });
    req.on("error", reject);
    req.end();
  });
}

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), "serve-app-"));
  writeFileSync(join(dist, "index.html"), `<!doctype html><title>app</title>${"<p>shell</p>".repeat(200)}`);
  writeFileSync(join(dist, "app.js"), script);
  writeFileSync(join(dist, "tiny.js"), "export {};\n");
  writeFileSync(join(dist, "stale.js"), script);
  writeFileSync(join(dist, "late.js"), script);
  const counts = await precompress(dist);
  expect(counts.files).toBe(4); // index.html, app.js, stale.js, late.js; tiny.js is too small to bother
  rmSync(join(dist, "late.js.br")); // written later, as `npm start` does
  // stale.js changes after the build wrote its copy: the copy no longer describes it.
  writeFileSync(join(dist, "stale.js"), `${script}// changed\n`);
  utimesSync(join(dist, "stale.js.br"), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
  server = createAppServer({ distDir: dist, appConfig: {} });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server?.close();
  rmSync(dist, { recursive: true, force: true });
});

describe("the app server's compression", () => {
  it("sends the build's Brotli copy to a browser that accepts Brotli", async () => {
    const res = await get("/app.js", "gzip, deflate, br");
    expect(res.status).toBe(200);
    expect(res.encoding).toBe("br");
    expect(res.vary).toBe("Accept-Encoding");
    expect(res.body.equals(readFileSync(join(dist, "app.js.br")))).toBe(true);
    expect(brotliDecompressSync(res.body).toString()).toBe(script);
  });

  it("compresses a file whose copy is older than the file itself, and never sends the stale copy", async () => {
    const res = await get("/stale.js", "br");
    expect(res.encoding).toBe("br");
    expect(res.body.equals(readFileSync(join(dist, "stale.js.br")))).toBe(false);
    expect(brotliDecompressSync(res.body).toString()).toBe(`${script}// changed\n`);
  });

  it("sends a copy written after it started once told to forget what it read", async () => {
    const onTheFly = await get("/late.js", "br");
    expect(brotliDecompressSync(onTheFly.body).toString()).toBe(script);
    const copy = brotliCompressSync(script, { params: { [zc.BROTLI_PARAM_QUALITY]: 0 } });
    expect(copy.equals(onTheFly.body)).toBe(false);
    writeFileSync(join(dist, "late.js.br"), copy);
    expect((await get("/late.js", "br")).body.equals(onTheFly.body)).toBe(true);
    server.forgetFiles();
    expect((await get("/late.js", "br")).body.equals(copy)).toBe(true);
  });

  it("falls back to gzip, and to the file itself, as the browser accepts", async () => {
    const gz = await get("/", "gzip");
    expect(gz.encoding).toBe("gzip");
    expect(gunzipSync(gz.body).toString()).toContain("<title>app</title>");
    const plain = await get("/app.js", "identity");
    expect(plain.encoding).toBeUndefined();
    expect(plain.body.toString()).toBe(script);
    const tiny = await get("/tiny.js", "br");
    expect(tiny.encoding).toBeUndefined();
  });
});
