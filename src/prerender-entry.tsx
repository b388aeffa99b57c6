// The build-time entry scripts/prerender.mjs compiles for Node: renders one route's page inside the
// app shell (as a signed-out visitor) to HTML, and exposes the route table and each route's head.
// The browser never loads this module.
import { StrictMode } from "react";
import { prerenderToNodeStream } from "react-dom/static";
import { Router } from "wouter";
import { App } from "./app/app";
import { isIndexable, isPrerendered, routeHead } from "./app/route-meta";
import { PAGE_DATA_MODULES, PAGE_MODULES, ROUTES } from "./app/route-table";
import { preloadRoute } from "./app/routes";
import { renderHeadTags } from "./features/site/head-tags";
import { setSessionView } from "./state/session-store";
import type { RouteEntry } from "./app/route-table";

/** The route table and how each route is built, as the prerender script reads them. */
export const site = { routes: ROUTES, isIndexable, isPrerendered };

/** The source files (as Vite's manifest names them) of the modules that draw `entry`'s page and fetch its data. */
export function pageSources(entry: RouteEntry): string[] {
  return [...PAGE_MODULES[entry.page], ...(PAGE_DATA_MODULES[entry.page] ?? [])].map((file) => `src/${file}`);
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
