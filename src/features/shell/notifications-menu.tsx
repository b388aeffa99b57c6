// The bell: a disclosure panel listing the sample notifications (true notes about the product, each
// labelled with its kind rather than an invented age), with Mark all as read.
import { useCallback, useId, useMemo, useRef, useState } from "react";
import { useSnapshot } from "valtio";
import { Icon } from "../../ui/icons";
import { useDismiss } from "../../ui/use-dismiss";
import { markNotificationsRead, ui } from "../../state/ui-store";
import { SAMPLE_NOTIFICATIONS } from "./sample-notifications";

export function NotificationsMenu() {
  const { readNotificationIds } = useSnapshot(ui);
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const panelId = useId();
  const headingId = useId();
  const close = useCallback(() => setOpen(false), []);
  const refs = useMemo(() => [buttonRef, panelRef], []);
  useDismiss(open, close, refs, buttonRef);

  const items = SAMPLE_NOTIFICATIONS.map((n) => ({ ...n, read: n.read || readNotificationIds.includes(n.id) }));
  const unread = items.filter((n) => !n.read).length;

  return (
    // Positioned only from `sm` up: on a phone the panel hangs from the whole (sticky) top bar.
    <div className="sm:relative">
      <button
        ref={buttonRef}
        type="button"
        className="btn btn-ghost btn-circle"
        aria-label={unread ? `Notifications, ${unread} unread` : "Notifications"}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((o) => !o)}
      >
        <span className="indicator">
          <Icon name="bell" />
          {unread > 0 && (
            <span className="indicator-item badge badge-error badge-xs px-1 font-semibold" aria-hidden="true">
              {unread}
            </span>
          )}
        </span>
      </button>
      <div
        ref={panelRef}
        id={panelId}
        role="region"
        aria-labelledby={headingId}
        hidden={!open}
        className="absolute inset-x-3 top-full z-50 mt-1 rounded-box border border-base-300 bg-base-100 p-2 shadow-xl sm:inset-x-auto sm:right-0 sm:mt-2 sm:w-80"
      >
        <div className="flex items-center justify-between gap-2 px-2 py-1">
          <h2 id={headingId} className="text-sm font-semibold">
            Notifications
          </h2>
          <button
            type="button"
            className="btn btn-ghost btn-xs"
            disabled={unread === 0}
            onClick={() => markNotificationsRead(items.map((n) => n.id))}
          >
            <Icon name="checks" className="size-4" />
            Mark all as read
          </button>
        </div>
        <ul className="mt-1 flex flex-col">
          {items.map((n) => (
            <li key={n.id} className="flex gap-3 rounded-field px-2 py-2">
              <span
                className={`mt-1.5 size-2 shrink-0 rounded-full ${n.read ? "bg-transparent" : "bg-primary"}`}
                aria-hidden="true"
              />
              <div className="min-w-0">
                <p className={`text-sm ${n.read ? "text-base-content/80" : "font-medium"}`}>
                  {n.title}
                  {!n.read && <span className="sr-only"> (unread)</span>}
                </p>
                <p className="text-xs text-base-content/70">{n.time}</p>
              </div>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
