// The prompt field with its character budget (spec §5: required after trimming, at most 500).
import { useEffect, useId, useRef } from "react";
import { PROMPT_MAX_CHARS } from "#shared/vocabulary/generation.ts";
import { VALIDATION_MESSAGES } from "#shared/vocabulary/errors.ts";

export function promptError(prompt: string): string | null {
  if (!prompt.trim()) return VALIDATION_MESSAGES.promptRequired;
  if (prompt.length > PROMPT_MAX_CHARS) return VALIDATION_MESSAGES.promptTooLong;
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
  const field = useRef<HTMLTextAreaElement>(null);
  const keepTyped = useRef({ value, onChange });
  useEffect(() => {
    // Text typed into the prerendered field before the page came alive is kept, not dropped.
    const typed = field.current?.value;
    if (typed && typed !== keepTyped.current.value) keepTyped.current.onChange(typed);
  }, []);
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium">
        Prompt
      </label>
      <textarea
        ref={field}
        id={id}
        className={`textarea min-h-28 w-full ${error ? "textarea-error" : ""}`}
        value={value}
        maxLength={PROMPT_MAX_CHARS}
        onChange={(e) => onChange(e.target.value)}
        disabled={disabled}
        placeholder="A lighthouse on a cliff at dusk, dramatic clouds, golden light"
        aria-invalid={error ? true : undefined}
        aria-describedby={`${countId}${error ? ` ${errorId}` : ""}`}
      />
      <div className="flex justify-between gap-2 text-xs">
        <span id={errorId} className="font-semibold text-base-content">
          {error}
        </span>
        <span id={countId} className="shrink-0 text-base-content/70">
          {remaining} characters left
        </span>
      </div>
    </div>
  );
}
