import { Suspense, lazy } from "react";
import { appConfig } from "../../api/config";
import { showsDevelopmentBanner } from "../../lib/host-policy";
import { useHydrated } from "../../lib/use-hydrated";

const DevBannerText = lazy(() => import("./dev-banner-text"));

export function DevBanner() {
  // Prerendered pages are built without a host; the banner appears once the page is live.
  const hydrated = useHydrated();
  if (!hydrated) return null;
  const { productionHost } = appConfig();
  const host = window.location.hostname;
  if (!showsDevelopmentBanner(host, productionHost)) return null;
  return (
    <Suspense fallback={null}>
      <DevBannerText host={host} productionHost={productionHost} />
    </Suspense>
  );
}
