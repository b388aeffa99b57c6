// The router: one <Route> per entry of the route table, each page's code loaded on demand,
// protected pages behind RequireSession, and the 404 page for every other path.
import { Suspense, createElement, useEffect, useRef, useState, type ComponentType, type ErrorInfo } from "react";
import { Route, Switch, useLocation } from "wouter";
import { RequireSession } from "../features/auth/require-session";
import { Loading } from "../ui/loading";
import { ErrorBoundary } from "./error-boundary";
import { lazyPage, setPageLoader, type LazyPage, type PageModule } from "./lazy-page";
import {
  EXTRA_ROUTES,
  NOT_FOUND_MODULE,
  PAGE_MODULES,
  ROUTES,
  documentTitle,
  matchesRoute,
  type PageKey,
  type RouteEntry,
} from "./route-table";

// Every module a page may load, as Vite's on-demand loaders (a chunk each, as a literal import()
// gives). The route table's PAGE_MODULES says which of them each page needs; the prerenderer reads
// the same table to preload a page's chunks.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- modules differ; each page's composition below names what it uses
type AnyModule = Record<string, any>;
const MODULES = import.meta.glob<AnyModule>([
  "../features/*/*-page.tsx",
  "../features/*/*/*-page.tsx",
  "../features/content/blog/*-post.tsx",
  "../features/quota/use-quota.ts",
  "../features/quota/components/rate-limit-alert.tsx",
  "../features/marketing/plans.ts",
  "../ui/coming-next.tsx",
  "../features/library/{generation-grid,selection-bar,open-generation,library-filters}.tsx",
]);

/** A page module, once what it names as its `preload` (code its first screen draws) is here too. */
function loadModule(file: string): Promise<AnyModule> {
  const load = MODULES[`../${file}`];
  if (!load) return Promise.reject(new Error(`routes: src/${file} is not among the page modules`));
  return load().then(async (m) => {
    if (typeof m.preload === "function") await (m.preload as () => Promise<void>)();
    return m;
  });
}

/** The modules of a page, in the route table's order (the page first). */
function pageModules(key: PageKey): Promise<AnyModule[]> {
  return Promise.all(PAGE_MODULES[key].map(loadModule));
}

/** A page that is its module's default export. */
function page(key: PageKey): LazyPage {
  return lazyPage(() => pageModules(key).then(([m]) => m as PageModule));
}

// The generator with the quota alert composed in here, since features do not import each other.
// The home page's #generator section loads the same generator when that section nears the viewport.
function loadGenerator(): Promise<{ default: ComponentType }> {
  return Promise.all([
    import("../features/generation/components/generator"),
    import("../features/quota/components/rate-limit-alert"),
  ]).then(([g, quota]) => ({
    default: () => createElement(g.Generator, { limitAlert: createElement(quota.RateLimitAlert) }),
  }));
}

const PAGES: Record<PageKey, LazyPage> = {
  home: page("home"),
  generate: lazyPage(() =>
    pageModules("generate").then(([page, quota]) => ({
      default: () => createElement(page.default, { limitAlert: createElement(quota.RateLimitAlert) }),
    })),
  ),
  gallery: page("gallery"),
  // Usage and plans come from the quota and marketing features, handed in here (features do not import each other).
  dashboard: lazyPage(() =>
    pageModules("dashboard").then(([page, quota]) => ({
      default: () =>
        createElement(page.default, { quota: { useLimits: quota.useLimits, useCountdown: quota.useCountdown } }),
    })),
  ),
  history: page("history"),
  saved: page("saved"),
  billing: lazyPage(() =>
    pageModules("billing").then(([page, plans]) => ({
      default: () => createElement(page.default, { plans: plans.PLANS, notice: plans.SUBSCRIPTION_NOTICE }),
    })),
  ),
  account: page("account"),
  auth: page("auth"),
  resetPassword: page("resetPassword"),
  siteMap: page("siteMap"),
  domainDiagnostics: page("domainDiagnostics"),
  status: page("status"),
  paymentSuccess: lazyPage(() => pageModules("paymentSuccess").then(([m]) => ({ default: m.PaymentSuccessPage }))),
  paymentCanceled: lazyPage(() => pageModules("paymentCanceled").then(([m]) => ({ default: m.PaymentCanceledPage }))),
  pricing: page("pricing"),
  faq: page("faq"),
  landing: page("landing"),
  blog: page("blog"),
  postCompleteGuide: page("postCompleteGuide"),
  postStylesGuide: page("postStylesGuide"),
  postMasterclass: page("postMasterclass"),
  prompts: page("prompts"),
  promptLibrary: page("promptLibrary"),
  templates: page("templates"),
  templatesLibrary: page("templatesLibrary"),
  styles: page("styles"),
  stylesLibrary: page("stylesLibrary"),
  styleDetail: page("styleDetail"),
  advanced: page("advanced"),
  tutorials: page("tutorials"),
  privacy: page("privacy"),
  terms: page("terms"),
  contentPolicy: page("contentPolicy"),
  textEffects: page("textEffects"),
  audio: page("audio"),
  moreTools: page("moreTools"),
  comingNext: lazyPage(() => pageModules("comingNext").then(([m]) => ({ default: m.ComingNext }))),
  galleryImage: page("galleryImage"),
  moderation: page("moderation"),
  compare: page("compare"),
  // The library's parts a collection draws with, handed in here (features do not import each other).
  collections: lazyPage(() =>
    pageModules("collections").then(([page, filters]) => ({
      default: () => createElement(page.default, { parts: { FilterFields: filters.FilterFields } }),
    })),
  ),
  collection: lazyPage(() =>
    pageModules("collection").then(([page, grid, bar, open, filters]) => {
      const parts = {
        Grid: grid.GenerationGrid,
        SelectionBar: bar.SelectionBar,
        OpenGeneration: open.OpenGeneration,
        FilterFields: filters.FilterFields,
      };
      return { default: () => createElement(page.default, { parts }) };
    }),
  ),
};

