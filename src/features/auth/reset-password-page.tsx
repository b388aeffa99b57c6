// /reset-password: the reset e-mail's link lands here with a recovery session in the URL fragment
// (supabase-js reads it on start). With a session, people choose a new password; without one, the
// link was used, expired or mistyped, and the page says how to get a fresh one.
import { useEffect, useState, type FormEvent } from "react";
import { Link } from "wouter";
import { updatePassword } from "../../api/auth";
import { initialFragment } from "../../lib/initial-url";
import { ensureSessionRuntime, useSession } from "../../state/session-store";
import { Loading } from "../../ui/loading";
import { Icon } from "../../ui/icons";
import { Field, FormError, FormSuccess, MIN_PASSWORD_LENGTH, SubmitButton, passwordProblem } from "./auth-fields";

function linkError(): string | null {
  const params = initialFragment();
  const description = params.get("error_description");
  if (!description && !params.get("error_code")) return null;
  if (params.get("error_code") === "otp_expired") return "This reset link has expired or was already used.";
  return description ? description.replace(/\+/g, " ") : "This reset link is not valid.";
}

function NewPasswordForm({ email }: { email: string }) {
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const weak = passwordProblem(password);
    if (weak) return setError(weak);
    if (password !== confirm) return setError("The two passwords don't match.");
    setPending(true);
    setError(null);
    const result = await updatePassword(password);
    setPending(false);
    if (result.ok) setDone(true);
    else setError(result.error.message);
  };

  if (done) {
    return (
      <div className="flex flex-col gap-4">
        <FormSuccess>Your password has been updated. You're signed in as {email}.</FormSuccess>
        <Link to="/dashboard" className="btn btn-primary">
          Continue to your dashboard
        </Link>
      </div>
    );
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-4">
      <p className="text-sm text-base-content/80">
        Choose a new password for <span className="font-medium">{email}</span>.
      </p>
      <Field
        label="New password"
        name="new-password"
        type="password"
        value={password}
        onChange={setPassword}
        autoComplete="new-password"
        hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}
        autoFocus
      />
      <Field
        label="Confirm new password"
        name="confirm-password"
        type="password"
        value={confirm}
        onChange={setConfirm}
        autoComplete="new-password"
      />
      <FormError message={error} />
      <SubmitButton pending={pending} label="Update password" pendingLabel="Updating…" />
    </form>
  );
}

export default function ResetPasswordPage() {
  const session = useSession();
  const [failure] = useState(linkError);

  useEffect(() => {
    ensureSessionRuntime().catch(() => undefined);
  }, []);

  let body;
  if (!session.verified) body = <Loading label="Checking your reset link…" />;
  else if (session.status === "signed-in" && session.user) body = <NewPasswordForm email={session.user.email} />;
  else {
    body = (
      <div className="flex flex-col gap-4">
        <div role="alert" className="alert alert-warning alert-soft text-base-content text-sm">
          <Icon name="alert" className="size-5" />
          <span>{failure ?? "This reset link is invalid or has expired."} Request a new link to continue.</span>
        </div>
        <Link to="/auth?mode=forgot" className="btn btn-primary">
          Request a new link
        </Link>
      </div>
    );
  }

  return (
    <div className="mx-auto w-full max-w-md py-4 sm:py-10">
      <h1 className="text-center text-2xl font-bold tracking-tight sm:text-3xl">Set a new password</h1>
      <div className="card mt-6 border border-base-300 bg-base-100 shadow-sm">
        <div className="card-body">{body}</div>
      </div>
    </div>
  );
}
