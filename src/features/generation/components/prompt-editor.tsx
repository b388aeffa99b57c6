// The prompt field with its character budget (spec §5: required after trimming, at most 500).
import { useId } from "react";

export const PROMPT_MAX_CHARS = 500;

export function promptError(prompt: string): string | null {
  if (!prompt.trim()) return "Please enter a prompt";
  if (prompt.length > PROMPT_MAX_CHARS) return `Keep the prompt to ${PROMPT_MAX_CHARS} characters or fewer`;
  return null;
}

type Props = {
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
  disabled?: boolean;
};

export default function PromptEditor({ value, onChange, error, disabled }: Props) {
  const id = useId();
  const countId = useId();
  const errorId = useId();
  const remaining = PROMPT_MAX_CHARS - value.length;
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium">
        Prompt
      </label>
      <textarea
        id={id}
        className={`textarea min-h-32 w-full ${error ? "textarea-error" : ""}`}
        value={value}
        maxLength={PROMPT_MAX_CHARS}
        onChange={(e) => onChange(e.target.value)}
        disabled={disabled}
        placeholder="A lighthouse on a cliff at dusk, dramatic clouds, golden light"
        aria-invalid={error ? true : undefined}
        aria-describedby={`${countId}${error ? ` ${errorId}` : ""}`}
      />
      <div className="flex justify-between text-xs">
        <span id={errorId} className="text-error">
          {error}
        </span>
        <span id={countId} className="text-base-content/70">
          {remaining} characters left
        </span>
      </div>
    </div>
  );
}
