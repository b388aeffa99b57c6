// /gallery/<id> as the app server answers it (docs/decisions/142-a-link-to-one-published-image.md): a link to
// one published image unfurls in chat apps, whose crawlers run no JavaScript, so its Open Graph and
// Twitter card tags must be in the HTML itself. The server reads the row as a visitor would (the anon
// key through REST, so the gallery's own policy decides: published, not held after reports, not removed
// by an operator), writes the image's title, description and picture into the not-found shell's head, and
// answers 200; a row that is not in the gallery gets the not-found shell as it is, with 404. The picture
// the tags name is served at /gallery/<id>/image, read through the Storage API as a visitor on each
// request (the bucket's policy decides there too), so once unpublished it is no longer served either.
// Everything here is plain text in and out; scripts/serve-app.mjs does the HTTP.

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
const PAGE = new RegExp(`^/gallery/(${UUID})/?$`, "i");
const IMAGE = new RegExp(`^/gallery/(${UUID})/image$`, "i");

/** The columns the head needs, and the image's object name. */
const COLUMNS = "id,prompt,style,width,height,image_path";
const BUCKET = "generations";
/** How long a read of the backend may take before the answer says it is unavailable. */
export const BACKEND_TIMEOUT_MS = 5000;
/** The largest picture passed on (the app's are a few megabytes at most). */
const MAX_IMAGE_BYTES = 20 * 1024 * 1024;

/** `{ id, kind }` for /gallery/<uuid> ("page") and /gallery/<uuid>/image ("image"), else null. */
export function galleryRoute(pathname) {
  const page = PAGE.exec(pathname);
  if (page) return { id: page[1].toLowerCase(), kind: "page" };
  const image = IMAGE.exec(pathname);
  return image ? { id: image[1].toLowerCase(), kind: "image" } : null;
}

/** The backend could not answer (unreachable, timed out, or an error status): not the same as "not there". */
export class BackendUnavailable extends Error {
  constructor(detail) {
    super(`the backend did not answer: ${detail}`);
    this.name = "BackendUnavailable";
  }
}

