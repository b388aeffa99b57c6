// A page's head for search engines and link previews: title, description, canonical URL, robots,
// Open Graph and Twitter card tags, and JSON-LD structured data. renderHeadTags writes them into
// prerendered HTML; applyHead updates a live document after a client-side navigation.

export type HeadMeta = {
  /** The full document title. */
  title: string;
  description: string;
  /** Absolute URL of the page's one address. */
  canonical: string;
  /** False for pages search engines should leave out (signed-in pages, sign-in forms). */
  indexable: boolean;
  ogType: "website" | "article";
  /** Absolute URL of the link-preview image. */
  image: string;
  imageAlt: string;
  siteName: string;
  jsonLd: readonly object[];
};

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** JSON for a <script> element: "<" is escaped so no string can close the element early. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

function metaPairs(meta: HeadMeta): [attr: "name" | "property", key: string, value: string][] {
  return [
    ["name", "description", meta.description],
    ["name", "robots", meta.indexable ? "index, follow" : "noindex, nofollow"],
    ["property", "og:type", meta.ogType],
    ["property", "og:site_name", meta.siteName],
    ["property", "og:title", meta.title],
    ["property", "og:description", meta.description],
    ["property", "og:url", meta.canonical],
    ["property", "og:image", meta.image],
    ["property", "og:image:alt", meta.imageAlt],
    ["name", "twitter:card", "summary_large_image"],
    ["name", "twitter:title", meta.title],
    ["name", "twitter:description", meta.description],
    ["name", "twitter:image", meta.image],
  ];
}

export function renderHeadTags(meta: HeadMeta): string {
  const lines = [
    `<title>${escapeHtml(meta.title)}</title>`,
    ...metaPairs(meta).map(([attr, key, value]) => `<meta ${attr}="${key}" content="${escapeHtml(value)}" />`),
    `<link rel="canonical" href="${escapeHtml(meta.canonical)}" />`,
    ...meta.jsonLd.map((data) => `<script type="application/ld+json">${jsonForScript(data)}</script>`),
  ];
  return lines.join("\n    ");
}

function upsertMeta(doc: Document, attr: "name" | "property", key: string, value: string): void {
  let el = doc.head.querySelector<HTMLMetaElement>(`meta[${attr}="${key}"]`);
  if (!el) {
    el = doc.createElement("meta");
    el.setAttribute(attr, key);
    doc.head.appendChild(el);
  }
  el.setAttribute("content", value);
}

export function applyHead(doc: Document, meta: HeadMeta): void {
  doc.title = meta.title;
  for (const [attr, key, value] of metaPairs(meta)) upsertMeta(doc, attr, key, value);
  let canonical = doc.head.querySelector<HTMLLinkElement>('link[rel="canonical"]');
  if (!canonical) {
    canonical = doc.createElement("link");
    canonical.rel = "canonical";
    doc.head.appendChild(canonical);
  }
  canonical.href = meta.canonical;
  doc.head.querySelectorAll('script[type="application/ld+json"]').forEach((el) => el.remove());
  for (const data of meta.jsonLd) {
    const script = doc.createElement("script");
    script.type = "application/ld+json";
    script.textContent = JSON.stringify(data);
    doc.head.appendChild(script);
  }
}
