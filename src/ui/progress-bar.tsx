// A progress bar with the spec's semantics (docs/spec.md §4, §5): its state is "indeterminate" without a value,
// "loading" below the maximum and "complete" at it; the maximum must be greater than 0 (else the
// default 100 applies) and the value is clamped to 0..max, so a late or overshooting tick never
// draws a bar wider than its track.

export const PROGRESS_MAX_DEFAULT = 100;

export type ProgressState = "indeterminate" | "loading" | "complete";

export function normalizeProgress(
  value: number | null | undefined,
  max: number = PROGRESS_MAX_DEFAULT,
): { value: number | null; max: number; state: ProgressState } {
  const safeMax = Number.isFinite(max) && max > 0 ? max : PROGRESS_MAX_DEFAULT;
  if (value === null || value === undefined || !Number.isFinite(value)) {
    return { value: null, max: safeMax, state: "indeterminate" };
  }
  const clamped = Math.min(safeMax, Math.max(0, value));
  return { value: clamped, max: safeMax, state: clamped === safeMax ? "complete" : "loading" };
}

type Props = {
  value?: number | null;
  max?: number;
  /** The accessible name of the bar. */
  label: string;
  className?: string;
};

export function ProgressBar({ value, max, label, className = "" }: Props) {
  const p = normalizeProgress(value, max);
  return (
    <progress
      className={`progress progress-primary w-full ${className}`}
      aria-label={label}
      data-state={p.state}
      max={p.max}
      // No value attribute at all draws the native indeterminate animation.
      {...(p.value === null ? {} : { value: p.value })}
    />
  );
}
