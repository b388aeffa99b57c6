// Runs once, in the app's first commit: clears the marks the prerendered HTML carries (so the guard
// CSS no longer hides the root) and then starts the browser-only state that had to wait until the
// prerendered markup was hydrated (theme, sidebar and session from storage).
import { useLayoutEffect } from "react";

export function PrerenderHandoff({ onReady }: { onReady?: () => void }) {
  useLayoutEffect(() => {
    document.getElementById("root")?.removeAttribute("data-ssr");
    document.documentElement.removeAttribute("data-route-mismatch");
    onReady?.();
    // Runs once: onReady starts app-wide state that must not start twice.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a new onReady must not start it again
  }, []);
  return null;
}
