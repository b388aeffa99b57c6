// A progress bar with the spec's semantics (docs/spec.md §4, §5): its state is "indeterminate" without a value,
// "loading" below the maximum and "complete" at it; the maximum must be greater than 0 (else the
// default 100 applies) and the value is clamped to 0..max, so a late or overshooting tick never
// draws a bar wider than its track.
//
// It is drawn by the compositor: the filled part is scaled with `transform`, never resized. A native
// <progress> (daisyUI's `progress`) eases its value's width over 0.3 s, and the generator moves it every
// 200 ms (docs/spec.md §4), so while an image renders Chromium restyled, laid out and painted the page on the
// main thread at every frame: about 20 ms of the page's CPU a send in a batch
// (docs/decisions/122-less-cpu-around-each-render.md). The fill eases each tick over 150 ms, ending
// before the next one, so the compositor idles between ticks. The reduced-motion rule in index.css stops
// the easing and the indeterminate sweep.

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
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={p.max}
      // No current value at all is what says "indeterminate" to assistive technology.
      {...(p.value === null ? {} : { "aria-valuenow": p.value })}
      data-state={p.state}
      className={`relative h-2 w-full overflow-hidden rounded-box bg-primary/20 text-primary ${className}`}
    >
      {p.value === null ? (
        <div className="absolute inset-y-0 left-0 w-1/3 animate-progress-sweep rounded-box bg-current" />
      ) : (
        <div
          className="absolute inset-0 origin-left rounded-box bg-current transition-transform duration-150 ease-out"
          style={{ transform: `scaleX(${p.value / p.max})` }}
        />
      )}
    </div>
  );
}
