// The left navigation: a sticky rail on desktop (expanded, or collapsed to icons with the choice in
// a cookie) and a modal drawer below 768 px. Ctrl/Cmd+B toggles whichever applies.
import { useEffect, useId, useRef } from "react";
import { useSnapshot } from "valtio";
import { Link, useLocation } from "wouter";
import { Icon, Logo } from "../../ui/icons";
import { setMobileNavOpen, toggleSidebar, ui } from "../../state/ui-store";
import { NAV_GROUPS, isActive } from "./nav-items";
import { useIsMobile } from "./use-is-mobile";

function NavList({ collapsed, onNavigate }: { collapsed: boolean; onNavigate?: () => void }) {
  const [location] = useLocation();
  const idPrefix = useId();
  return (
    <>
      {NAV_GROUPS.map((group) => (
        <div key={group.label} className="mb-4">
          <h2
            id={`${idPrefix}-${group.label.toLowerCase()}`}
            className={
              collapsed ? "sr-only" : "px-3 pb-1 text-xs font-semibold tracking-wider text-base-content/70 uppercase"
            }
          >
            {group.label}
          </h2>
          <ul aria-labelledby={`${idPrefix}-${group.label.toLowerCase()}`} className="flex flex-col gap-0.5">
            {group.items.map((item) => {
              const active = isActive(item.to, location);
              return (
                <li key={item.to}>
                  <Link
                    to={item.to}
                    aria-current={active ? "page" : undefined}
                    title={collapsed ? item.label : undefined}
                    onClick={onNavigate}
                    className={`flex items-center gap-3 rounded-field py-2 text-sm font-medium transition-colors ${
                      collapsed ? "justify-center px-2" : "px-3"
                    } ${active ? "bg-primary text-primary-content" : "text-base-content hover:bg-base-300/60"}`}
                  >
                    <Icon name={item.icon} className="size-5 shrink-0" />
                    <span className={collapsed ? "sr-only" : "truncate"}>{item.label}</span>
                  </Link>
                </li>
              );
            })}
          </ul>
        </div>
      ))}
    </>
  );
}

function Brand({ collapsed }: { collapsed: boolean }) {
  return (
    <Link to="/" className="flex items-center gap-2 rounded-field px-1 py-1 font-bold" aria-label="PromptCanvas home">
      <Logo className="size-8 shrink-0" />
      {!collapsed && <span className="text-lg tracking-tight">PromptCanvas</span>}
    </Link>
  );
}

export function DesktopSidebar() {
  const { sidebarOpen } = useSnapshot(ui);
  const collapsed = !sidebarOpen;
  return (
    <aside
      aria-label="Sidebar"
      className={`sticky top-0 hidden h-dvh shrink-0 flex-col border-r border-base-300 bg-base-200 transition-[width] duration-200 md:flex ${
        collapsed ? "w-[4.5rem]" : "w-64"
      }`}
    >
      <div className={`flex h-16 items-center ${collapsed ? "justify-center" : "px-4"}`}>
        <Brand collapsed={collapsed} />
      </div>
      <nav aria-label="Main" className="flex-1 overflow-y-auto px-3 py-2">
        <NavList collapsed={collapsed} />
      </nav>
      <div className={`border-t border-base-300 p-3 ${collapsed ? "flex justify-center" : ""}`}>
        <button
          type="button"
          className={`btn btn-ghost btn-sm ${collapsed ? "btn-square" : "w-full justify-start"}`}
          aria-label={collapsed ? "Expand sidebar" : "Collapse sidebar"}
          aria-keyshortcuts="Control+B Meta+B"
          title="Toggle sidebar (Ctrl/Cmd+B)"
          onClick={() => toggleSidebar(false)}
        >
          <Icon name="panel" className="size-5" />
          {!collapsed && <span>Collapse</span>}
        </button>
      </div>
    </aside>
  );
}

export function MobileNavDrawer() {
  const { mobileNavOpen } = useSnapshot(ui);
  const isMobile = useIsMobile();
  const panelRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const open = mobileNavOpen && isMobile;

  useEffect(() => {
    if (!open) return;
    const opener = document.activeElement as HTMLElement | null;
    closeRef.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") {
        e.preventDefault();
        setMobileNavOpen(false);
      } else if (e.key === "Tab" && panelRef.current) {
        // Keep focus inside the drawer while it is open.
        const focusables = panelRef.current.querySelectorAll<HTMLElement>("a[href], button:not([disabled])");
        const first = focusables[0];
        const last = focusables[focusables.length - 1];
        if (e.shiftKey && document.activeElement === first) {
          e.preventDefault();
          last.focus();
        } else if (!e.shiftKey && document.activeElement === last) {
          e.preventDefault();
          first.focus();
        }
      }
    };
    document.addEventListener("keydown", onKey);
    const overflow = document.body.style.overflow;
    document.body.style.overflow = "hidden";
    return () => {
      document.removeEventListener("keydown", onKey);
      document.body.style.overflow = overflow;
      opener?.focus();
    };
  }, [open]);

  if (!open) return null;
  return (
    <div className="fixed inset-0 z-50 md:hidden">
      <div className="absolute inset-0 bg-black/50" aria-hidden="true" onClick={() => setMobileNavOpen(false)} />
      <div
        ref={panelRef}
        role="dialog"
        aria-modal="true"
        aria-label="Navigation"
        className="absolute inset-y-0 left-0 flex w-72 max-w-[85vw] flex-col bg-base-200 shadow-2xl"
      >
        <div className="flex h-16 items-center justify-between px-4">
          <Brand collapsed={false} />
          <button
            ref={closeRef}
            type="button"
            className="btn btn-ghost btn-square btn-sm"
            aria-label="Close navigation"
            onClick={() => setMobileNavOpen(false)}
          >
            <Icon name="close" />
          </button>
        </div>
        <nav aria-label="Main" className="flex-1 overflow-y-auto px-3 py-2">
          <NavList collapsed={false} onNavigate={() => setMobileNavOpen(false)} />
        </nav>
      </div>
    </div>
  );
}

/** Ctrl+B (Cmd+B on macOS) toggles the sidebar, as in docs/spec.md §9. */
export function useSidebarShortcut(): void {
  const isMobile = useIsMobile();
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === "b") {
        e.preventDefault();
        toggleSidebar(isMobile);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [isMobile]);
}
