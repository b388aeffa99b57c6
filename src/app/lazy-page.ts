// A page loaded on demand that can also be loaded ahead of its first render. main.tsx preloads the
// current route's page before mounting, so the first render draws the page the prerendered HTML
// showed (hydration needs exactly that) instead of a "Loading…" fallback; the prerenderer waits for
// it too. Like React.lazy, a failed load is rendered as that error (the router's error screen).
import { createElement, type ComponentType } from "react";

// Pages take different props (the route table supplies them), so the module's component is untyped.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each page declares its own props
export type PageModule = { default: ComponentType<any> };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above: the route table decides the props
export type LazyPage = ComponentType<any> & { preload(): Promise<PageModule> };

export function lazyPage(load: () => Promise<PageModule>): LazyPage {
  let loaded: PageModule | undefined;
  let failed: { error: unknown } | undefined;
  let pending: Promise<PageModule> | undefined;
  const preload = () =>
    (pending ??= load().then(
      (m) => (loaded = m),
      (error: unknown) => {
        failed = { error };
        throw error;
      },
    ));
  function Page(props: Record<string, unknown>) {
    if (loaded) return createElement(loaded.default, props);
    if (failed) throw failed.error;
    // Suspends the way React.lazy does until the module is here.
    throw preload();
  }
  return Object.assign(Page, { preload });
}
