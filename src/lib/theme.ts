// The theme choice: remembered in localStorage once a person picks one; until then, the system's.
// index.html applies the same rule inline before the first paint, under the same key.

export type Theme = "light" | "dark";

export const THEME_STORAGE_KEY = "promptcanvas.theme";

export function readSavedTheme(storage: Pick<Storage, "getItem"> | undefined): Theme | null {
  try {
    const value = storage?.getItem(THEME_STORAGE_KEY);
    return value === "light" || value === "dark" ? value : null;
  } catch {
    return null;
  }
}

export function saveTheme(storage: Pick<Storage, "setItem"> | undefined, theme: Theme): void {
  try {
    storage?.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Private modes may refuse storage; the theme still applies for this visit.
  }
}

export function systemTheme(matchMedia: ((q: string) => MediaQueryList) | undefined): Theme {
  return matchMedia?.("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}
