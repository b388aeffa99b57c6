import { beforeEach, describe, expect, it } from "vitest";
import { SIDEBAR_COOKIE_MAX_AGE_S, readSidebarCookie, sidebarCookieString } from "#src/lib/sidebar-cookie.ts";
import { THEME_STORAGE_KEY } from "#src/lib/theme.ts";
import { initUi, setSidebarOpen, systemThemeChanged, toggleSidebar, toggleTheme, ui } from "#src/state/ui-store.ts";

function media(dark: boolean) {
  return (query: string) => ({ matches: dark && query.includes("dark"), media: query }) as MediaQueryList;
}

function clearCookies() {
  for (const part of document.cookie.split(";")) {
    const name = part.split("=")[0].trim();
    if (name) document.cookie = `${name}=; path=/; max-age=0`;
  }
}

beforeEach(() => {
  localStorage.clear();
  clearCookies();
  document.documentElement.removeAttribute("data-theme");
  ui.mobileNavOpen = false;
});

describe("theme", () => {
  it("follows the system on a first visit", () => {
    initUi({ storage: localStorage, matchMedia: media(true), cookie: "" });
    expect(ui.theme).toBe("dark");
    expect(ui.themeSource).toBe("system");
    expect(document.documentElement.getAttribute("data-theme")).toBe("dark");

    initUi({ storage: localStorage, matchMedia: media(false), cookie: "" });
    expect(ui.theme).toBe("light");
  });

  it("remembers a chosen theme over the system's", () => {
    initUi({ storage: localStorage, matchMedia: media(false), cookie: "" });
    toggleTheme(localStorage);
    expect(ui.theme).toBe("dark");
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe("dark");
    expect(document.documentElement.getAttribute("data-theme")).toBe("dark");

    // A later visit on a light system keeps the choice.
    initUi({ storage: localStorage, matchMedia: media(false), cookie: "" });
    expect(ui.theme).toBe("dark");
    expect(ui.themeSource).toBe("user");
  });

  it("tracks system changes only until a theme is chosen", () => {
    initUi({ storage: localStorage, matchMedia: media(false), cookie: "" });
    systemThemeChanged("dark");
    expect(ui.theme).toBe("dark");
    toggleTheme(localStorage);
    expect(ui.theme).toBe("light");
    systemThemeChanged("dark");
    expect(ui.theme).toBe("light");
  });
});

describe("sidebar cookie", () => {
  it("writes the state for 7 days", () => {
    expect(SIDEBAR_COOKIE_MAX_AGE_S).toBe(604_800);
    expect(sidebarCookieString(false)).toBe("sidebar_state=false; path=/; max-age=604800; SameSite=Lax");
  });

  it("reads the stored state among other cookies, or nothing", () => {
    expect(readSidebarCookie("a=1; sidebar_state=false; b=2")).toBe(false);
    expect(readSidebarCookie("sidebar_state=true")).toBe(true);
    expect(readSidebarCookie("sidebar_state=maybe")).toBeNull();
    expect(readSidebarCookie("")).toBeNull();
  });

  it("keeps a collapsed sidebar collapsed on the next visit", () => {
    initUi({ storage: localStorage, matchMedia: media(false), cookie: document.cookie });
    expect(ui.sidebarOpen).toBe(true);
    setSidebarOpen(false);
    expect(document.cookie).toContain("sidebar_state=false");
    initUi({ storage: localStorage, matchMedia: media(false), cookie: document.cookie });
    expect(ui.sidebarOpen).toBe(false);
  });

  it("toggles the drawer below the breakpoint and the sidebar above it", () => {
    initUi({ storage: localStorage, matchMedia: media(false), cookie: "" });
    toggleSidebar(true);
    expect(ui.mobileNavOpen).toBe(true);
    expect(ui.sidebarOpen).toBe(true);
    toggleSidebar(false);
    expect(ui.sidebarOpen).toBe(false);
    expect(document.cookie).toContain("sidebar_state=false");
  });
});
