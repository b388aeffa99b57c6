// Guards the pages that need a session (docs/spec.md §2): 'Checking session…' until the session actor has
// answered; without a session, replace this history entry with /auth?from=<requested path>.
// A guard whose page is being left (the old page stays drawn while the next page's code loads) sends
// nobody anywhere: Sign out goes to / and then ends the session, and the page it left must not turn
// that into /auth?from=/. The next page's own guard, if it has one, decides.
import { useEffect, useRef, useState, type ReactNode } from "react";
import { useLocation, useSearch } from "wouter";
import { authRedirectPath } from "../../lib/auth-redirect";
import { ensureSessionRuntime, useSession } from "../../state/session-store";
import { Loading } from "../../ui/loading";

export function RequireSession({ children, leaving = false }: { children: ReactNode; leaving?: boolean }) {
  const session = useSession();
  const [location, navigate] = useLocation();
  const search = useSearch();
  const [loadError, setLoadError] = useState(false);

  useEffect(() => {
    ensureSessionRuntime().catch(() => setLoadError(true));
  }, []);

  const signedOut = session.verified && session.status === "signed-out";
  const redirected = useRef(false);
  useEffect(() => {
    // Once: after the hand-off this guard may stay mounted for a moment under the new address.
    if (!signedOut || leaving || redirected.current) return;
    redirected.current = true;
    navigate(authRedirectPath({ pathname: location, search }), { replace: true });
  }, [signedOut, leaving, location, search, navigate]);

  if (session.verified && session.status === "signed-in") return <>{children}</>;
  if (loadError) {
    return (
      <div role="alert" className="alert alert-error mx-auto max-w-xl">
        We couldn't check your session. Check your connection and reload the page.
      </div>
    );
  }
  return <Loading label="Checking session…" />;
}
