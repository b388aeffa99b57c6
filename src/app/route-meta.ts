// Each route's head: its description (the site feature's words), canonical URL, whether search engines
// may index it, and its structured data (structured-data.ts). The prerenderer writes it into every public page; the router
// applies it after client-side navigations. Signed-in pages and the sign-in forms are noindex.
import { postByPath } from "../features/content/blog/posts";
import { applyHead, type HeadMeta } from "../features/site/head-tags";
import {
  FALLBACK_DESCRIPTION,
  OG_IMAGE_ALT,
  OG_IMAGE_PATH,
  PAGE_DESCRIPTIONS,
  SITE_NAME,
} from "../features/site/page-descriptions";
import { documentTitle, type RouteEntry } from "./route-table";
import { structuredDataFor } from "./structured-data";

export function descriptionFor(path: string): string {
  return PAGE_DESCRIPTIONS[path] ?? postByPath(path)?.description ?? FALLBACK_DESCRIPTION;
}

/**
 * Pages search engines should skip: the sign-in forms, where a (future) checkout returns, and the page of
 * one person's published image (shared by its link; the gallery is what is indexed, decision 142).
 */
const NOINDEX_PAGES = new Set<RouteEntry["page"]>([
  "auth",
  "resetPassword",
  "paymentSuccess",
  "paymentCanceled",
  "galleryImage",
  "compare",
]);

/** Public pages are indexed; signed-in pages, the pages above and unknown paths are not. */
export function isIndexable(entry: RouteEntry | undefined): boolean {
  return Boolean(entry && entry.access === "public" && !NOINDEX_PAGES.has(entry.page));
}

/** Public pages are prerendered with their content; the rest get an empty shell with their head. */
export function isPrerendered(entry: RouteEntry): boolean {
  return (
    entry.access === "public" && entry.prerender !== false && entry.page !== "auth" && entry.page !== "resetPassword"
  );
}

export function routeHead(path: string, entry: RouteEntry | undefined, origin: string): HeadMeta {
  const base = origin.replace(/\/+$/, "");
  const title = documentTitle(entry?.title ?? "Page Not Found");
  return {
    title,
    description: descriptionFor(path),
    canonical: `${base}${path}`,
    indexable: isIndexable(entry),
    ogType: path.startsWith("/blog/") ? "article" : "website",
    image: `${base}${OG_IMAGE_PATH}`,
    imageAlt: OG_IMAGE_ALT,
    siteName: SITE_NAME,
    jsonLd: entry && isIndexable(entry) ? structuredDataFor(path, entry, base) : [],
  };
}

/** The site's canonical origin as the prerendered page stated it, else this page's own. */
function currentOrigin(doc: Document): string {
  const href = doc.head.querySelector<HTMLLinkElement>('link[rel="canonical"]')?.href;
  try {
    return href ? new URL(href).origin : doc.location.origin;
  } catch {
    return doc.location.origin;
  }
}

export function applyRouteHead(doc: Document, path: string, entry: RouteEntry | undefined): void {
  applyHead(doc, routeHead(path, entry, currentOrigin(doc)));
}
