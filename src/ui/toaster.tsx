// Renders the toast queue in a polite live region; each toast leaves after its duration unless the
// pointer or focus is on it, so nobody loses a message they are reading.
import { useEffect, useState } from "react";
import { useSnapshot } from "valtio";
import { Link } from "wouter";
import { dismissToast, toasts, type Toast, type ToastAction } from "../state/toasts";
import { Icon } from "./icons";

const TONE: Record<Toast["tone"], string> = {
  info: "alert-info",
  success: "alert-success",
  warning: "alert-warning",
  error: "alert-error",
};

/** A path opens as a link; a callback (Retry) runs as a button. Either way the notice then leaves. */
function ToastActionButton({ toastId, action }: { toastId: number; action: ToastAction }) {
  if (action.to) {
    const { to, onClick } = action;
    return (
      <Link
        to={to}
        className="btn btn-sm"
        onClick={() => {
          onClick?.();
          dismissToast(toastId);
        }}
      >
        {action.label}
      </Link>
    );
  }
  return (
    <button
      type="button"
      className="btn btn-sm"
      onClick={() => {
        action.onClick?.();
        dismissToast(toastId);
      }}
    >
      {action.label}
    </button>
  );
}

function ToastItem({ toast }: { toast: Toast }) {
  const [held, setHeld] = useState(false);
  useEffect(() => {
    if (held) return;
    const timer = window.setTimeout(() => dismissToast(toast.id), toast.durationMs);
    return () => window.clearTimeout(timer);
  }, [held, toast.id, toast.durationMs]);
  return (
    <div
      className={`alert ${TONE[toast.tone]} alert-soft text-base-content border-current/20 shadow-lg`}
      onPointerEnter={() => setHeld(true)}
      onPointerLeave={() => setHeld(false)}
      onFocus={() => setHeld(true)}
      onBlur={() => setHeld(false)}
    >
      <div className="min-w-0">
        <p className="font-semibold">{toast.title}</p>
        {toast.message && <p className="text-sm">{toast.message}</p>}
      </div>
      <div className="flex items-center gap-1">
        {toast.action && <ToastActionButton toastId={toast.id} action={toast.action} />}
        <button
          type="button"
          className="btn btn-ghost btn-sm btn-square"
          aria-label="Dismiss notice"
          onClick={() => dismissToast(toast.id)}
        >
          <Icon name="close" className="size-4" />
        </button>
      </div>
    </div>
  );
}

export function Toaster() {
  const snap = useSnapshot(toasts);
  return (
    // As wide as the window less daisyUI's 1rem inset on each side, up to 24rem: a full width would push a
    // phone's notice off its left edge.
    <section
      aria-label="Notices"
      aria-live="polite"
      className="toast toast-end toast-bottom z-[60] w-[calc(100%-2rem)] max-w-sm"
    >
      {snap.items.map((t) => (
        <ToastItem key={t.id} toast={t} />
      ))}
    </section>
  );
}
