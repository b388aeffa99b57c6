// The router: one <Route> per entry of the route table, each page's code loaded on demand,
// protected pages behind RequireSession, and the 404 page for every other path.
import { Suspense, createElement, useEffect, useRef, type ComponentType, type ErrorInfo } from "react";
import { Route, Switch, useLocation } from "wouter";
import { RequireSession } from "../features/auth/require-session";
import { Loading } from "../ui/loading";
import { ErrorBoundary } from "./error-boundary";
import { lazyPage, type LazyPage } from "./lazy-page";
import { ROUTES, documentTitle, type PageKey, type RouteEntry } from "./route-table";

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
  home: lazyPage(() => import("../features/marketing/home-page")),
  generate: lazyPage(() =>
    Promise.all([
      import("../features/generation/generate-page"),
      import("../features/quota/components/rate-limit-alert"),
    ]).then(([page, quota]) => ({
      default: () => createElement(page.default, { limitAlert: createElement(quota.RateLimitAlert) }),
    })),
  ),
  gallery: lazyPage(() => import("../features/gallery/gallery-page")),
  // Usage and plans come from the quota and marketing features, handed in here (features do not import each other).
  dashboard: lazyPage(() =>
    Promise.all([import("../features/dashboard/dashboard-page"), import("../features/quota/use-quota")]).then(
      ([page, quota]) => ({
        default: () =>
          createElement(page.default, { quota: { useLimits: quota.useLimits, useCountdown: quota.useCountdown } }),
      }),
    ),
  ),
  history: lazyPage(() => import("../features/library/history-page")),
  saved: lazyPage(() => import("../features/library/saved-page")),
  billing: lazyPage(() =>
    Promise.all([import("../features/billing/billing-page"), import("../features/marketing/plans")]).then(
      ([page, plans]) => ({
        default: () => createElement(page.default, { plans: plans.PLANS, notice: plans.SUBSCRIPTION_NOTICE }),
      }),
    ),
  ),
  account: lazyPage(() => import("../features/settings/account-page")),
  auth: lazyPage(() => import("../features/auth/auth-page")),
  resetPassword: lazyPage(() => import("../features/auth/reset-password-page")),
  siteMap: lazyPage(() => import("../features/site/site-map-page")),
  domainDiagnostics: lazyPage(() => import("../features/site/domain-diagnostics-page")),
  paymentSuccess: lazyPage(() =>
    import("../features/billing/payment-result-page").then((m) => ({ default: m.PaymentSuccessPage })),
  ),
  paymentCanceled: lazyPage(() =>
    import("../features/billing/payment-result-page").then((m) => ({ default: m.PaymentCanceledPage })),
  ),
  pricing: lazyPage(() => import("../features/marketing/pricing-page")),
  faq: lazyPage(() => import("../features/marketing/faq-page")),
  landing: lazyPage(() => import("../features/marketing/landing-page")),
  blog: lazyPage(() => import("../features/content/blog/blog-index-page")),
  postCompleteGuide: lazyPage(() => import("../features/content/blog/complete-guide-post")),
  postStylesGuide: lazyPage(() => import("../features/content/blog/styles-guide-post")),
  postMasterclass: lazyPage(() => import("../features/content/blog/prompt-masterclass-post")),
  prompts: lazyPage(() => import("../features/content/prompts/prompts-page")),
  promptLibrary: lazyPage(() => import("../features/content/prompts/prompt-library-page")),
  templates: lazyPage(() => import("../features/content/templates/templates-page")),
  templatesLibrary: lazyPage(() => import("../features/content/templates/templates-library-page")),
  styles: lazyPage(() => import("../features/content/styles/styles-page")),
  stylesLibrary: lazyPage(() => import("../features/content/styles/styles-library-page")),
  styleDetail: lazyPage(() => import("../features/content/styles/style-detail-page")),
  advanced: lazyPage(() => import("../features/content/advanced/advanced-page")),
  tutorials: lazyPage(() => import("../features/content/tutorials-page")),
  privacy: lazyPage(() => import("../features/content/legal/privacy-page")),
  terms: lazyPage(() => import("../features/content/legal/terms-page")),
  contentPolicy: lazyPage(() => import("../features/content/legal/content-policy-page")),
  textEffects: lazyPage(() => import("../features/content/tools/text-effects-page")),
  audio: lazyPage(() => import("../features/content/tools/audio-page")),
  moreTools: lazyPage(() => import("../features/content/tools/more-tools-page")),
  comingNext: lazyPage(() => import("../ui/coming-next").then((m) => ({ default: m.ComingNext }))),
};

const NotFoundPage = lazyPage(() => import("../features/shell/not-found-page"));

/** The route-table entry that draws `path`, or undefined for the 404 page. */
export function routeFor(path: string): RouteEntry | undefined {
  const clean = path.length > 1 ? path.replace(/\/+$/, "") : path;
  return ROUTES.find((r) => r.path === clean);
}

/** Loads the code of the page at `path`, so the first render needs no fallback. */
export function preloadRoute(path: string): Promise<unknown> {
  const entry = routeFor(path);
  return (entry ? PAGES[entry.page] : NotFoundPage).preload();
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

function RouteView({ entry }: { entry: RouteEntry }) {
  useDocumentTitle(entry.title);
  const PageComponent = PAGES[entry.page];
  const content = (
    <Suspense fallback={<Loading label="Loading…" />}>
      <PageComponent {...pageProps(entry)} />
    </Suspense>
  );
  return entry.access === "protected" ? <RequireSession>{content}</RequireSession> : content;
}

function NotFoundView() {
  useDocumentTitle("Page Not Found");
  return (
    <Suspense fallback={<Loading label="Loading…" />}>
      <NotFoundPage />
    </Suspense>
  );
}

export function AppRoutes({ onError }: { onError: (error: unknown, info: ErrorInfo) => void }) {
  const [location] = useLocation();
  useHeadMeta(location, routeFor(location));
  return (
    <ErrorBoundary resetKey={location} onError={onError}>
      <Switch>
        {ROUTES.map((entry) => (
          <Route key={entry.path} path={entry.path}>
            <RouteView entry={entry} />
          </Route>
        ))}
        <Route>
          <NotFoundView />
        </Route>
      </Switch>
    </ErrorBoundary>
  );
}
