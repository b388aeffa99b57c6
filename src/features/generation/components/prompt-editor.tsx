// The prompt field with its character budget (docs/spec.md §5: required after trimming, at most 500, and only
// text the database can store: no NUL, no broken Unicode). The check and the count are the shared ones
// (#shared/vocabulary/prompt.ts: trimmed, in code points). The field has no maxLength: the browser
// would count UTF-16 units and cut a 500-character prompt with emoji short; the counter and the
// message say when the prompt is too long instead. Ctrl+Enter (Cmd+Enter on a Mac) in the field
// presses its form's Generate button, exactly as a click would (nothing when the button is disabled).
import { useEffect, useId, useRef, type KeyboardEvent } from "react";
import { PROMPT_MAX_CHARS } from "#shared/vocabulary/generation.ts";
import { charsLeft } from "#shared/vocabulary/prompt.ts";
import { takeTypedBeforeLive } from "../../../lib/typed-before-live";

type Props = {
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
  disabled?: boolean;
};

function generateOnModEnter(e: KeyboardEvent<HTMLTextAreaElement>): void {
  if (e.key !== "Enter" || !(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey || e.nativeEvent.isComposing) return;
  e.preventDefault();
  e.currentTarget.form?.querySelector<HTMLButtonElement>('button[type="submit"]')?.click();
}

export default function PromptEditor({ value, onChange, error, disabled }: Props) {
  const id = useId();
  const countId = useId();
  const errorId = useId();
  const remaining = charsLeft(value, PROMPT_MAX_CHARS);
  const field = useRef<HTMLTextAreaElement>(null);
  const keepTyped = useRef({ value, onChange });
  useEffect(() => {
    // Text typed into the prerendered field before the page came alive is kept, not dropped: still in
    // the field when React hydrated it, or recorded when the page was drawn afresh over it.
    const typed = field.current?.value || takeTypedBeforeLive("prompt");
    if (typed && typed !== keepTyped.current.value) keepTyped.current.onChange(typed);
  }, []);
  return (
    <div className="flex flex-col gap-1.5">
      <div className="flex items-baseline justify-between gap-2">
        <label htmlFor={id} className="text-sm font-medium">
          Prompt
        </label>
        <span className="hidden text-xs text-base-content/70 sm:inline" aria-hidden="true">
          <kbd className="kbd kbd-xs">Ctrl</kbd> + <kbd className="kbd kbd-xs">Enter</kbd> generates
        </span>
      </div>
      <textarea
        ref={field}
        id={id}
        name="prompt"
        className={`textarea min-h-28 w-full ${error ? "textarea-error" : ""}`}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={generateOnModEnter}
        aria-keyshortcuts="Control+Enter Meta+Enter"
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
