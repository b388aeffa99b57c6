// The router: one <Route> per entry of the route table, each page's code loaded on demand,
// protected pages behind RequireSession, and the 404 page for every other path.
import { lazy, Suspense, useEffect, type ComponentType, type ErrorInfo, type LazyExoticComponent } from "react";
import { Route, Switch, useLocation } from "wouter";
import { RequireSession } from "../features/auth/require-session";
import { Loading } from "../ui/loading";
import { ErrorBoundary } from "./error-boundary";
import { ROUTES, documentTitle, type PageKey, type RouteEntry } from "./route-table";

// Pages take different props (pageProps below supplies them), so the table holds them untyped.
type Page = LazyExoticComponent<ComponentType<any>>;

const PAGES: Record<PageKey, Page> = {
  home: lazy(() => import("../features/marketing/home-page")),
  gallery: lazy(() => import("../features/gallery/gallery-page")),
  dashboard: lazy(() => import("../features/dashboard/dashboard-page")),
  account: lazy(() => import("../features/settings/account-page")),
  auth: lazy(() => import("../features/auth/auth-page")),
  resetPassword: lazy(() => import("../features/auth/reset-password-page")),
  siteMap: lazy(() => import("../features/site/site-map-page")),
  domainDiagnostics: lazy(() => import("../features/site/domain-diagnostics-page")),
  paymentSuccess: lazy(() => import("../features/billing/payment-result-page").then((m) => ({ default: m.PaymentSuccessPage }))),
  paymentCanceled: lazy(() =>
    import("../features/billing/payment-result-page").then((m) => ({ default: m.PaymentCanceledPage })),
  ),
  comingNext: lazy(() => import("../ui/coming-next").then((m) => ({ default: m.ComingNext }))),
};

const NotFoundPage = lazy(() => import("../features/shell/not-found-page"));

const SITE_MAP_ENTRIES = ROUTES.filter((r) => r.path !== "/reset-password");

function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = documentTitle(title);
  }, [title]);
}

function pageProps(entry: RouteEntry): Record<string, unknown> {
  if (entry.page === "comingNext") return { title: entry.title, ...entry.comingNext };
  if (entry.page === "siteMap") return { entries: SITE_MAP_ENTRIES };
  return {};
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
