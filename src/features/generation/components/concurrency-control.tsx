// The queue's concurrency (docs/spec.md §5: 1 to 4; minus disabled at 1, plus at 4) as − value +, shown
// on the Generation Queue card and in the batch settings (so it can be set before the first batch).
import { CONCURRENCY_MAX, CONCURRENCY_MIN } from "#shared/vocabulary/generation.ts";

type Props = {
  value: number;
  onChange: (n: number) => void;
  /** Accessible names: the value's, and the two buttons'. */
  names: { value: string; less: string; more: string };
};

export function ConcurrencyControl({ value, onChange, names }: Props) {
  return (
    <div className="join">
      <button
        type="button"
        className="btn join-item btn-sm btn-square"
        aria-label={names.less}
        disabled={value <= CONCURRENCY_MIN}
        onClick={() => onChange(value - 1)}
      >
        −
      </button>
      <span
        aria-label={names.value}
        className="join-item grid min-w-8 place-items-center border-y border-base-300 px-2 text-sm font-semibold"
      >
        {value}
      </span>
      <button
        type="button"
        className="btn join-item btn-sm btn-square"
        aria-label={names.more}
        disabled={value >= CONCURRENCY_MAX}
        onClick={() => onChange(value + 1)}
      >
        +
      </button>
    </div>
  );
}
