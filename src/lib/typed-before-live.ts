// Text a person types into a prerendered field before the app is live. When the app draws the page
// afresh over the prerendered markup (a signed-in visit, an address with a query), the field they typed
// into is replaced by a new, empty one; a field that mounts takes its text back from here by its name.
// Recording stops once the app is live: from then on React's own change events carry every keystroke.

const typed = new Map<string, string>();
let stop: (() => void) | null = null;

type InputTarget = { name?: unknown; value?: unknown; tagName?: unknown };

function record(event: Event): void {
  const target = event.target as InputTarget | null;
  if (!target || (target.tagName !== "TEXTAREA" && target.tagName !== "INPUT")) return;
  if (typeof target.name !== "string" || !target.name || typeof target.value !== "string") return;
  typed.set(target.name, target.value);
}

/** Takes what the named fields of `doc` already hold (typed before this script ran), then records input events (once). */
export function keepTypedBeforeLive(
  doc: Pick<Document, "addEventListener" | "removeEventListener" | "querySelectorAll">,
): void {
  if (stop) return;
  for (const field of doc.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>("textarea[name], input[name]")) {
    if (field.value && field.value !== field.defaultValue) typed.set(field.name, field.value);
  }
  doc.addEventListener("input", record, true);
  stop = () => doc.removeEventListener("input", record, true);
}

/** The app is live: no more recording (what was recorded waits to be taken). */
export function stopKeepingTyped(): void {
  stop?.();
  stop = () => undefined;
}

/** What was typed into the field named `name` before the app was live, once. */
export function takeTypedBeforeLive(name: string): string | undefined {
  const value = typed.get(name);
  typed.delete(name);
  return value;
}
