// Where e-mail links may send a browser with tokens in the URL fragment: the app's own origin
// (config.siteUrl) or a loopback origin, never an arbitrary site (that would hand it the session).
import { isLoopbackHostname } from "../../functions/_shared/vocabulary/hosts.ts";
import type { Config } from "../config.ts";

/** `raw` when it is an allowed absolute http(s) URL (its fragment dropped), else the site URL. */
export function safeRedirect(config: Config, raw: string | null | undefined): string {
  if (raw) {
    try {
      const url = new URL(raw);
      const allowed = (url.protocol === "http:" || url.protocol === "https:") &&
        !url.username &&
        !url.password &&
        (url.origin === new URL(config.siteUrl).origin || isLoopbackHostname(url.hostname));
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
