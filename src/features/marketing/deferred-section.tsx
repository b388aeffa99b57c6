// Home page sections below the first screen, whose code waits until they near the viewport (the home
// page's first load stays within its 100 KB gzip budget). Over prerendered markup React keeps the
// server's HTML for a boundary that suspends while hydrating, and hydrates it once the code is here;
// drawn afresh (a client-side visit) or on the prerenderer, the code loads at once.
import { Suspense, lazy, type ComponentType } from "react";

/** Resolves once the prerendered element `id` is within half a screen of the viewport (at once without one). */
function nearViewport(id: string): Promise<void> {
  const element = typeof document === "undefined" ? null : document.getElementById(id);
  if (!element || typeof IntersectionObserver === "undefined") return Promise.resolve();
  return new Promise((resolve) => {
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        observer.disconnect();
        resolve();
      },
      { rootMargin: "50% 0px" },
    );
    observer.observe(element);
  });
}

/** The content of the section `id`, loaded by `load` when that section nears the viewport. */
export function deferred(id: string, load: () => Promise<ComponentType>): ComponentType {
  const Content = lazy(() =>
    nearViewport(id)
      .then(load)
      .then((component) => ({ default: component })),
  );
  return function DeferredSection() {
    return (
      <Suspense fallback={null}>
        <Content />
      </Suspense>
    );
  };
}
