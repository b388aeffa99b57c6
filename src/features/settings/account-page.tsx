// /account (signed in): who you are signed in as, password and sign-out. Generation defaults
// (style, quality, aspect ratio) join this page with the preferences feature.
import { useState } from "react";
import { Link, useLocation } from "wouter";
import { ensureSessionRuntime, useSession } from "../../state/session-store";
import { PageHeader } from "../../ui/page-header";

export default function AccountPage() {
  const { user } = useSession();
  const [, navigate] = useLocation();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const signOut = async () => {
    setPending(true);
    setError(null);
    try {
      const result = await (await ensureSessionRuntime()).signOut();
      if (result.ok) navigate("/");
      else setError(result.message);
    } catch {
      setError("We couldn't reach the sign-in service. Check your connection and try again.");
    }
    setPending(false);
  };

  return (
    <div className="mx-auto w-full max-w-3xl">
      <PageHeader title="Account" lead="Your sign-in details. Generation defaults arrive here soon." />
      <section aria-labelledby="signin-title" className="card border border-base-300 bg-base-100">
        <div className="card-body gap-4">
          <h2 id="signin-title" className="card-title text-lg">
            Sign-in
          </h2>
          <dl className="grid gap-1 sm:grid-cols-[10rem_1fr]">
            <dt className="text-sm text-base-content/80">Email</dt>
            <dd className="font-medium break-all">{user?.email}</dd>
          </dl>
          {error && (
            <div role="alert" className="alert alert-error alert-soft text-base-content text-sm">
              {error}
            </div>
          )}
          <div className="flex flex-wrap gap-3">
            <Link to="/reset-password" className="btn btn-outline btn-sm">
              Change password
            </Link>
            <button type="button" className="btn btn-sm" onClick={signOut} disabled={pending}>
              {pending ? "Signing out…" : "Sign out"}
            </button>
          </div>
        </div>
      </section>
    </div>
  );
}
