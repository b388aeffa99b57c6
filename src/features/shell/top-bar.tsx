import type { ReactNode } from "react";
import { useSnapshot } from "valtio";
import { Link } from "wouter";
import { Icon, Logo } from "../../ui/icons";
import { setMobileNavOpen, ui } from "../../state/ui-store";
import { NotificationsMenu } from "./notifications-menu";
import { SearchBox } from "./search-box";
import { ThemeToggle } from "./theme-toggle";

export function TopBar({ account, actions }: { account: ReactNode; actions?: ReactNode }) {
  const { mobileNavOpen } = useSnapshot(ui);
  return (
    // Opaque, with no backdrop blur: a blurred see-through bar makes the compositor blur what scrolls
    // under it on every frame of a scroll, which without a GPU took most of a core (docs/decisions/055-nothing-repaints-or-loads-that-is-not-needed.md).
    <header className="sticky top-0 z-40 border-b border-base-300 bg-base-100">
      <div className="flex h-16 items-center gap-2 px-3 sm:px-4">
        <button
          type="button"
          className="btn btn-ghost btn-square md:hidden"
          aria-label="Open navigation"
          aria-expanded={mobileNavOpen}
          aria-keyshortcuts="Control+B Meta+B"
          onClick={() => setMobileNavOpen(true)}
        >
          <Icon name="menu" />
        </button>
        <Link to="/" className="flex items-center gap-2 font-bold md:hidden" aria-label="PromptCanvas home">
          <Logo className="size-7" />
          {/* The wordmark only where the bar has room for it: at 412 px the buttons pushed "Sign in" off the screen. */}
          <span className="hidden tracking-tight min-[440px]:inline">PromptCanvas</span>
        </Link>
        <SearchBox />
        <div className="ml-auto flex items-center gap-0.5 sm:gap-1">
          {actions}
          <NotificationsMenu />
          <Link to="/account" className="btn btn-ghost btn-circle" aria-label="Settings" title="Settings">
            <Icon name="settings" />
          </Link>
          <ThemeToggle />
          <div className="ml-1">{account}</div>
        </div>
      </div>
    </header>
  );
}
