// Serves the built app (dist/) the way a static host would: prerendered pages when present (every
// route of the route table has its own <path>/index.html), the not-found shell with status 404 for
// any other path (dist/404.html, which the app draws as its not-found page), long-lived caching for
// hashed assets, compression for text, and /app-config.js telling the app where its backend is (so
// one build runs against any backend). Every response carries the hardening headers and the
// Content-Security-Policy of scripts/security-headers.mjs; a page's policy allows exactly its own
// inline scripts, by hash, and the backend of /app-config.js. The page of one published image,
// /gallery/<id>, is answered with its link-preview tags in the HTML, or 404 when the image is not in the
// gallery, and its picture at /gallery/<id>/image (scripts/gallery-page.mjs). One collection's address,
// /collections/<id>, gets the /collections shell with 200.
import { createServer } from "node:http";
import { readFile, stat } from "node:fs/promises";
import { extname, join, normalize, resolve } from "node:path";
import { brotliCompressSync, gzipSync, constants as zc } from "node:zlib";
import {
  BackendUnavailable,
  galleryHead,
  galleryRoute,
  readGalleryImage,
  readGalleryRow,
  siteOrigin,
  withGalleryHead,
} from "./gallery-page.mjs";
import { backendSources, contentSecurityPolicy, HARDENING_HEADERS, inlineScriptHashes } from "./security-headers.mjs";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".webmanifest": "application/manifest+json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".webp": "image/webp",
  ".jpg": "image/jpeg",
  ".ico": "image/x-icon",
  ".txt": "text/plain; charset=utf-8",
  ".xml": "application/xml; charset=utf-8",
  ".woff2": "font/woff2",
  ".wasm": "application/wasm",
  ".bin": "application/octet-stream",
};
const COMPRESSIBLE = /^(text\/|application\/(json|javascript|manifest\+json|xml)|image\/svg)/;
/** Smaller files are sent as they are. */
const MIN_COMPRESSED_BYTES = 512;
/** One collection's address: /collections/<id>. */
const COLLECTION_PAGE = /^\/collections\/[^/]+\/?$/i;

/** Whether a file of `bytes` at `file` is sent compressed (scripts/precompress.mjs writes copies of these). */
export function isCompressible(file, bytes) {
  return COMPRESSIBLE.test(TYPES[extname(file)] ?? "") && bytes > MIN_COMPRESSED_BYTES;
}

/** A text body as the request accepts it: Brotli (fast settings: it is made per request), gzip, or as it is. */
function encodeFor(req, text) {
  const body = Buffer.from(text, "utf8");
  const accept = String(req.headers["accept-encoding"] ?? "");
  if (body.length <= MIN_COMPRESSED_BYTES) return { body, encoding: null };
  if (/\bbr\b/.test(accept)) {
    return { body: brotliCompressSync(body, { params: { [zc.BROTLI_PARAM_QUALITY]: 5 } }), encoding: "br" };
  }
  if (/\bgzip\b/.test(accept)) return { body: gzipSync(body, { level: 6 }), encoding: "gzip" };
  return { body, encoding: null };
}

/**
 * /gallery/<id> and its picture. `notFoundShell` gives the not-found page's HTML; `hardened` the headers
 * of an answer with a given policy. `fetcher` reads the backend (tests hand in their own).
 */
function createGalleryAnswers({ appConfig, backend, notFoundShell, hardened, fetcher = fetch }) {
  /** The page: the shell with the image's head (200), or as it is (404 not in the gallery, 503 no backend). */
  async function page(req, res, id) {
    const shell = await notFoundShell();
    let status = 404;
    let html = shell;
    try {
      const row = await readGalleryRow(appConfig, id, fetcher);
      const origin = siteOrigin(shell) ?? `http://${req.headers.host ?? "localhost"}`;
      if (row) [status, html] = [200, withGalleryHead(shell, galleryHead(row, origin))];
    } catch (e) {
      if (!(e instanceof BackendUnavailable)) throw e;
      status = 503;
    }
    const policy = contentSecurityPolicy({ scriptHashes: inlineScriptHashes(html), backend });
    const { body, encoding } = encodeFor(req, html);
    const headers = {
      ...hardened(policy),
      "Content-Type": TYPES[".html"],
      "Cache-Control": "no-cache",
      Vary: "Accept-Encoding",
    };
    if (encoding) headers["Content-Encoding"] = encoding;
    if (status === 503) headers["Retry-After"] = "30";
    headers["Content-Length"] = String(body.length);
    res.writeHead(status, headers).end(req.method === "HEAD" ? undefined : body);
  }

  /** The picture the page's tags name, read as a visitor on every request (so never after an unpublish). */
  async function image(req, res, id) {
    let found;
    try {
      const row = await readGalleryRow(appConfig, id, fetcher);
      found = row ? await readGalleryImage(appConfig, row.image_path, fetcher) : null;
    } catch (e) {
      if (!(e instanceof BackendUnavailable)) throw e;
      res.writeHead(503, { ...hardened(), "Content-Type": TYPES[".txt"], "Retry-After": "30" }).end("Unavailable");
      return;
    }
    if (!found) {
      res
        .writeHead(404, { ...hardened(), "Content-Type": TYPES[".txt"], "Cache-Control": "no-cache" })
        .end("Not found");
      return;
    }
    res.writeHead(200, {
      ...hardened(),
      "Content-Type": found.type,
      "Content-Length": String(found.body.length),
      "Cache-Control": "no-cache",
    });
    res.end(req.method === "HEAD" ? undefined : found.body);
  }

  return { page, image };
}

