// Guards the pages that need a session (docs/spec.md §2): 'Checking session…' until the session actor has
// answered; without a session, replace this history entry with /auth?from=<requested path>.
import { useEffect, useRef, useState, type ReactNode } from "react";
import { useLocation, useSearch } from "wouter";
import { authRedirectPath } from "../../lib/auth-redirect";
import { ensureSessionRuntime, useSession } from "../../state/session-store";
import { Loading } from "../../ui/loading";

export function RequireSession({ children }: { children: ReactNode }) {
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
    if (!signedOut || redirected.current) return;
    redirected.current = true;
    navigate(authRedirectPath({ pathname: location, search }), { replace: true });
  }, [signedOut, location, search, navigate]);

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
