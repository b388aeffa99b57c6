// View-only state (README.md, "Architecture"): theme, sidebar and which sample notifications were
// read. Components read it with useSnapshot; only the action functions below change it.
import { proxy } from "valtio";
import { readSidebarCookie, sidebarCookieString } from "../lib/sidebar-cookie";
import { readSavedTheme, saveTheme, systemTheme, type Theme } from "../lib/theme";

export type UiState = {
  theme: Theme;
  /** "system" until the person picks a theme; then the choice sticks. */
  themeSource: "system" | "user";
  /** Desktop sidebar expanded (true) or collapsed to icons (false). */
  sidebarOpen: boolean;
  /** The navigation drawer below the mobile breakpoint. */
  mobileNavOpen: boolean;
  readNotificationIds: string[];
  /**
   * The generator's "Add new results to" (decision 157): the collection each person chose on this device,
   * by user id (absent: none). Kept in localStorage.
   */
  resultsCollections: Record<string, string>;
};

export const ui = proxy<UiState>({
  theme: "light",
  themeSource: "system",
  sidebarOpen: true,
  mobileNavOpen: false,
  readNotificationIds: [],
  resultsCollections: {},
});

export const RESULTS_COLLECTION_KEY = "promptcanvas.results-collection";

function readResultsCollections(storage: Pick<Storage, "getItem"> | undefined): Record<string, string> {
  try {
    const saved: unknown = JSON.parse(storage?.getItem(RESULTS_COLLECTION_KEY) ?? "{}");
    if (typeof saved !== "object" || saved === null || Array.isArray(saved)) return {};
    return Object.fromEntries(Object.entries(saved).filter((e): e is [string, string] => typeof e[1] === "string"));
  } catch {
    return {};
  }
}

function applyThemeToDocument(theme: Theme): void {
  if (typeof document !== "undefined") document.documentElement.setAttribute("data-theme", theme);
}

export function initUi(env: { storage?: Storage; matchMedia?: (q: string) => MediaQueryList; cookie?: string }): void {
  const saved = readSavedTheme(env.storage);
  ui.theme = saved ?? systemTheme(env.matchMedia);
  ui.themeSource = saved ? "user" : "system";
  ui.sidebarOpen = readSidebarCookie(env.cookie ?? "") ?? true;
  ui.resultsCollections = readResultsCollections(env.storage);
  applyThemeToDocument(ui.theme);
}

export function setTheme(theme: Theme, storage: Storage | undefined = globalThis.localStorage): void {
  ui.theme = theme;
  ui.themeSource = "user";
  saveTheme(storage, theme);
  applyThemeToDocument(theme);
}

export function toggleTheme(storage?: Storage): void {
  setTheme(ui.theme === "dark" ? "light" : "dark", storage);
}

/** The system theme changed: follow it unless the person has picked one. */
export function systemThemeChanged(theme: Theme): void {
  if (ui.themeSource === "user") return;
  ui.theme = theme;
  applyThemeToDocument(theme);
}

export function setSidebarOpen(open: boolean): void {
  ui.sidebarOpen = open;
  if (typeof document !== "undefined") document.cookie = sidebarCookieString(open);
}

/** Ctrl/Cmd+B and the toggle button: the drawer below the breakpoint, the sidebar above it. */
export function toggleSidebar(isMobile: boolean): void {
  if (isMobile) ui.mobileNavOpen = !ui.mobileNavOpen;
  else setSidebarOpen(!ui.sidebarOpen);
}

export function setMobileNavOpen(open: boolean): void {
  ui.mobileNavOpen = open;
}

export function markNotificationsRead(ids: readonly string[]): void {
  ui.readNotificationIds = Array.from(new Set([...ui.readNotificationIds, ...ids]));
}

/** The collection this person's new results go into on this device ("" or null: none), remembered. */
export function setResultsCollection(
  userId: string,
  collectionId: string | null,
  storage: Storage | undefined = globalThis.localStorage,
): void {
  const next = { ...ui.resultsCollections };
  if (collectionId) next[userId] = collectionId;
  else delete next[userId];
  ui.resultsCollections = next;
  try {
    storage?.setItem(RESULTS_COLLECTION_KEY, JSON.stringify(next));
  } catch {
    // Private modes may refuse storage; the choice still holds for this visit.
  }
}
