// @vitest-environment node
// /gallery/<id> from the app server (issue 42, decision 142): an image in the gallery is answered 200 with
// its Open Graph and Twitter card tags in the HTML (what a chat app's crawler reads), its picture is served
// at /gallery/<id>/image, and an image the backend does not show a visitor (unpublished, deleted, held or
// removed: the REST answer is empty) is the not-found shell with 404, its picture 404 too. The backend is
// read as a visitor, with the anon key; its failure is a 503, never taken for "not there".
import { request } from "node:http";
import { brotliDecompressSync } from "node:zlib";
import { beforeEach, describe, expect, it } from "vitest";
import { routeHead } from "#src/app/route-meta.ts";
import { renderHeadTags } from "#src/features/site/head-tags.ts";
import { galleryHead, galleryRoute, withGalleryHead } from "../../../scripts/gallery-page.mjs";
import { inlineScriptHashes } from "../../../scripts/security-headers.mjs";
import { servedApp } from "../../support/app-server.ts";

const ORIGIN = "https://pictures.example";
const API = "http://backend.test";
const ANON = "anon-key";
const ID = "0b7c2a4e-1f7e-4c1b-9d5e-5a2b8f0c6d11";
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

/** The not-found shell as the build writes it: the real head tags, an inline script, an empty root. */
const SHELL = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    ${renderHeadTags(routeHead("/404", undefined, ORIGIN))}
    <script>(function(){document.documentElement.dataset.theme="light"})();</script>
    <script defer src="/app-config.js"></script>
  </head>
  <body><div id="root"></div>${"<!-- padding -->".repeat(60)}</body>
</html>
`;

type Row = { id: string; prompt: string; style: string; width: number; height: number; image_path: string };
let rows: Row[];
let storage: { status: number; type: string; body: Buffer };
let backendDown: boolean;
const asked: { url: string; headers: Record<string, string> }[] = [];

const fakeBackend = (async (input: string | URL | Request, init?: RequestInit) => {
  const url = String(input);
  asked.push({ url, headers: { ...(init?.headers as Record<string, string>) } });
  if (backendDown) throw new TypeError("fetch failed");
  if (url.startsWith(`${API}/rest/v1/generations?`)) {
    const id = new URL(url).searchParams.get("id")?.replace(/^eq\./, "");
    return Response.json(rows.filter((r) => r.id === id));
  }
  if (url.startsWith(`${API}/storage/v1/object/authenticated/generations/`)) {
    return new Response(new Uint8Array(storage.body), {
      status: storage.status,
      headers: { "Content-Type": storage.type },
    });
  }
  return new Response("no such route", { status: 404 });
}) as typeof fetch;

const app = servedApp(
  { "404.html": SHELL, "gallery/index.html": "<title>Gallery</title>" },
  { appConfig: { supabaseUrl: API, supabaseAnonKey: ANON }, fetcher: fakeBackend },
);

beforeEach(() => {
  rows = [
    {
      id: ID,
      prompt: 'A fox & a "lantern" <at> dusk',
      style: "digital-art",
      width: 1536,
      height: 1024,
      image_path: `u1/${ID}.png`,
    },
  ];
  storage = { status: 200, type: "image/png", body: PNG };
  backendDown = false;
  asked.length = 0;
});

/** The content of the meta tag `key` in `html` (entities decoded as a browser would). */
function meta(html: string, key: string): string | undefined {
  const found = new RegExp(`<meta (?:name|property)="${key}" content="([^"]*)"`).exec(html)?.[1];
  return found
    ?.replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

function get(path: string, method = "GET", acceptEncoding = "") {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>(
    (resolve, reject) => {
      const req = request(`${app.base}${path}`, { method, headers: { "Accept-Encoding": acceptEncoding } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      });
      req.on("error", reject);
      req.end();
    },
  );
}