export function createAppServer({ distDir, appConfig, fetcher }) {
  const root = resolve(distDir);
  const cache = new Map(); // path -> { body, type, br, gz, policy }
  const headersFile = join(root, "_headers");
  const backend = backendSources(appConfig?.supabaseUrl);
  const basePolicy = contentSecurityPolicy({ backend });
  /** The headers of every answer, with the policy of what it carries. */
  const hardened = (policy = basePolicy) => ({ ...HARDENING_HEADERS, "Content-Security-Policy": policy });

  async function load(file) {
    let entry = cache.get(file);
    if (entry) return entry;
    const body = await readFile(file);
    const type = TYPES[extname(file)] ?? "application/octet-stream";
    entry = { body, type, policy: basePolicy };
    if (extname(file) === ".html") {
      entry.policy = contentSecurityPolicy({ scriptHashes: inlineScriptHashes(body.toString("utf8")), backend });
    }
    if (isCompressible(file, body.length)) {
      // The build's Brotli copy (scripts/precompress.mjs, quality 11) when it is as new as the file;
      // otherwise compressed here, once, at a quality fast enough for a request (`npm start` answers
      // before its copies are written, and calls forgetFiles once they are).
      entry.br = (await precompressed(file)) ?? brotliCompressSync(body, { params: { [zc.BROTLI_PARAM_QUALITY]: 9 } });
      entry.gz = gzipSync(body, { level: 9 });
    }
    cache.set(file, entry);
    return entry;
  }

  async function precompressed(file) {
    try {
      const [own, br] = await Promise.all([stat(file), stat(`${file}.br`)]);
      return br.mtimeMs >= own.mtimeMs ? await readFile(`${file}.br`) : null;
    } catch {
      return null;
    }
  }

  async function isFile(p) {
    try {
      return (await stat(p)).isFile();
    } catch {
      return false;
    }
  }

  /** Maps a URL path to a file in dist/, or null. Never escapes dist/. */
  async function resolveFile(pathname) {
    let decoded;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      return null;
    }
    if (decoded.includes("\0")) return null;
    const rel = normalize(decoded).replace(/^(\.\.[/\\])+/, "");
    const candidate = join(root, rel);
    // The static hosts' header file (scripts/prerender.mjs) is read by the host, never served.
    if (!candidate.startsWith(root) || candidate === headersFile) return null;
    if (await isFile(candidate)) return candidate;
    // Prerendered public pages: /pricing -> dist/pricing/index.html
    const page = join(candidate, "index.html");
    if (page.startsWith(root) && (await isFile(page))) return page;
    return null;
  }

  const gallery = createGalleryAnswers({
    appConfig,
    backend,
    hardened,
    fetcher,
    notFoundShell: async () =>
      (await load((await resolveFile("/404.html")) ?? join(root, "index.html"))).body.toString("utf8"),
  });

  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", "http://localhost");
      if (req.method !== "GET" && req.method !== "HEAD") {
        // A form posted to the share target from another site, with no service worker to refuse it
        // (sw/share-target.ts), ends here too: nothing is read or kept.
        res.writeHead(405, { ...hardened(), Allow: "GET, HEAD" }).end();
        return;
      }
      if (url.pathname === "/app-config.js") {
        res.writeHead(200, { ...hardened(), "Content-Type": TYPES[".js"], "Cache-Control": "no-cache" });
        res.end(`window.__APP_CONFIG__ = ${JSON.stringify(appConfig)};\n`);
        return;
      }
      const galleryPath = galleryRoute(url.pathname);
      if (galleryPath) {
        await gallery[galleryPath.kind](req, res, galleryPath.id);
        return;
      }
      // A collection (/collections/<id>) is drawn in the browser from the person's library on the device: its
      // address answers 200 with the /collections shell (noindex, as every signed-in page's).
      let file = await resolveFile(COLLECTION_PAGE.test(url.pathname) ? "/collections" : url.pathname);
      let status = 200;
      if (!file) {
        // An asset-like path that does not exist is a plain 404.
        if (/\.[a-z0-9]{2,5}$/i.test(url.pathname)) {
          res.writeHead(404, { ...hardened(), "Content-Type": TYPES[".txt"] }).end("Not found");
          return;
        }
        // The router matches paths without regard to case (/Pricing draws /pricing): so does this.
        file = await resolveFile(url.pathname.toLowerCase());
        if (!file) {
          // No route: the app's not-found page, with the status that says so.
          status = 404;
          file = (await resolveFile("/404.html")) ?? join(root, "index.html");
        }
      }
      const entry = await load(file);
      const headers = {
        ...hardened(entry.policy),
        "Content-Type": entry.type,
        "Cache-Control": url.pathname.startsWith("/assets/") ? "public, max-age=31536000, immutable" : "no-cache",
        Vary: "Accept-Encoding",
      };
      const accept = String(req.headers["accept-encoding"] ?? "");
      let body = entry.body;
      if (entry.br && /\bbr\b/.test(accept)) {
        body = entry.br;
        headers["Content-Encoding"] = "br";
      } else if (entry.gz && /\bgzip\b/.test(accept)) {
        body = entry.gz;
        headers["Content-Encoding"] = "gzip";
      }
      headers["Content-Length"] = String(body.length);
      res.writeHead(status, headers);
      res.end(req.method === "HEAD" ? undefined : body);
    } catch (e) {
      res.writeHead(500, { ...hardened(), "Content-Type": TYPES[".txt"] }).end("Server error");
      console.error("[app] ", e);
    }
  });
  /** Forgets the files read so far: each is read again at its next request, with a Brotli copy written since. */
  server.forgetFiles = () => cache.clear();
  return server;
}
