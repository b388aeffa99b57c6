// Change password while signed in: the current password (checked by signing in again with it, so a
// borrowed unlocked device cannot take the account over) and the new one twice; the auth service
// words its refusals (wrong current password, too weak, same as before, too many attempts).
import { useId, useState, type FormEvent } from "react";
import { changePassword } from "../../api/auth";
import { LabelledField } from "../../ui/labelled-field";
import { Spinner } from "../../ui/spinner";

/** The same floor as sign-up and the reset page (auth feature), so no screen accepts a weaker one. */
export const PASSWORD_MIN_CHARS = 8;

export function ChangePasswordForm({ onDone }: { onDone: () => void }) {
  const id = useId();
  const [current, setCurrent] = useState("");
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    if (!current) {
      setError("Enter your current password.");
      return;
    }
    if (password.length < PASSWORD_MIN_CHARS) {
      setError(`That password is too weak: use at least ${PASSWORD_MIN_CHARS} characters.`);
      return;
    }
    if (password !== confirm) {
      setError("The two passwords are not the same.");
      return;
    }
    if (password === current) {
      setError("Choose a password that is different from your current one.");
      return;
    }
    setPending(true);
    const result = await changePassword(current, password);
    setPending(false);
    if (result.ok) onDone();
    else setError(result.error.message);
  };

  return (
    <form onSubmit={(e) => void submit(e)} className="flex flex-col gap-3 sm:max-w-sm" noValidate>
      <LabelledField label="Current password">
        <input
          type="password"
          className="input w-full"
          autoComplete="current-password"
          value={current}
          onChange={(e) => setCurrent(e.target.value)}
          aria-describedby={error ? `${id}-error` : undefined}
          aria-invalid={Boolean(error) || undefined}
        />
      </LabelledField>
      <LabelledField label="New password">
        <input
          type="password"
          className="input w-full"
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          aria-describedby={error ? `${id}-error` : undefined}
          aria-invalid={Boolean(error) || undefined}
        />
      </LabelledField>
      <LabelledField label="Confirm new password">
        <input
          type="password"
          className="input w-full"
          autoComplete="new-password"
          value={confirm}
          onChange={(e) => setConfirm(e.target.value)}
        />
      </LabelledField>
      {error && (
        <p id={`${id}-error`} role="alert" className="alert alert-error alert-soft text-sm text-base-content">
          {error}
        </p>
      )}
      <div>
        <button type="submit" className="btn btn-primary btn-sm" disabled={pending}>
          {pending && <Spinner size="xs" />}
          Update password
        </button>
      </div>
    </form>
  );
}
