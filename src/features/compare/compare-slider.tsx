// Two of the compared images over each other, the left one shown up to the slider's position. The
// slider is a native range input over the whole picture: dragged with a finger or the mouse anywhere
// on it, moved from the keyboard with the arrow keys (Page Up and Page Down by tens, Home and End to
// the edges), and read by screen readers as how much of each image shows. With more than two images,
// two lists choose which pair the slider shows.
import { useId, useState } from "react";
import { ComparePicture } from "./compare-picture";
import { choosePair, validPair, type Pair } from "./slider-pair";
import type { ReadyItem } from "./use-compare-items";

type Props = { items: readonly ReadyItem[]; letters: readonly string[] };

function PairSelect({
  side,
  value,
  items,
  letters,
  onChange,
}: {
  side: "left" | "right";
  value: number;
  items: readonly ReadyItem[];
  letters: readonly string[];
  onChange: (index: number) => void;
}) {
  const id = useId();
  return (
    <div className="flex min-w-0 flex-1 items-center gap-2">
      <label htmlFor={id} className="shrink-0 text-sm font-medium">
        {side === "left" ? "Left" : "Right"}
      </label>
      <select
        id={id}
        className="select select-sm min-w-0 flex-1"
        value={value}
        onChange={(e) => onChange(Number(e.target.value))}
      >
        {items.map((item, i) => (
          <option key={item.id} value={i}>
            {letters[i]}: {item.recipe.prompt}
          </option>
        ))}
      </select>
    </div>
  );
}

export function CompareSlider({ items, letters }: Props) {
  const [chosen, setChosen] = useState<Pair>([0, 1]);
  const [position, setPosition] = useState(50);
  const [left, right] = validPair(chosen, items.length);
  const a = items[left];
  const b = items[right];
  if (!a || !b || left === right) return null;
  const choose = (side: "left" | "right") => (index: number) => setChosen(choosePair([left, right], side, index));
  return (
    <section aria-label="Slider" className="flex flex-col gap-3">
      {items.length > 2 && (
        <div className="flex flex-wrap gap-3">
          <PairSelect side="left" value={left} items={items} letters={letters} onChange={choose("left")} />
          <PairSelect side="right" value={right} items={items} letters={letters} onChange={choose("right")} />
        </div>
      )}
      <div
        className="relative mx-auto w-full max-w-3xl overflow-hidden rounded-box border border-base-300 bg-base-200"
        style={{ aspectRatio: `${a.recipe.width} / ${a.recipe.height}` }}
      >
        <ComparePicture item={b} className="absolute inset-0 size-full object-contain" />
        <div className="absolute inset-0" style={{ clipPath: `inset(0 ${100 - position}% 0 0)` }} data-slider-left="">
          <ComparePicture item={a} className="absolute inset-0 size-full object-contain" />
        </div>
        <span className="badge badge-neutral absolute top-2 left-2">{letters[left]}</span>
        <span className="badge badge-neutral absolute top-2 right-2">{letters[right]}</span>
        <input
          type="range"
          min={0}
          max={100}
          step={1}
          value={position}
          onChange={(e) => setPosition(Number(e.target.value))}
          aria-label={`Slider between ${letters[left]} and ${letters[right]}`}
          aria-valuetext={`${position}% of ${letters[left]} shown, ${100 - position}% of ${letters[right]}`}
          className="peer absolute inset-0 size-full cursor-ew-resize opacity-0"
        />
        {/* The divider and its handle; the focus ring is drawn on them, as the range input is transparent. */}
        <span
          aria-hidden="true"
          className="pointer-events-none absolute inset-y-0 w-0.5 -translate-x-1/2 bg-base-100 shadow peer-focus-visible:w-1 peer-focus-visible:bg-primary"
          style={{ left: `${position}%` }}
        />
        <span
          aria-hidden="true"
          className="pointer-events-none absolute top-1/2 grid size-9 -translate-x-1/2 -translate-y-1/2 place-items-center rounded-full border border-base-300 bg-base-100 text-base-content shadow peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-primary"
          style={{ left: `${position}%` }}
        >
          ⇆
        </span>
      </div>
    </section>
  );
}
