// A page loaded on demand that can also be loaded ahead of its first render. main.tsx preloads the
// current route's page before mounting, so the first render draws the page the prerendered HTML
// showed (hydration needs exactly that) instead of a "Loading…" fallback; the prerenderer waits for
// it too. Like React.lazy, a failed load is rendered as that error (the router's error screen).
// The router says here how a page is loaded ahead (setPageLoader), so code outside the main chunk (the
// signed-in person's pages loaded in idle time, src/app/page-preload.ts) loads the router's own pages
// without importing the router.
import { createElement, type ComponentType } from "react";
import type { PageKey } from "./route-table";

// Pages take different props (the route table supplies them), so the module's component is untyped.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each page declares its own props
export type PageModule = { default: ComponentType<any> };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as above: the route table decides the props
export type LazyPage = ComponentType<any> & {
  preload(): Promise<PageModule>;
  /** Whether the page's code is here, so it draws in its first render. */
  loaded(): boolean;
};

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
  return Object.assign(Page, { preload, loaded: () => loaded !== undefined });
}

let pageLoader: ((page: PageKey) => Promise<unknown>) | undefined;

/** The router's way to load a page ahead (it sets it as it loads). */
export function setPageLoader(load: (page: PageKey) => Promise<unknown>): void {
  pageLoader = load;
}

/** Loads a page's code ahead, as the router would load it (nothing before the router is loaded). */
export function loadPageAhead(page: PageKey): Promise<unknown> {
  return pageLoader?.(page) ?? Promise.resolve();
}
