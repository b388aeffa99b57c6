// Runs after `vite build`: writes every public route as static HTML with its own head (title,
// description, canonical URL, robots, Open Graph, JSON-LD) and its page already drawn, so search
// engines and first paints need no JavaScript. Signed-in pages and the sign-in forms get an empty,
// noindex shell with their title. Also writes sitemap.xml, robots.txt and the static hosts' `_headers`
// (scripts/security-headers.mjs), and updates the service worker's precache revision of index.html
// (the prerendered home page replaces Vite's).
//
// Usage: node scripts/prerender.mjs [dist-dir]   (default dist/)
// Environment: SITE_ORIGIN (the canonical origin, default https://promptcanvas.app).
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import react from "@vitejs/plugin-react";
import { build } from "vite";
import { inlineScriptHashes, staticHostHeaders } from "./security-headers.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const dist = resolve(root, process.argv[2] ?? "dist");
// Inside the project, so the compiled entry resolves react and friends from node_modules.
const ssrOut = join(root, `node_modules/.cache/prerender-${process.pid}`);
const origin = (process.env.SITE_ORIGIN ?? "https://promptcanvas.app").replace(/\/+$/, "");
const started = performance.now();

function fail(message) {
  console.error(`prerender: ${message}`);
  process.exit(1);
}

const templatePath = join(dist, "index.html");
if (!existsSync(templatePath)) fail("dist/index.html is missing: run `vite build` first.");
const viteHtml = readFileSync(templatePath, "utf8");
if (viteHtml.includes("data-prerendered="))
  fail("dist/index.html is already prerendered: run `vite build` again first.");
if (!viteHtml.includes('<script defer src="/app-config.js"></script>'))
  fail("dist/index.html has no /app-config.js script: the pages' own inline scripts follow it.");
// The stylesheet goes inline: one request fewer before the first paint, which on a slow mobile link
// is the largest part of it. The file stays in dist/ (and the precache) for anything that links it.
const template = viteHtml.replace(/<link rel="stylesheet"[^>]*href="\/([^"]+\.css)"[^>]*>/g, (tag, file) => {
  const css = readFileSync(join(dist, file), "utf8");
  // The disabled link is never fetched, but it tells Vite's loader of lazy chunks (which lists this
  // stylesheet among the entry's dependencies) that it is applied already: without it, the first lazy
  // import fetched the file and parsed all of it again (a 117 ms task in Lighthouse's /gallery trace).
  return `<style>${css.replace(/<\/style/gi, "<\\/style")}</style><link rel="stylesheet" href="/${file}" disabled />`;
});

// 1. Compile the prerender entry for Node (no PWA or CSS plugins: only the React tree is needed).
await build({
  configFile: false,
  root,
  logLevel: "warn",
  mode: "production",
  plugins: [react()],
  publicDir: false,
  build: {
    ssr: "src/prerender-entry.tsx",
    outDir: ssrOut,
    emptyOutDir: true,
    target: "node20",
    rollupOptions: {
      output: { entryFileNames: "prerender-entry.mjs" },
      // route-meta is split out for the browser; in this single Node bundle that split does not apply.
      onwarn(warning, warn) {
        if (warning.code !== "INEFFECTIVE_DYNAMIC_IMPORT") warn(warning);
      },
    },
  },
});
const app = await import(pathToFileURL(join(ssrOut, "prerender-entry.mjs")).href);

// 2. Which built chunks each page needs, to preload them beside the entry script: the route table
// names each page's modules (PAGE_MODULES), and Vite's manifest maps them to chunks.
const manifestPath = join(dist, ".vite/manifest.json");
const manifest = existsSync(manifestPath) ? JSON.parse(readFileSync(manifestPath, "utf8")) : {};
const entryChunk = Object.values(manifest).find((c) => c.isEntry);

function chunkFiles(key, seen = new Set()) {
  const chunk = manifest[key];
  if (!chunk || seen.has(key)) return [];
  seen.add(key);
  const files = chunk === entryChunk ? [] : [chunk.file];
  for (const dep of chunk.imports ?? []) {
    if (manifest[dep] !== entryChunk) files.push(...chunkFiles(dep, seen));
  }
  return files;
}

function preloadsFor(entry) {
  const entryFiles = new Set(
    entryChunk ? [entryChunk.file, ...(entryChunk.imports ?? []).map((k) => manifest[k]?.file)] : [],
  );
  const seen = new Set();
  const files = app.pageSources(entry).flatMap((source) => chunkFiles(source, seen));
  return [...new Set(files)]
    .filter((f) => !entryFiles.has(f))
    .map((f) => `<link rel="modulepreload" crossorigin href="/${f}" />`)
    .join("\n    ");
}

// 3. The page template: Vite's index.html with the route's head and markup.
// A prerendered page opened at another path (the SPA or offline fallback) hides its markup until the
// app draws the right page, so nobody sees the home page flash on /dashboard. At the right path the
// app hydrates the markup in place.
const GUARD = `<script>(function(){var d=document.documentElement,p=d.getAttribute("data-prerendered"),h=location.pathname.replace(/\\/+$/,"")||"/";if(p&&p!==h)d.setAttribute("data-route-mismatch","")})();</script>
    <style>html[data-route-mismatch] #root[data-ssr]{display:none!important}</style>`;

