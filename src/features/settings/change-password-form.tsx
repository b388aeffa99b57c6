// Change password while signed in: the new password twice, sent to the auth service, which words
// its refusals (too weak, same as before) for the person.
import { useId, useState, type FormEvent } from "react";
import { updatePassword } from "../../api/auth";
import { LabelledField } from "../../ui/labelled-field";

/** The same floor as sign-up and the reset page (auth feature), so no screen accepts a weaker one. */
export const PASSWORD_MIN_CHARS = 8;

export function ChangePasswordForm({ onDone }: { onDone: () => void }) {
  const id = useId();
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    if (password.length < PASSWORD_MIN_CHARS) {
      setError(`That password is too weak: use at least ${PASSWORD_MIN_CHARS} characters.`);
      return;
    }
    if (password !== confirm) {
      setError("The two passwords are not the same.");
      return;
    }
    setPending(true);
    const result = await updatePassword(password);
    setPending(false);
    if (result.ok) onDone();
    else setError(result.error.message);
  };

  return (
    <form onSubmit={(e) => void submit(e)} className="flex flex-col gap-3 sm:max-w-sm" noValidate>
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
          {pending && <span className="loading loading-spinner loading-xs" aria-hidden="true" />}
          Update password
        </button>
      </div>
    </form>
  );
}
