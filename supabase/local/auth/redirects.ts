// Where e-mail links may send a browser with tokens in the URL fragment: the app's own origin
// (config.siteUrl) or a loopback origin, never an arbitrary site (that would hand it the session).
import type { Config } from "../config.ts";

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

export function isLoopbackAddress(addr: string): boolean {
  return addr === "::1" || addr.startsWith("127.") || addr.startsWith("::ffff:127.");
}

/** `raw` when it is an allowed absolute http(s) URL (its fragment dropped), else the site URL. */
export function safeRedirect(config: Config, raw: string | null | undefined): string {
  if (raw) {
    try {
      const url = new URL(raw);
      const allowed =
        (url.protocol === "http:" || url.protocol === "https:") &&
        !url.username &&
        !url.password &&
        (url.origin === new URL(config.siteUrl).origin || LOOPBACK_HOSTS.has(url.hostname));
      if (allowed) {
        url.hash = "";
        return url.toString();
      }
    } catch {
      // not a URL: fall through to the site URL
    }
  }
  return config.siteUrl;
}