describe("the page of one published image", () => {
  it("answers an image in the gallery with 200 and its link-preview tags in the HTML", async () => {
    const res = await get(`/gallery/${ID}`);
    expect(res.status).toBe(200);
    const html = res.body.toString("utf8");
    expect(meta(html, "og:image")).toBe(`${ORIGIN}/gallery/${ID}/image`);
    expect(meta(html, "twitter:image")).toBe(`${ORIGIN}/gallery/${ID}/image`);
    expect(meta(html, "twitter:card")).toBe("summary_large_image");
    expect(meta(html, "og:title")).toBe('A fox & a "lantern" <at> dusk · PromptCanvas');
    expect(meta(html, "og:description")).toContain("A digital art image published in the PromptCanvas gallery");
    expect(meta(html, "og:url")).toBe(`${ORIGIN}/gallery/${ID}`);
    expect(meta(html, "og:image:width")).toBe("1536");
    expect(meta(html, "robots")).toBe("noindex, nofollow");
    expect(html).toContain(`<link rel="canonical" href="${ORIGIN}/gallery/${ID}" />`);
    expect(html).toContain("<title>A fox &amp; a &quot;lantern&quot; &lt;at&gt; dusk · PromptCanvas</title>");
    // Each tag once: the shell's not-found tags were replaced, not doubled.
    expect(html.match(/property="og:image"/g)).toHaveLength(1);
    expect(html).not.toContain("Page Not Found");
  });

  it("keeps the page's scripts and their Content-Security-Policy hashes as the shell had them", async () => {
    const res = await get(`/gallery/${ID}`);
    const html = res.body.toString("utf8");
    expect(inlineScriptHashes(html)).toEqual(inlineScriptHashes(SHELL));
    const policy = String(res.headers["content-security-policy"]);
    for (const hash of inlineScriptHashes(SHELL)) expect(policy).toContain(hash);
    expect(policy).toContain(API);
    expect(res.headers["x-frame-options"]).toBe("DENY");
  });

  it("reads the row as a visitor: the anon key, this id, published rows only", async () => {
    await get(`/gallery/${ID.toUpperCase()}`);
    const rest = asked.find((a) => a.url.includes("/rest/v1/generations"))!;
    expect(rest.headers).toMatchObject({ apikey: ANON, Authorization: `Bearer ${ANON}` });
    const query = new URL(rest.url).searchParams;
    expect(query.get("id")).toBe(`eq.${ID}`);
    expect(query.get("is_public")).toBe("eq.true");
  });

  it("answers an image not in the gallery with the not-found shell as it is and 404", async () => {
    rows = [];
    const res = await get(`/gallery/${ID}`);
    expect(res.status).toBe(404);
    expect(res.body.toString("utf8")).toBe(SHELL);
  });

  it("says the backend is unavailable (503) rather than that the image is gone", async () => {
    backendDown = true;
    const res = await get(`/gallery/${ID}`);
    expect(res.status).toBe(503);
    expect(res.headers["retry-after"]).toBe("30");
    expect(res.body.toString("utf8")).toBe(SHELL);
  });

  it("never asks the backend about an address that is no image id, and answers it 404", async () => {
    for (const path of ["/gallery/not-an-id", `/gallery/${ID}/extra`, `/gallery/${ID}x`]) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
    }
    expect(asked).toEqual([]);
    expect((await get("/gallery")).status).toBe(200);
  });

  it("compresses the page for a browser that accepts it, and a HEAD gets the headers alone", async () => {
    const br = await get(`/gallery/${ID}`, "GET", "br");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(br.body).toString("utf8")).toContain(`/gallery/${ID}/image`);
    const head = await get(`/gallery/${ID}`, "HEAD");
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
  });
});

describe("the picture the tags name", () => {
  it("is the stored image, read as a visitor through the Storage API", async () => {
    const res = await get(`/gallery/${ID}/image`);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("image/png");
    expect(res.body.equals(PNG)).toBe(true);
    const read = asked.find((a) => a.url.includes("/storage/v1/"))!;
    expect(read.url).toBe(`${API}/storage/v1/object/authenticated/generations/u1/${ID}.png`);
    expect(read.headers).toMatchObject({ apikey: ANON, Authorization: `Bearer ${ANON}` });
  });

  it("is 404 once the image is out of the gallery, or when Storage refuses it", async () => {
    storage = { status: 400, type: "application/json", body: Buffer.from('{"statusCode":"404"}') };
    expect((await get(`/gallery/${ID}/image`)).status).toBe(404);
    rows = [];
    expect((await get(`/gallery/${ID}/image`)).status).toBe(404);
  });

  it("passes on only pictures: anything else the backend answers is not served", async () => {
    storage = { status: 200, type: "text/html", body: Buffer.from("<script>alert(1)</script>") };
    expect((await get(`/gallery/${ID}/image`)).status).toBe(404);
  });
});

describe("the head written into the shell", () => {
  it("matches only image ids, in any letter case", () => {
    expect(galleryRoute(`/gallery/${ID}`)).toEqual({ id: ID, kind: "page" });
    expect(galleryRoute(`/gallery/${ID.toUpperCase()}/`)).toEqual({ id: ID, kind: "page" });
    expect(galleryRoute(`/gallery/${ID}/image`)).toEqual({ id: ID, kind: "image" });
    expect(galleryRoute("/gallery")).toBeNull();
    expect(galleryRoute(`/gallery/${ID}/image/x`)).toBeNull();
  });

  it("cannot be broken out of by a prompt", () => {
    const row = { ...rows[0], prompt: '"/><script>alert(1)</script><meta x="' };
    const html = withGalleryHead(SHELL, galleryHead(row, ORIGIN));
    expect(html).not.toContain("<script>alert(1)");
    expect(inlineScriptHashes(html)).toEqual(inlineScriptHashes(SHELL));
  });

  it("adds the tags a shell lacks, before the end of its head", () => {
    const html = withGalleryHead(
      "<html><head><title>x</title></head><body></body></html>",
      galleryHead(rows[0], ORIGIN),
    );
    expect(html).toMatch(/<meta property="og:image" content="[^"]+\/image" \/>[\s\S]*<\/head>/);
    expect(html).toContain(`<link rel="canonical" href="${ORIGIN}/gallery/${ID}" />`);
  });
});