const NotFoundPage = lazyPage(() => loadModule(NOT_FOUND_MODULE) as Promise<PageModule>);

setPageLoader((key) => PAGES[key].preload());

/** Every route the router draws: the spec's, then the pages beyond it. */
const ALL_ROUTES: readonly RouteEntry[] = [...ROUTES, ...EXTRA_ROUTES];

/** The route-table entry that draws `path`, or undefined for the 404 page. */
export function routeFor(path: string): RouteEntry | undefined {
  const clean = path.length > 1 ? path.replace(/\/+$/, "") : path;
  return ROUTES.find((r) => r.path === clean) ?? EXTRA_ROUTES.find((r) => matchesRoute(r, clean));
}

/** The page that draws `path`. */
function pageFor(path: string): LazyPage {
  const entry = routeFor(path);
  return entry ? PAGES[entry.page] : NotFoundPage;
}

/** Loads the code of the page at `path`, so the first render needs no fallback. */
export function preloadRoute(path: string): Promise<unknown> {
  return pageFor(path).preload();
}

const SITE_MAP_ENTRIES = ROUTES.filter((r) => r.path !== "/reset-password");

function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = documentTitle(title);
  }, [title]);
}

function pageProps(entry: RouteEntry): Record<string, unknown> {
  if (entry.page === "comingNext") return { title: entry.title, ...entry.comingNext };
  if (entry.page === "siteMap") return { entries: SITE_MAP_ENTRIES };
  if (entry.page === "home") return { loadGenerator };
  // The not-found page is handed in (features do not import each other): a published image that is
  // not in the gallery, and the moderation page for anyone but an operator, draw it.
  if (entry.page === "galleryImage" || entry.page === "moderation") {
    return { notFound: NotFoundView, documentTitle, title: entry.title };
  }
  return { ...entry.props };
}

/**
 * Keeps the head (description, canonical, Open Graph, robots, structured data) in line with the
 * page. A prerendered page arrives with the right head, so the first render leaves it alone; after a
 * client-side navigation, or when the HTML was prerendered for another path (the offline or SPA
 * fallback), the head is rebuilt from route-meta (loaded on demand).
 */
function useHeadMeta(path: string, entry: RouteEntry | undefined): void {
  const first = useRef(true);
  useEffect(() => {
    const wasFirst = first.current;
    first.current = false;
    if (wasFirst && document.documentElement.getAttribute("data-prerendered") === path) return;
    let stale = false;
    void import("./route-meta").then((m) => {
      if (!stale) m.applyRouteHead(document, path, entry);
    });
    return () => {
      stale = true;
    };
  }, [path, entry]);
}

function RouteView({ entry, leaving }: { entry: RouteEntry; leaving: boolean }) {
  // An operator's page names itself only once it knows its reader is one (it sets the title then).
  useDocumentTitle(entry.access === "operator" ? "Page Not Found" : entry.title);
  const PageComponent = PAGES[entry.page];
  const content = (
    <Suspense fallback={<Loading label="Loading…" />}>
      <PageComponent {...pageProps(entry)} />
    </Suspense>
  );
  return entry.access === "protected" ? <RequireSession leaving={leaving}>{content}</RequireSession> : content;
}

function NotFoundView() {
  useDocumentTitle("Page Not Found");
  return (
    <Suspense fallback={<Loading label="Loading…" />}>
      <NotFoundPage />
    </Suspense>
  );
}

/**
 * The path whose page is drawn: after a navigation, the new path once its page's code is here. A page
 * that suspended would show the "Loading…" fallback, and React holds content back for 300 ms after a
 * fallback appears (its throttle for revealing Suspense content): a click on History took 360 ms to
 * draw a page whose code had arrived after 20 (bench/history-bench.mjs). Until then the old page
 * stays, as a link followed in a browser does.
 */
function useShownPath(location: string): string {
  const [shown, setShown] = useState(location);
  // A page whose code is here already (loaded ahead, or shown before) is drawn in the navigation's own
  // render: waiting for its load's promise would draw the old page again first, and the new one a task
  // or more later (bench/collections-bench.mjs).
  const ready = shown !== location && pageFor(location).loaded();
  useEffect(() => {
    if (shown === location) return;
    if (ready) {
      setShown(location);
      return;
    }
    let live = true;
    const show = () => {
      if (live) setShown(location);
    };
    preloadRoute(location).then(show, show);
    return () => {
      live = false;
    };
  }, [location, shown, ready]);
  return ready ? location : shown;
}

export function AppRoutes({ onError }: { onError: (error: unknown, info: ErrorInfo) => void }) {
  const [location] = useLocation();
  const shown = useShownPath(location);
  const target = routeFor(location);
  // An operator's page has the not-found page's head: nothing in it tells that the page exists.
  useHeadMeta(location, target?.access === "operator" ? undefined : target);
  return (
    <ErrorBoundary resetKey={shown} onError={onError}>
      <Switch location={shown}>
        {ALL_ROUTES.map((entry) => (
          <Route key={entry.path} path={entry.path}>
            <RouteView entry={entry} leaving={target !== entry} />
          </Route>
        ))}
        <Route>
          <NotFoundView />
        </Route>
      </Switch>
    </ErrorBoundary>
  );
}
