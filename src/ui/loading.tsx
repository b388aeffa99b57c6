import { Spinner } from "./spinner";

/** A polite, centred loading line for page and panel fallbacks. */
export function Loading({ label }: { label: string }) {
  return (
    <div role="status" className="flex min-h-40 items-center justify-center gap-3 text-base-content/80">
      <Spinner size="md" />
      <span>{label}</span>
    </div>
  );
}