function page({ path, head, body, preloads, scripts }) {
  let html = template
    .replace(/<meta\s+name="description"[\s\S]*?\/>\s*/, "")
    .replace(/<title>[\s\S]*?<\/title>/, `${head}\n    ${GUARD}`)
    // A page's own inline scripts follow /app-config.js, whose element they may wait for.
    .replace(/<script defer src="\/app-config\.js"><\/script>/, (tag) => (scripts ? `${tag}\n    ${scripts}` : tag))
    .replace("</head>", `${preloads ? `  ${preloads}\n` : ""}  </head>`);
  if (body !== null) {
    html = html
      .replace(/<html([^>]*)>/, `<html$1 data-prerendered="${path}">`)
      .replace('<div id="root"></div>', `<div id="root" data-ssr>${body}</div>`);
  }
  return html;
}

function outFile(path) {
  return path === "/" ? join(dist, "index.html") : join(dist, path.slice(1), "index.html");
}

const written = [];
const shells = [];
const failures = [];
/** The inline scripts of every page written, for the static hosts' policy (step 6). */
const scriptHashes = new Set();
function writePage(file, html) {
  for (const hash of inlineScriptHashes(html)) scriptHashes.add(hash);
  writeFileSync(file, html);
}
for (const entry of app.site.routes) {
  const head = app.renderHead(entry.path, entry, origin);
  let body = null;
  if (app.site.isPrerendered(entry)) {
    try {
      body = await app.renderPage(entry.path);
    } catch (e) {
      failures.push(`${entry.path}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  const html = page({
    path: entry.path,
    head,
    body,
    preloads: body !== null ? preloadsFor(entry) : "",
    scripts: body !== null ? app.headScripts(entry) : "",
  });
  const file = outFile(entry.path);
  mkdirSync(dirname(file), { recursive: true });
  writePage(file, html);
  (body !== null ? written : shells).push(entry.path);
}

// The not-found page's head over the empty app shell: scripts/serve-app.mjs and static hosts that
// honour a root 404.html (Netlify, Cloudflare Pages, GitHub Pages, Vercel) answer unknown paths with
// it and status 404, and the app draws its not-found page there.
writePage(
  join(dist, "404.html"),
  page({ path: "/404", head: app.renderHead("/404", undefined, origin), body: null, preloads: "", scripts: "" }),
);

// 4. sitemap.xml and robots.txt for the canonical origin.
const indexable = app.site.routes.filter((r) => app.site.isIndexable(r));
const today = new Date().toISOString().slice(0, 10);
writeFileSync(
  join(dist, "sitemap.xml"),
  `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${indexable.map((r) => `  <url><loc>${origin}${r.path}</loc><lastmod>${today}</lastmod><priority>${r.path === "/" ? "1.0" : "0.7"}</priority></url>`).join("\n")}
</urlset>
`,
);
writeFileSync(join(dist, "robots.txt"), `User-agent: *\nAllow: /\n\nSitemap: ${origin}/sitemap.xml\n`);

// 5. The service worker's precache list (injected by vite-plugin-pwa): index.html gets the prerendered
// file's revision, so installed copies fetch it instead of keeping Vite's. The link-preview image leaves
// the list: no page shows it, only other sites' link cards. The style previews stay in it (about 0.6 MB
// of WebP), so every page that shows them opens offline with its pictures, and a redrawn preview
// reaches installed copies through its revision.
const RUNTIME_CACHED = /^og\//;
const swPath = join(dist, "sw.js");
if (existsSync(swPath)) {
  const sw = readFileSync(swPath, "utf8");
  const list = /\[\{"revision":[^\]]*?"url":"[^"]*"\}\]/.exec(sw);
  if (!list) fail("could not find the precache list in dist/sw.js.");
  const entries = JSON.parse(list[0]);
  const revision = createHash("md5").update(readFileSync(templatePath)).digest("hex");
  const index = entries.find((e) => e.url === "index.html");
  if (!index) fail("index.html is not in the service worker's precache list.");
  index.revision = revision;
  const kept = entries.filter((e) => !RUNTIME_CACHED.test(e.url));
  writeFileSync(swPath, sw.replace(list[0], JSON.stringify(kept)));
}

// 6. The headers static hosts send (Netlify's and Cloudflare Pages' `_headers`): the app server's, with
// a policy that allows the inline scripts of every page written above and the backend built in.
writeFileSync(
  join(dist, "_headers"),
  staticHostHeaders({ scriptHashes: [...scriptHashes], backendUrl: process.env.VITE_SUPABASE_URL }),
);

if (!process.env.PRERENDER_KEEP) rmSync(ssrOut, { recursive: true, force: true });
const ms = performance.now() - started;
console.log(
  `prerender: ${written.length} pages with content, ${shells.length} noindex shells (${shells.join(", ")}), sitemap of ${indexable.length} URLs for ${origin}, in ${(ms / 1000).toFixed(1)} s`,
);
if (failures.length) {
  console.warn(
    `prerender: these pages could not be drawn at build time and ship as empty shells:\n  ${failures.join("\n  ")}`,
  );
}
