// /auth: sign in, create an account, or ask for a reset link. `from` (set by protected pages) is
// where a successful sign-in lands; `mode` picks the form (sign-in, sign-up, forgot).
import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import { Link, useLocation, useSearch } from "wouter";
import { AUTH_PATH, safeReturnPath } from "../../lib/auth-redirect";
import { ensureSessionRuntime, useSession } from "../../state/session-store";
import { Logo } from "../../ui/icons";
import { ForgotPasswordForm, SignInForm, SignUpForm } from "./auth-forms";

type Mode = "sign-in" | "sign-up" | "forgot";

function parseMode(value: string | null): Mode {
  return value === "sign-up" || value === "forgot" ? value : "sign-in";
}

const HEADINGS: Record<Mode, { title: string; lead: string }> = {
  "sign-in": { title: "Welcome back", lead: "Sign in to generate images and keep your history." },
  "sign-up": { title: "Create your account", lead: "Five free generations a day. No card needed." },
  forgot: { title: "Reset your password", lead: "We'll email you a link to choose a new one." },
};

export default function AuthPage() {
  const search = useSearch();
  const params = new URLSearchParams(search);
  const from = params.get("from");
  const [mode, setMode] = useState<Mode>(parseMode(params.get("mode")));
  const [forgotEmail, setForgotEmail] = useState("");
  const session = useSession();
  const [location, navigate] = useLocation();
  const destination = safeReturnPath(from);
  // This page stays drawn while the next page's code loads (app/routes.tsx), under the next address,
  // whose search has no `from`: only while the address is still /auth does it send the person on.
  const onAuthPath = location.replace(/\/+$/, "").toLowerCase() === AUTH_PATH;
  const tabRefs = useRef<(HTMLButtonElement | null)[]>([]);

  useEffect(() => {
    ensureSessionRuntime().catch(() => undefined);
  }, []);

  const signedIn = session.verified && session.status === "signed-in";
  useEffect(() => {
    if (signedIn && onAuthPath) navigate(destination, { replace: true });
  }, [signedIn, onAuthPath, destination, navigate]);

  const tabs: { mode: Mode; label: string }[] = [
    { mode: "sign-in", label: "Sign in" },
    { mode: "sign-up", label: "Create account" },
  ];
  const onTabKey = (e: KeyboardEvent, index: number) => {
    if (e.key !== "ArrowRight" && e.key !== "ArrowLeft") return;
    e.preventDefault();
    const next = (index + (e.key === "ArrowRight" ? 1 : -1) + tabs.length) % tabs.length;
    setMode(tabs[next].mode);
    tabRefs.current[next]?.focus();
  };

  const heading = HEADINGS[mode];
  const onSignedIn = () => navigate(destination, { replace: true });

  return (
    <div className="mx-auto flex w-full max-w-md flex-col items-center py-4 sm:py-10">
      <Logo className="mb-4 size-12" />
      <h1 className="text-center text-2xl font-bold tracking-tight sm:text-3xl">{heading.title}</h1>
      <p className="mt-2 text-center text-base-content/80">{heading.lead}</p>
      {from && mode !== "forgot" && (
        <p className="mt-3 rounded-field bg-base-200 px-3 py-1.5 text-center text-sm">
          Sign in to continue to <span className="font-medium">{destination}</span>
        </p>
      )}
      <div className="card mt-6 w-full border border-base-300 bg-base-100 shadow-sm">
        <div className="card-body gap-5">
          {mode === "forgot" ? (
            <>
              <ForgotPasswordForm initialEmail={forgotEmail} />
              <button
                type="button"
                className="link link-primary self-center text-sm"
                onClick={() => setMode("sign-in")}
              >
                Back to sign in
              </button>
            </>
          ) : (
            <>
              <div role="tablist" aria-label="Account" className="tabs tabs-box grid grid-cols-2">
                {tabs.map((tab, i) => (
                  <button
                    key={tab.mode}
                    ref={(el) => {
                      tabRefs.current[i] = el;
                    }}
                    id={`auth-tab-${tab.mode}`}
                    type="button"
                    role="tab"
                    aria-selected={mode === tab.mode}
                    aria-controls="auth-panel"
                    tabIndex={mode === tab.mode ? 0 : -1}
                    className={`tab ${mode === tab.mode ? "tab-active" : "text-base-content/80"}`}
                    onClick={() => setMode(tab.mode)}
                    onKeyDown={(e) => onTabKey(e, i)}
                  >
                    {tab.label}
                  </button>
                ))}
              </div>
              <div id="auth-panel" role="tabpanel" aria-labelledby={`auth-tab-${mode}`}>
                {mode === "sign-in" ? (
                  <SignInForm
                    onSignedIn={onSignedIn}
                    onForgot={(email) => {
                      setForgotEmail(email);
                      setMode("forgot");
                    }}
                  />
                ) : (
                  <SignUpForm onSignedIn={onSignedIn} />
                )}
              </div>
            </>
          )}
        </div>
      </div>
      <p className="mt-6 text-center text-xs text-base-content/70">
        By continuing you agree to the{" "}
        <Link to="/terms" className="link">
          Terms
        </Link>{" "}
        and the{" "}
        <Link to="/content-policy" className="link">
          Content Policy
        </Link>
        .
      </p>
    </div>
  );
}
