// @vitest-environment node
// The app server answers every route of the build with its page (200) and any other path with the
// not-found shell and status 404, so crawlers and link checkers see the truth while the app still
// draws its not-found page.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAppServer } from "../../../scripts/serve-app.mjs";

const servers: Server[] = [];
const dirs: string[] = [];

async function serve(files: Record<string, string>): Promise<string> {
  const dist = mkdtempSync(join(tmpdir(), "serve-app-routes-"));
  dirs.push(dist);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dist, path, ".."), { recursive: true });
    writeFileSync(join(dist, path), text);
  }
  const server = createAppServer({ distDir: dist, appConfig: {} });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const BUILD = {
  "index.html": "<title>home</title>",
  "pricing/index.html": "<title>pricing</title>",
  "blog/complete-guide/index.html": "<title>guide</title>",
  "collections/index.html": "<title>Collections</title>",
  "404.html": "<title>Page Not Found</title>",
};

let base: string;
beforeAll(async () => {
  base = await serve(BUILD);
});
afterAll(() => {
  for (const s of servers) s.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const read = async (url: string, method = "GET") => {
  const res = await fetch(url, { method });
  return { status: res.status, body: await res.text(), type: res.headers.get("content-type") };
};

describe("the app server's answers for paths", () => {
  it("serves each route's page with 200, with or without a trailing slash and in any letter case", async () => {
    expect(await read(`${base}/`)).toMatchObject({ status: 200, body: "<title>home</title>" });
    expect(await read(`${base}/pricing`)).toMatchObject({ status: 200, body: "<title>pricing</title>" });
    expect(await read(`${base}/pricing/`)).toMatchObject({ status: 200, body: "<title>pricing</title>" });
    expect(await read(`${base}/Pricing?ref=x`)).toMatchObject({ status: 200, body: "<title>pricing</title>" });
    expect((await read(`${base}/blog/complete-guide`)).status).toBe(200);
  });

  it("answers one collection's address with the collections shell (the app draws it from the device)", async () => {
    for (const path of ["/collections/8d0f2c1e-5b7a-4c3d-9e2f-1a2b3c4d5e6f", "/collections/anything/"]) {
      expect(await read(`${base}${path}`)).toMatchObject({ status: 200, body: "<title>Collections</title>" });
    }
    expect((await read(`${base}/collections/a/b`)).status).toBe(404);
  });

  it("answers an unknown path with the not-found shell and status 404", async () => {
    for (const path of ["/this/does-not-exist", "/pricing/extra", "/blog/no-such-post", "/404"]) {
      const res = await read(`${base}${path}`);
      expect(res).toMatchObject({ status: 404, body: "<title>Page Not Found</title>" });
      expect(res.type).toContain("text/html");
    }
    expect((await read(`${base}/nope`, "HEAD")).status).toBe(404);
  });

  it("answers a missing file with a plain 404", async () => {
    expect(await read(`${base}/assets/missing.js`)).toMatchObject({ status: 404, body: "Not found" });
  });

  it("falls back to the app shell, still with 404, for a build without 404.html", async () => {
    const { "404.html": _, ...rest } = BUILD;
    const older = await serve(rest);
    expect(await read(`${older}/nowhere`)).toMatchObject({ status: 404, body: "<title>home</title>" });
  });
});
