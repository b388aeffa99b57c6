// Busy indicators drawn by the compositor. daisyUI's `loading` classes animate an SVG (SMIL) inside a
// CSS mask, and Chromium restyles and repaints that image on the main thread every frame for as long
// as it shows: during a batch, while the page has the queue's work to do
// (docs/decisions/121-a-made-image-is-downloaded-decoded-and-scaled-once.md). These animate `transform`
// and `opacity` only, which the compositor runs without the main thread. The reduced-motion rule in
// index.css stops them.

const SIZES = {
  xs: "size-3.5 border-2",
  sm: "size-4 border-2",
  md: "size-6 border-[3px]",
  lg: "size-10 border-4",
} as const;

export type SpinnerSize = keyof typeof SIZES;

/** A turning ring in the current text colour; decorative (aria-hidden), so say what is busy in text. */
export function Spinner({ size = "sm", className = "" }: { size?: SpinnerSize; className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={`inline-block shrink-0 animate-spin rounded-full border-current border-t-transparent align-middle ${SIZES[size]} ${className}`}
    />
  );
}

/** A ring that swells and fades from a steady dot, for a larger area waiting on a long step. */
export function PulseRing({ className = "" }: { className?: string }) {
  return (
    <span aria-hidden="true" className={`relative inline-flex size-12 items-center justify-center ${className}`}>
      <span className="absolute inline-flex size-full animate-ping rounded-full border-4 border-current opacity-60" />
      <span className="relative inline-flex size-3 rounded-full bg-current" />
    </span>
  );
}
