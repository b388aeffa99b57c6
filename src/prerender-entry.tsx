// The build-time entry scripts/prerender.mjs compiles for Node: renders one route's page inside the
// app shell (as a signed-out visitor) to HTML, and exposes the route table and each route's head.
// The browser never loads this module.
import { StrictMode } from "react";
import { prerenderToNodeStream } from "react-dom/static";
import { Router } from "wouter";
import { App } from "./app/app";
import { isIndexable, isPrerendered, routeHead } from "./app/route-meta";
import { EXTRA_ROUTES, PAGE_MODULES, ROUTES } from "./app/route-table";
import { preloadRoute } from "./app/routes";
import { GENERATION_COLUMNS, GENERATIONS_BUCKET } from "#shared/vocabulary/rows.ts";
import { readConfig } from "./api/config";
import { THUMBNAIL_ACCEPT } from "./api/public-thumbnail";
import { FIRST_SCREEN_PLACEHOLDERS, startFirstScreen, type FirstScreenOptions } from "./features/gallery/first-screen";
import { GALLERY_PAGE_SIZE } from "./features/gallery/use-gallery";
import { TILE_SIDES } from "./features/gallery/use-published-image";
import { renderHeadTags } from "./features/site/head-tags";
import { setSessionView } from "./state/session-store";
import type { RouteEntry } from "./app/route-table";

/**
 * The route table and how each route is built, as the prerender script reads them. A page beyond the spec's
 * table at a fixed address (/compare, /collections) gets its noindex shell too, so its address answers 200.
 */
const SHELLED_EXTRAS = EXTRA_ROUTES.filter((r) => r.access !== "operator" && !r.path.includes(":"));
export const site = { routes: [...ROUTES, ...SHELLED_EXTRAS], isIndexable, isPrerendered };

/** The source files (as Vite's manifest names them) of the modules that draw `entry`'s page. */
export function pageSources(entry: RouteEntry): string[] {
  return PAGE_MODULES[entry.page].map((file) => `src/${file}`);
}

/**
 * Inline scripts for `entry`'s head: /gallery's first screen (features/gallery/first-screen.ts), which
 * fetches the first page and the thumbnails in view while the app's code downloads. The backend is the
 * one this build was configured with; /app-config.js, when it names another, wins in the browser.
 */
export function headScripts(entry: RouteEntry): string {
  if (entry.page !== "gallery") return "";
  const built = readConfig(undefined, import.meta.env);
  const options: FirstScreenOptions = {
    supabaseUrl: built.supabaseUrl,
    supabaseAnonKey: built.supabaseAnonKey,
    columns: GENERATION_COLUMNS,
    bucket: GENERATIONS_BUCKET,
    limit: GALLERY_PAGE_SIZE + 1,
    accept: THUMBNAIL_ACCEPT,
    sides: TILE_SIDES,
    placeholders: FIRST_SCREEN_PLACEHOLDERS,
  };
  // JSON in a script: "<" is escaped so no value can close the element.
  const args = JSON.stringify(options).replace(/</g, "\\u003c");
  return `<script>(${startFirstScreen.toString()})(${args});</script>`;
}

/** The head tags of `path` for a site served from `origin`. */
export function renderHead(path: string, entry: RouteEntry | undefined, origin: string): string {
  return renderHeadTags(routeHead(path, entry, origin));
}

async function readAll(stream: AsyncIterable<unknown>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString("utf8");
}

/** The body markup of `path` as a signed-out visitor on a wide screen first sees it. */
export async function renderPage(path: string): Promise<string> {
  setSessionView({ status: "signed-out", user: null, verified: true });
  await preloadRoute(path);
  const errors: unknown[] = [];
  const { prelude } = await prerenderToNodeStream(
    // The same tree the browser hydrates (main.tsx renders <App> in StrictMode).
    <StrictMode>
      <Router ssrPath={path}>
        <App />
      </Router>
    </StrictMode>,
    {
      // A page that cannot render on the server must not ship a fallback as its content.
      onError: (error) => void errors.push(error),
      // Keep every boundary inline: React otherwise moves large ones to the end of the document
      // behind a reveal script, and the page would be blank without JavaScript.
      progressiveChunkSize: Number.POSITIVE_INFINITY,
    },
  );
  const html = await readAll(prelude);
  if (errors.length) throw errors[0] instanceof Error ? errors[0] : new Error(String(errors[0]));
  return html;
}
