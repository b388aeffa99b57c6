// The protected-route hand-off (docs/spec.md §2): a page that needs a session sends people to
// /auth?from=<requested path>, and the sign-in screen returns them there. `from` must stay a
// same-site path, so a crafted link cannot bounce a fresh session to another site: the path is
// checked again after the URL parser has resolved it, since dot segments, backslashes, tabs and
// newlines can turn a local-looking path (`/.//evil.test`) into a protocol-relative one.

export const AUTH_PATH = "/auth";
export const DEFAULT_AFTER_SIGN_IN = "/dashboard";

export function authRedirectPath(requested: { pathname: string; search?: string }): string {
  const search = requested.search ? (requested.search.startsWith("?") ? requested.search : `?${requested.search}`) : "";
  return `${AUTH_PATH}?from=${encodeURIComponent(requested.pathname + search)}`;
}

/** Whether `path` would leave the site when used as a URL: scheme-relative (`//`, `/\`) or not a path. */
function leavesSite(path: string): boolean {
  return !path.startsWith("/") || path.startsWith("//") || path.startsWith("/\\");
}

/** The path to land on after sign-in: `from` when it is a safe local path, else the dashboard. */
export function safeReturnPath(from: string | null | undefined): string {
  if (!from) return DEFAULT_AFTER_SIGN_IN;
  let path = from.trim();
  // eslint-disable-next-line no-control-regex -- control characters are exactly what a return path may not carry
  if (leavesSite(path) || /[\u0000-\u001f\u007f]/.test(path)) {
    return DEFAULT_AFTER_SIGN_IN;
  }
  try {
    // Resolving against a dummy origin catches anything that would leave the site.
    const url = new URL(path, "https://app.invalid");
    if (url.origin !== "https://app.invalid") return DEFAULT_AFTER_SIGN_IN;
    path = url.pathname + url.search + url.hash;
    if (leavesSite(path)) return DEFAULT_AFTER_SIGN_IN;
  } catch {
    return DEFAULT_AFTER_SIGN_IN;
  }
  if (path === AUTH_PATH || path.startsWith(`${AUTH_PATH}?`) || path.startsWith(`${AUTH_PATH}/`)) {
    return DEFAULT_AFTER_SIGN_IN;
  }
  return path;
}
