// The three forms of /auth. Each talks to supabase-js through src/api/auth and shows a worded
// failure (invalid credentials, weak password, existing account, network) from its Result.
import { useState, type FormEvent } from "react";
import { sendPasswordReset, signInWithPassword, signUp } from "../../api/auth";
import { ensureSessionRuntime } from "../../state/session-store";
import { Field, FormError, FormSuccess, MIN_PASSWORD_LENGTH, SubmitButton, passwordProblem } from "./auth-fields";

/** The email and password pair of sign-in and sign-up; the email field takes the focus. */
function CredentialFields({
  email,
  onEmail,
  password,
  onPassword,
  passwordAutoComplete,
  passwordHint,
}: {
  email: string;
  onEmail: (value: string) => void;
  password: string;
  onPassword: (value: string) => void;
  passwordAutoComplete: "current-password" | "new-password";
  passwordHint?: string;
}) {
  return (
    <>
      <Field label="Email" name="email" type="email" value={email} onChange={onEmail} autoComplete="email" autoFocus />
      <Field
        label="Password"
        name="password"
        type="password"
        value={password}
        onChange={onPassword}
        autoComplete={passwordAutoComplete}
        hint={passwordHint}
      />
    </>
  );
}

/** The session actor must be listening before the call, so SIGNED_IN reaches it. */
async function withRuntime(): Promise<void> {
  await ensureSessionRuntime().catch(() => undefined);
}

export function SignInForm({ onSignedIn, onForgot }: { onSignedIn: () => void; onForgot: (email: string) => void }) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setPending(true);
    setError(null);
    await withRuntime();
    const result = await signInWithPassword(email.trim(), password);
    setPending(false);
    if (result.ok) onSignedIn();
    else setError(result.error.message);
  };

  return (
    <form onSubmit={submit} className="flex flex-col gap-4" noValidate={false}>
      <CredentialFields
        email={email}
        onEmail={setEmail}
        password={password}
        onPassword={setPassword}
        passwordAutoComplete="current-password"
      />
      <div className="-mt-2 flex justify-end">
        <button type="button" className="link link-primary text-sm" onClick={() => onForgot(email)}>
          Forgot password?
        </button>
      </div>
      <FormError message={error} />
      <SubmitButton pending={pending} label="Sign in" pendingLabel="Signing in…" />
    </form>
  );
}

export function SignUpForm({ onSignedIn }: { onSignedIn: () => void }) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [confirmSent, setConfirmSent] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const weak = passwordProblem(password);
    if (weak) {
      setError(weak);
      return;
    }
    setPending(true);
    setError(null);
    await withRuntime();
    const result = await signUp(email.trim(), password, `${window.location.origin}/auth`);
    setPending(false);
    if (!result.ok) setError(result.error.message);
    else if (result.value.signedIn) onSignedIn();
    else setConfirmSent(true);
  };

  if (confirmSent) {
    return (
      <FormSuccess>
        Almost there: we sent a confirmation link to <strong>{email.trim()}</strong>. Open it, then sign in.
      </FormSuccess>
    );
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-4">
      <CredentialFields
        email={email}
        onEmail={setEmail}
        password={password}
        onPassword={setPassword}
        passwordAutoComplete="new-password"
        passwordHint={`At least ${MIN_PASSWORD_LENGTH} characters. A longer passphrase is stronger.`}
      />
      <FormError message={error} />
      <SubmitButton pending={pending} label="Create account" pendingLabel="Creating account…" />
    </form>
  );
}

export function ForgotPasswordForm({ initialEmail }: { initialEmail: string }) {
  const [email, setEmail] = useState(initialEmail);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setPending(true);
    setError(null);
    const address = email.trim();
    const result = await sendPasswordReset(address, `${window.location.origin}/reset-password`);
    setPending(false);
    if (result.ok) setSentTo(address);
    else setError(result.error.message);
  };

  if (sentTo) {
    return (
      <FormSuccess>
        If an account exists for <strong>{sentTo}</strong>, a link to choose a new password is on its way. It works
        once, so use the newest one.
      </FormSuccess>
    );
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-4">
      <p className="text-sm text-base-content/80">
        Enter the email you signed up with and we'll send you a link to choose a new password.
      </p>
      <Field label="Email" name="email" type="email" value={email} onChange={setEmail} autoComplete="email" autoFocus />
      <FormError message={error} />
      <SubmitButton pending={pending} label="Send reset link" pendingLabel="Sending…" />
    </form>
  );
}