function visitor(config) {
  const url = String(config?.supabaseUrl ?? "").replace(/\/+$/, "");
  const key = String(config?.supabaseAnonKey ?? "");
  if (!/^https?:\/\//.test(url) || !key) throw new BackendUnavailable("no backend is configured");
  return { url, headers: { apikey: key, Authorization: `Bearer ${key}` } };
}

async function ask(fetcher, url, init) {
  try {
    return await fetcher(url, { ...init, signal: AbortSignal.timeout(BACKEND_TIMEOUT_MS) });
  } catch (e) {
    throw new BackendUnavailable(e instanceof Error ? e.message : String(e));
  }
}

/** The row of `id` as a visitor reads it: the gallery's image, or null when it is not in the gallery. */
export async function readGalleryRow(config, id, fetcher = fetch) {
  const { url, headers } = visitor(config);
  const res = await ask(
    fetcher,
    `${url}/rest/v1/generations?select=${COLUMNS}&id=eq.${encodeURIComponent(id)}&is_public=eq.true&limit=1`,
    { headers: { ...headers, Accept: "application/json" } },
  );
  if (!res.ok) throw new BackendUnavailable(`REST answered ${res.status}`);
  const rows = await res.json().catch(() => null);
  if (!Array.isArray(rows)) throw new BackendUnavailable("REST answered no list");
  const row = rows[0];
  return row && typeof row.image_path === "string" && typeof row.prompt === "string" ? row : null;
}

/** The picture at `path` as a visitor reads it: `{ type, body }`, or null when the bucket's policy refuses it. */
export async function readGalleryImage(config, path, fetcher = fetch) {
  const { url, headers } = visitor(config);
  const object = String(path).split("/").map(encodeURIComponent).join("/");
  const res = await ask(fetcher, `${url}/storage/v1/object/authenticated/${BUCKET}/${object}`, { headers });
  if (res.status === 400 || res.status === 403 || res.status === 404) return null;
  if (!res.ok) throw new BackendUnavailable(`Storage answered ${res.status}`);
  const type = (res.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  const body = Buffer.from(await res.arrayBuffer());
  if (!/^image\/(png|jpeg|webp)$/.test(type) || body.length === 0 || body.length > MAX_IMAGE_BYTES) return null;
  return { type, body };
}

function escapeHtml(text) {
  return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** One line of at most `max` characters (whitespace folded, an ellipsis where it was cut). */
export function clip(text, max) {
  const flat = String(text).replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

/** "digital-art" → "digital art": a style's id in words (the labels live in the app's TypeScript). */
const styleWords = (style) =>
  String(style ?? "")
    .replace(/[-_]+/g, " ")
    .trim();

/** The site's address as the shell's canonical link names it (the build's SITE_ORIGIN), or null. */
export function siteOrigin(shell) {
  const href = /<link\s+rel="canonical"\s+href="([^"]+)"/i.exec(shell)?.[1];
  try {
    return href ? new URL(href.replace(/&amp;/g, "&")).origin : null;
  } catch {
    return null;
  }
}

/** The head of one image's page: [attribute, key, value] for each tag, the title and the canonical address. */
export function galleryHead(row, origin) {
  const page = `${origin}/gallery/${row.id}`;
  const image = `${page}/image`;
  const title = `${clip(row.prompt, 90)} · PromptCanvas`;
  const style = styleWords(row.style);
  const description = clip(
    `${style ? `A ${style} image` : "An image"} published in the PromptCanvas gallery: “${row.prompt}”. Open it to see its settings and make one like it.`,
    300,
  );
  const tags = [
    ["name", "description", description],
    // A person's published image is shared by its link, not offered to search engines (the gallery is).
    ["name", "robots", "noindex, nofollow"],
    ["property", "og:type", "article"],
    ["property", "og:site_name", "PromptCanvas"],
    ["property", "og:title", title],
    ["property", "og:description", description],
    ["property", "og:url", page],
    ["property", "og:image", image],
    ["property", "og:image:alt", clip(row.prompt, 420)],
    ["property", "og:image:width", String(row.width ?? "")],
    ["property", "og:image:height", String(row.height ?? "")],
    ["name", "twitter:card", "summary_large_image"],
    ["name", "twitter:title", title],
    ["name", "twitter:description", description],
    ["name", "twitter:image", image],
    ["name", "twitter:image:alt", clip(row.prompt, 420)],
  ].filter(([, , value]) => value !== "");
  return { title, canonical: page, tags };
}

/**
 * The shell with the head of `head`: its title, each tag's content (a tag the shell lacks is added),
 * and its canonical link. Only text in attributes and the title changes: the inline scripts, and so
 * the page's Content-Security-Policy hashes, stay as they were.
 */
export function withGalleryHead(shell, head) {
  let html = shell.replace(/<title>[\s\S]*?<\/title>/i, `<title>${escapeHtml(head.title)}</title>`);
  const added = [];
  for (const [attr, key, value] of head.tags) {
    const tag = `<meta ${attr}="${key}" content="${escapeHtml(value)}" />`;
    const existing = new RegExp(`<meta\\s+${attr}="${key.replace(/[.:]/g, "\\$&")}"\\s+content="[^"]*"\\s*/?>`, "i");
    if (existing.test(html)) html = html.replace(existing, () => tag);
    else added.push(tag);
  }
  const canonical = `<link rel="canonical" href="${escapeHtml(head.canonical)}" />`;
  const link = /<link\s+rel="canonical"\s+href="[^"]*"\s*\/?>/i;
  if (link.test(html)) html = html.replace(link, () => canonical);
  else added.push(canonical);
  return added.length ? html.replace(/<\/head>/i, () => `  ${added.join("\n    ")}\n  </head>`) : html;
}
