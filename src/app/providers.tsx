// App-wide listeners that belong to no single screen: the system theme (followed until a person
// picks one) and a theme-color meta tag that matches the page; and the generation runtime (the
// signed-in user's queue, published by src/app/queue-runtime.ts once the session loads) for views.
import { useEffect, type ReactNode } from "react";
import { useSnapshot } from "valtio";
import { GenerationProvider, usePublishedGenerationRuntime } from "../features/generation/generation-runtime";
import { systemThemeChanged, ui } from "../state/ui-store";
import { LargeViewToolsProvider } from "../ui/large-view-tools";
import { SelectionToolsProvider } from "../ui/selection-tools";
import { LARGE_VIEW_TOOLS, SELECTION_TOOLS } from "./large-view-tools";

const THEME_COLOR = { light: "#ffffff", dark: "#1d232a" } as const;

export function Providers({ children }: { children: ReactNode }) {
  const { theme } = useSnapshot(ui);
  const generation = usePublishedGenerationRuntime();

  useEffect(() => {
    const list = window.matchMedia("(prefers-color-scheme: dark)");
    const onChange = () => systemThemeChanged(list.matches ? "dark" : "light");
    list.addEventListener("change", onChange);
    return () => list.removeEventListener("change", onChange);
  }, []);

  useEffect(() => {
    document.querySelectorAll('meta[name="theme-color"]').forEach((m) => {
      m.setAttribute("content", THEME_COLOR[theme]);
    });
  }, [theme]);

  return (
    <GenerationProvider runtime={generation}>
      <LargeViewToolsProvider tools={LARGE_VIEW_TOOLS}>
        <SelectionToolsProvider tools={SELECTION_TOOLS}>{children}</SelectionToolsProvider>
      </LargeViewToolsProvider>
    </GenerationProvider>
  );
}
