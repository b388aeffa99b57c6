// The desktop sidebar's expanded/collapsed state survives visits in a cookie (docs/spec.md §9: 7 days).

export const SIDEBAR_COOKIE = "sidebar_state";
export const SIDEBAR_COOKIE_MAX_AGE_S = 7 * 24 * 60 * 60;

/** `null` when no choice has been stored (the sidebar then starts expanded). */
export function readSidebarCookie(cookie: string): boolean | null {
  for (const part of cookie.split(";")) {
    const [name, value] = part.trim().split("=");
    if (name === SIDEBAR_COOKIE) {
      if (value === "true") return true;
      if (value === "false") return false;
    }
  }
  return null;
}

export function sidebarCookieString(open: boolean): string {
  return `${SIDEBAR_COOKIE}=${open}; path=/; max-age=${SIDEBAR_COOKIE_MAX_AGE_S}; SameSite=Lax`;
}
