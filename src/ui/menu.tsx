// An accessible menu button (WAI-ARIA menu pattern): Enter, Space or ArrowDown opens it on the first
// item, ArrowUp on the last; arrows, Home and End move; Escape and Tab close it. Items are links
// or actions. Content that is not an item (a heading) goes in `header`, outside the menu role.
import { useCallback, useId, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import { flushSync } from "react-dom";
import { Link } from "wouter";
import { useDismiss } from "./use-dismiss";

export type MenuItem =
  | { kind: "link"; label: string; to: string; icon?: ReactNode }
  | { kind: "action"; label: string; onSelect: () => void; icon?: ReactNode };

type Props = {
  /** Accessible name of the button (and the menu). */
  label: string;
  buttonContent: ReactNode;
  buttonClassName?: string;
  header?: ReactNode;
  items: MenuItem[];
};

export function Menu({ label, buttonContent, buttonClassName = "btn btn-ghost btn-circle", header, items }: Props) {
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const itemRefs = useRef<(HTMLElement | null)[]>([]);
  const menuId = useId();
  const close = useCallback(() => setOpen(false), []);
  const refs = useMemo(() => [buttonRef, panelRef], []);
  useDismiss(open, close, refs, buttonRef);

  const focusItem = (index: number) => {
    const count = items.length;
    itemRefs.current[((index % count) + count) % count]?.focus();
  };

  // Render the items synchronously, then focus: a key pressed right after opening must reach the
  // menu, not the button (which would reopen it on the first item).
  const openAt = (index: number) => {
    flushSync(() => setOpen(true));
    focusItem(index);
  };

  const onButtonKey = (e: KeyboardEvent) => {
    if (e.key === "ArrowDown" || e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      openAt(0);
    } else if (e.key === "ArrowUp") {
      e.preventDefault();
      openAt(items.length - 1);
    }
  };

  const onMenuKey = (e: KeyboardEvent) => {
    const current = itemRefs.current.findIndex((el) => el === document.activeElement);
    if (e.key === "ArrowDown") focusItem(current + 1);
    else if (e.key === "ArrowUp") focusItem(current - 1);
    else if (e.key === "Home") focusItem(0);
    else if (e.key === "End") focusItem(items.length - 1);
    else if (e.key === "Tab") {
      close();
      return;
    } else return;
    e.preventDefault();
  };

  const select = (item: MenuItem) => {
    close();
    buttonRef.current?.focus();
    if (item.kind === "action") item.onSelect();
  };

  const itemClass =
    "flex w-full items-center gap-3 rounded-field px-3 py-2 text-left text-sm hover:bg-base-200 focus:bg-base-200 focus:outline-none focus-visible:outline-2 focus-visible:outline-primary";

  return (
    <div className="relative">
      <button
        ref={buttonRef}
        type="button"
        className={buttonClassName}
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => (open ? close() : setOpen(true))}
        onKeyDown={onButtonKey}
      >
        {buttonContent}
      </button>
      {open && (
        <div
          ref={panelRef}
          className="absolute right-0 z-50 mt-2 w-64 rounded-box border border-base-300 bg-base-100 p-2 shadow-xl"
        >
          {header}
          <ul id={menuId} role="menu" aria-label={label} onKeyDown={onMenuKey} className="flex flex-col gap-0.5">
            {items.map((item, i) => (
              <li key={item.label} role="none">
                {item.kind === "link" ? (
                  <Link
                    to={item.to}
                    role="menuitem"
                    tabIndex={-1}
                    ref={(el: HTMLAnchorElement | null) => {
                      itemRefs.current[i] = el;
                    }}
                    className={itemClass}
                    onClick={() => select(item)}
                  >
                    {item.icon}
                    {item.label}
                  </Link>
                ) : (
                  <button
                    type="button"
                    role="menuitem"
                    tabIndex={-1}
                    ref={(el) => {
                      itemRefs.current[i] = el;
                    }}
                    className={itemClass}
                    onClick={() => select(item)}
                  >
                    {item.icon}
                    {item.label}
                  </button>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
