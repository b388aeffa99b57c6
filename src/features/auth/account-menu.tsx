// The top bar's account control: a Sign in button, or the person's initial opening a menu with
// 'Signed in as', Account, Billing and Sign out (which goes to /). Sign out warns first when work
// exists only on this device (signing out by choice removes it).
import { Suspense, lazy, useState } from "react";
import { Link, useLocation } from "wouter";
import type { UnsyncedWork } from "../../db/queries";
import { hasUnsyncedWork, unsyncedWarning } from "../../lib/unsynced-warning";
import { Icon } from "../../ui/icons";
import { Menu } from "../../ui/menu";
import { ensureSessionRuntime, useSession } from "../../state/session-store";
import { showToast } from "../../state/toasts";

// Shown only when a sign-out would lose unsent work, so its code stays off the first page load.
const ConfirmModal = lazy(() => import("../../ui/modal").then((m) => ({ default: m.ConfirmModal })));

export function initialOf(email: string): string {
  const first = email.trim().charAt(0);
  return first ? first.toUpperCase() : "?";
}

export function AccountMenu() {
  const session = useSession();
  const [, navigate] = useLocation();
  const [warning, setWarning] = useState<UnsyncedWork | null>(null);

  if (session.status === "checking" && !session.user) {
    return <span className="skeleton block size-10 rounded-full" aria-hidden="true" />;
  }
  if (session.status !== "signed-in" || !session.user) {
    return (
      <Link to="/auth" className="btn btn-primary btn-sm">
        Sign in
      </Link>
    );
  }

  const { email } = session.user;
  const signOut = async () => {
    setWarning(null);
    navigate("/");
    try {
      const runtime = await ensureSessionRuntime();
      const result = await runtime.signOut();
      if (!result.ok) showToast({ tone: "error", title: "Sign out failed", message: result.message });
    } catch {
      showToast({ tone: "error", title: "Sign out failed", message: "Check your connection and try again." });
    }
  };

  const requestSignOut = async () => {
    // Loaded on demand: the top bar is on every page, and Dexie stays out of the first load.
    const work = await import("../../db/queries").then((q) => q.unsyncedWork(session.user!.id)).catch(() => null);
    if (work && hasUnsyncedWork(work)) setWarning(work);
    else await signOut();
  };

  return (
    <>
      <Menu
        label={`Account menu for ${email}`}
        buttonClassName="btn btn-circle btn-primary text-base font-semibold"
        buttonContent={<span aria-hidden="true">{initialOf(email)}</span>}
        header={
          <div className="mb-1 border-b border-base-300 px-3 pt-1 pb-2">
            <p className="text-xs text-base-content/70">Signed in as</p>
            <p className="truncate text-sm font-medium">{email}</p>
          </div>
        }
        items={[
          { kind: "link", label: "Account", to: "/account", icon: <Icon name="user" className="size-4" /> },
          { kind: "link", label: "Billing", to: "/billing", icon: <Icon name="card" className="size-4" /> },
          {
            kind: "action",
            label: "Sign out",
            onSelect: () => void requestSignOut(),
            icon: <Icon name="logOut" className="size-4" />,
          },
        ]}
      />
      {warning && (
        <Suspense fallback={null}>
          <ConfirmModal
            title="Sign out and lose unsent work?"
            body={unsyncedWarning(warning)}
            confirmLabel="Sign out anyway"
            onConfirm={() => void signOut()}
            onClose={() => setWarning(null)}
          />
        </Suspense>
      )}
    </>
  );
}
