// The top bar's account control: a Sign in button, or the person's initial opening a menu with
// 'Signed in as', Account, Billing and Sign out (which goes to /). Sign out warns first when work
// exists only on this device (signing out by choice removes it).
import { Suspense, lazy, useLayoutEffect } from "react";
import { Link } from "wouter";
import { Icon } from "../../ui/icons";
import { Menu } from "../../ui/menu";
import { SESSION_HINT, useSession } from "../../state/session-store";
import { useSignOut } from "../../state/use-sign-out";

// Shown only when a sign-out would lose unsent work, so its code stays off the first page load.
const ConfirmModal = lazy(() => import("../../ui/modal").then((m) => ({ default: m.ConfirmModal })));

export function initialOf(email: string): string {
  const first = email.trim().charAt(0);
  return first ? first.toUpperCase() : "?";
}

export function AccountMenu() {
  const session = useSession();
  const userId = session.user?.id;
  // Loaded on demand: the top bar is on every page, and Dexie stays out of the first load.
  const { request, question } = useSignOut(async () =>
    userId ? (await import("../../db/queries")).unsyncedWork(userId) : null,
  );

  // The head's mark of a stored session (index.html) hides "Sign in" until the app knows: once it draws a
  // signed-in person, or has checked, the mark goes in the same frame (session-boot.ts removes it when
  // the app finds no session of its own).
  const known = session.status === "signed-in" || session.verified;
  useLayoutEffect(() => {
    if (known) document.documentElement.removeAttribute(SESSION_HINT);
  }, [known]);

  if (session.status === "checking" && !session.user) {
    return <span className="skeleton block size-10 rounded-full" aria-hidden="true" />;
  }
  if (session.status !== "signed-in" || !session.user) {
    return (
      // Hidden (its place kept) while the head's mark of a stored session stands (index.html): a signed-in
      // person never sees "Sign in" on a prerendered page.
      <Link to="/auth" className="btn btn-primary btn-sm" data-signed-out-only="">
        Sign in
      </Link>
    );
  }

  const { email } = session.user;
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
            onSelect: () => void request(),
            icon: <Icon name="logOut" className="size-4" />,
          },
        ]}
      />
      {question && (
        <Suspense fallback={null}>
          <ConfirmModal {...question} />
        </Suspense>
      )}
    </>
  );
}
