// Labelled inputs and the status lines shared by the sign-in, sign-up and reset forms.
import { useId, useState, type ReactNode } from "react";
import { Spinner } from "../../ui/spinner";

type FieldProps = {
  label: string;
  name: string;
  type: "email" | "password";
  value: string;
  onChange: (value: string) => void;
  autoComplete: string;
  hint?: ReactNode;
  minLength?: number;
  autoFocus?: boolean;
};

export function Field({ label, name, type, value, onChange, autoComplete, hint, minLength, autoFocus }: FieldProps) {
  const id = useId();
  const hintId = useId();
  const [revealed, setRevealed] = useState(false);
  const isPassword = type === "password";
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <div className="relative">
        <input
          id={id}
          name={name}
          type={isPassword && revealed ? "text" : type}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          autoComplete={autoComplete}
          required
          minLength={minLength}
          autoFocus={autoFocus}
          aria-describedby={hint ? hintId : undefined}
          className={`input w-full ${isPassword ? "pr-16" : ""}`}
          spellCheck={false}
          autoCapitalize="none"
        />
        {isPassword && (
          <button
            type="button"
            className="btn btn-ghost btn-xs absolute top-1/2 right-2 -translate-y-1/2"
            aria-pressed={revealed}
            aria-label={revealed ? `Hide ${label.toLowerCase()}` : `Show ${label.toLowerCase()}`}
            onClick={() => setRevealed((r) => !r)}
          >
            {revealed ? "Hide" : "Show"}
          </button>
        )}
      </div>
      {hint && (
        <p id={hintId} className="text-xs text-base-content/70">
          {hint}
        </p>
      )}
    </div>
  );
}

export function FormError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <div role="alert" className="alert alert-error alert-soft text-base-content text-sm">
      {message}
    </div>
  );
}

export function FormSuccess({ children }: { children: ReactNode }) {
  return (
    <div role="status" className="alert alert-success alert-soft text-base-content text-sm">
      {children}
    </div>
  );
}

export function SubmitButton({
  pending,
  label,
  pendingLabel,
}: {
  pending: boolean;
  label: string;
  pendingLabel: string;
}) {
  return (
    <button type="submit" className="btn btn-primary w-full" disabled={pending}>
      {pending && <Spinner size="sm" />}
      {pending ? pendingLabel : label}
    </button>
  );
}

export const MIN_PASSWORD_LENGTH = 8;

/** Checked before the request so people learn the rule without a round trip; the server decides too. */
export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) {
    return `That password is too weak: use at least ${MIN_PASSWORD_LENGTH} characters.`;
  }
  return null;
}
