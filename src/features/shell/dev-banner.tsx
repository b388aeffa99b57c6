import { appConfig } from "../../api/config";
import { showsDevelopmentBanner } from "../../lib/host-policy";
import { useHydrated } from "../../lib/use-hydrated";

export function DevBanner() {
  // Prerendered pages are built without a host; the banner appears once the page is live.
  const hydrated = useHydrated();
  if (!hydrated) return null;
  const { productionHost } = appConfig();
  const host = window.location.hostname;
  if (!showsDevelopmentBanner(host, productionHost)) return null;
  return (
    <section
      aria-label="Development mode"
      className="bg-warning px-4 py-1.5 text-center text-xs font-medium text-warning-content sm:text-sm"
    >
      Development mode: you are on <span className="font-semibold">{host}</span>
      {productionHost ? (
        <>
          , not <span className="font-semibold">{productionHost}</span>
        </>
      ) : null}
      . Data here is for trying things out.
    </section>
  );
}
