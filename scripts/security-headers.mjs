// The browser side of the door (docs/decisions/128-the-browser-side-of-the-door.md): the headers every
// response of the app carries and the Content-Security-Policy of its pages. One source for the app server
// (scripts/serve-app.mjs, which knows the backend from /app-config.js) and for the `_headers` file the
// build writes for static hosts (scripts/prerender.mjs, which knows it from VITE_SUPABASE_URL).
//
// A page may run only the app's own files and the inline scripts the build put in it, each allowed by
// its SHA-256 (the theme before first paint, the route guard, the gallery's first screen); it may talk
// only to this origin and the backend (HTTP and its WebSocket), show images from itself, the backend,
// data: and blob: URLs, and no other site may frame it.
import { createHash } from "node:crypto";

/** Sent with every response: no sniffing, no framing, no opener shared with other sites, no devices. */
export const HARDENING_HEADERS = Object.freeze({
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "Cross-Origin-Opener-Policy": "same-origin",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), hid=()",
});

/** Static hosts serve over HTTPS only; a year, this host alone (not every subdomain of it). */
export const STRICT_TRANSPORT_SECURITY = "max-age=31536000";

/** The sources a page may reach the backend at when the build names none: any hosted Supabase project. */
export const ANY_HOSTED_BACKEND = ["https://*.supabase.co", "wss://*.supabase.co"];

const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
/** `type` values a browser runs as script; any other (application/ld+json, …) is a data block. */
const RUNNABLE_TYPE = /^\s*(text\/javascript|application\/javascript|module)?\s*$/i;

/** The `'sha256-…'` sources of the inline scripts of `html`, in order, each once. */
export function inlineScriptHashes(html) {
  const hashes = new Set();
  for (const [, attrs, body] of html.matchAll(SCRIPT)) {
    if (/\bsrc\s*=/i.test(attrs)) continue;
    const type = /\btype\s*=\s*["']?([^"'\s>]*)/i.exec(attrs)?.[1] ?? "";
    if (!RUNNABLE_TYPE.test(type)) continue;
    hashes.add(`'sha256-${createHash("sha256").update(body, "utf8").digest("base64")}'`);
  }
  return [...hashes];
}

/** The backend's origin and the origin of its WebSocket (realtime), or [] when `url` is not http(s). */
export function backendSources(url) {
  let parsed;
  try {
    parsed = new URL(String(url ?? ""));
  } catch {
    return [];
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return [];
  const socket = `${parsed.protocol === "https:" ? "wss:" : "ws:"}//${parsed.host}`;
  return [parsed.origin, socket];
}

/** The policy of a page whose inline scripts are `scriptHashes`, with its backend at `backend`. */
export function contentSecurityPolicy({ scriptHashes = [], backend = [] } = {}) {
  const directives = {
    "default-src": ["'self'"],
    // 'wasm-unsafe-eval' lets WebAssembly compile (the on-device upscale's WASM backend); it allows no eval
    // of JavaScript.
    "script-src": ["'self'", "'wasm-unsafe-eval'", ...scriptHashes],
    // Prerendered markup carries style attributes and the inlined stylesheet; styles cannot run code.
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:", "blob:", ...backend.filter((source) => !/^wss?:/.test(source))],
    "font-src": ["'self'"],
    "connect-src": ["'self'", ...backend],
    "worker-src": ["'self'"],
    "manifest-src": ["'self'"],
    "frame-src": ["'none'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources.join(" ")}`)
    .join("; ");
}

/**
 * The `_headers` file of Netlify and Cloudflare Pages: the hardening headers, HSTS and one policy for
 * every path, allowing the inline scripts of all pages (`scriptHashes`); hashed assets cached for good.
 */
export function staticHostHeaders({ scriptHashes, backendUrl }) {
  const named = backendSources(backendUrl);
  const backend = named.length > 0 ? named : ANY_HOSTED_BACKEND;
  const lines = [
    "# Written by scripts/prerender.mjs; the same headers scripts/serve-app.mjs sends (docs/decisions/128).",
    named.length > 0
      ? `# The backend: ${named[0]} (VITE_SUPABASE_URL at build time).`
      : "# No VITE_SUPABASE_URL at build time: the policy lets pages reach any *.supabase.co project.",
    "/*",
    ...Object.entries(HARDENING_HEADERS).map(([name, value]) => `  ${name}: ${value}`),
    `  Strict-Transport-Security: ${STRICT_TRANSPORT_SECURITY}`,
    `  Content-Security-Policy: ${contentSecurityPolicy({ scriptHashes, backend })}`,
    "/assets/*",
    "  Cache-Control: public, max-age=31536000, immutable",
    "",
  ];
  return lines.join("\n");
}
