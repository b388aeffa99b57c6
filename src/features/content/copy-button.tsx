// Copies a text to the clipboard and says so in place ("Copied"), politely announced. Where the
// Clipboard API is refused (insecure context, permissions), it says that instead of failing silently.
import { useEffect, useState } from "react";
import { PageIcon } from "../../ui/page-icons";

const FEEDBACK_MS = 2_000;

export function CopyButton({ text, label = "Copy", what }: { text: string; label?: string; what: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => {
    if (state === "idle") return;
    const timer = window.setTimeout(() => setState("idle"), FEEDBACK_MS);
    return () => window.clearTimeout(timer);
  }, [state]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState("copied");
    } catch {
      setState("failed");
    }
  };
  return (
    <button type="button" className="btn btn-sm btn-ghost" onClick={() => void copy()}>
      <PageIcon name={state === "copied" ? "check" : "copy"} className="size-4" />
      <span aria-live="polite">{state === "copied" ? "Copied" : state === "failed" ? "Copy blocked" : label}</span>
      <span className="sr-only"> {what}</span>
    </button>
  );
}
