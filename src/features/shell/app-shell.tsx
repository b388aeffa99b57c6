// The frame around every page (spec §2): skip link, development banner, sidebar or drawer, top bar,
// main region, footer and notices. The account control comes from the auth feature via `account`.
import { useEffect, useRef, type ReactNode } from "react";
import { useLocation } from "wouter";
import { Toaster } from "../../ui/toaster";
import { DevBanner } from "./dev-banner";
import { ScrollToTop } from "./scroll-to-top";
import { DesktopSidebar, MobileNavDrawer, useSidebarShortcut } from "./sidebar";
import { SiteFooter } from "./site-footer";
import { TopBar } from "./top-bar";

/** After a client-side navigation, start at the top and put focus on the new page's content. */
function useFocusOnNavigate(): void {
  const [location] = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    window.scrollTo(0, 0);
    document.getElementById("main")?.focus({ preventScroll: true });
  }, [location]);
}

export function AppShell({
  account,
  actions,
  children,
}: {
  account: ReactNode;
  /** Extra top-bar controls from other features (the install button). */
  actions?: ReactNode;
  children: ReactNode;
}) {
  const [location] = useLocation();
  useSidebarShortcut();
  useFocusOnNavigate();
  return (
    <>
      <a href="#main" className="btn btn-primary btn-sm fixed top-2 left-2 z-[70] -translate-y-20 focus:translate-y-0">
        Skip to main content
      </a>
      <div className="flex min-h-dvh">
        <DesktopSidebar />
        <MobileNavDrawer />
        <div className="flex min-w-0 flex-1 flex-col">
          <DevBanner />
          <TopBar account={account} actions={actions} />
          <main id="main" tabIndex={-1} className="flex-1 px-4 py-6 outline-none sm:px-6 lg:px-8 lg:py-10">
            {children}
            {location === "/" && <ScrollToTop />}
          </main>
          <SiteFooter />
        </div>
      </div>
      <Toaster />
    </>
  );
}
