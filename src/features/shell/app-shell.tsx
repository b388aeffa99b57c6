// The frame around every page (docs/spec.md §2): skip link, development banner, sidebar or drawer, top bar,
// main region, footer and notices. The account control comes from the auth feature via `account`.
import { useEffect, useRef, type ReactNode } from "react";
import { useSnapshot } from "valtio";
import { useLocation } from "wouter";
import { loadUnseenFinished, unseenFinished } from "../../state/toasts";
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

/** "(3) Generate · PromptCanvas": finished work not yet seen, in front of whatever title a page sets. */
function useUnseenTitleCount(): void {
  const { count } = useSnapshot(unseenFinished);
  useEffect(() => {
    loadUnseenFinished();
    const onStorage = () => loadUnseenFinished(); // another tab counted or cleared
    window.addEventListener("storage", onStorage);
    return () => window.removeEventListener("storage", onStorage);
  }, []);
  useEffect(() => {
    const apply = () => {
      const base = document.title.replace(/^\(\d+\) /, "");
      const next = count > 0 ? `(${count}) ${base}` : base;
      if (document.title !== next) document.title = next;
    };
    apply();
    // Pages set their own titles after navigating: put the count back in front.
    const title = document.querySelector("title");
    if (!title) return;
    const observer = new MutationObserver(apply);
    observer.observe(title, { childList: true, characterData: true, subtree: true });
    return () => observer.disconnect();
  }, [count]);
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
  useUnseenTitleCount();
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
