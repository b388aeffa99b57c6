// A virtualized grid of generations that stays smooth at 10,000 items: only the rows near the
// viewport are in the DOM (the page scrolls, the grid reserves the full height), tiles are square
// and sized from the grid's width, so every row has the same known height and nothing is measured
// while scrolling.
//
// Tiles are recycled: each sits in a slot (its row's index modulo the rows drawn, and its column) that
// keeps its DOM node while the grid scrolls, and takes the record now at its place. Scrolling then
// changes a few attributes (position, image, label) and never inserts or removes nodes: an inserted
// or removed node makes Chromium re-style and re-lay-out around it, which cost more than a frame's
// budget at a fast flick (bench/history-bench.mjs). The DOM order of the slots is therefore not the
// visual order, so the grid is one Tab stop with arrow-key navigation (a roving tabindex) in visual
// order, and each item carries its position in the whole list.
import { useWindowVirtualizer } from "@tanstack/react-virtual";
import {
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactElement,
  type RefObject,
} from "react";
import type { GenerationRecord } from "../../db/schema";
import { GenerationTile } from "./generation-tile";

export const GRID_GAP_PX = 12;
export const TILE_MIN_PX = 160;
/** Rows drawn beyond the viewport on each side, so a fast flick does not show blanks. */
const OVERSCAN_ROWS = 3;
/** Until the grid is laid out (or where nothing lays out, as in tests) it assumes this width. */
const FALLBACK_WIDTH_PX = 960;

/**
 * The rows drawn for a visible range: always `size` of them (fewer only when the list is shorter), so
 * that a row entering takes the slot of the row leaving. Its first row is OVERSCAN_ROWS above the
 * first visible one, or as far up as the end of the list needs.
 */
export function drawnRows(startIndex: number, count: number, size: number): number[] {
  const first = Math.max(0, Math.min(startIndex - OVERSCAN_ROWS, count - size));
  return Array.from({ length: Math.min(size, count) }, (_, i) => first + i);
}

export function gridGeometry(width: number): { columns: number; tile: number } {
  const w = width > 0 ? width : FALLBACK_WIDTH_PX;
  const columns = Math.max(2, Math.floor((w + GRID_GAP_PX) / (TILE_MIN_PX + GRID_GAP_PX)));
  return { columns, tile: (w - GRID_GAP_PX * (columns - 1)) / columns };
}

/** Where the focus goes from `index` for a navigation key, or null for any other key. */
export function nextIndex(key: string, index: number, count: number, columns: number, pageRows: number): number | null {
  const last = count - 1;
  const to = (i: number) => Math.min(last, Math.max(0, i));
  switch (key) {
    case "ArrowRight":
      return to(index + 1);
    case "ArrowLeft":
      return to(index - 1);
    case "ArrowDown":
      return to(index + columns);
    case "ArrowUp":
      return to(index - columns);
    case "PageDown":
      return to(index + columns * pageRows);
    case "PageUp":
      return to(index - columns * pageRows);
    case "Home":
      return 0;
    case "End":
      return last;
    default:
      return null;
  }
}

function useWidth(ref: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(el.getBoundingClientRect().width);
    if (typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(([entry]) => setWidth(entry.contentRect.width));
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

export type Selection = { selected: ReadonlySet<string>; toggle: (id: string) => void };

type Props = {
  items: readonly GenerationRecord[];
  /** How many the whole list holds, when `items` is only its start (History's first screen). */
  total?: number;
  label: string;
  onOpen: (id: string) => void;
  selection?: Selection;
};

export function GenerationGrid({ items, total, label, onOpen, selection }: Props) {
  const ref = useRef<HTMLUListElement>(null);
  const hintId = useId();
  const width = useWidth(ref);
  const { columns, tile } = gridGeometry(width);
  const rowHeight = tile + GRID_GAP_PX;
  const rows = Math.ceil(items.length / columns);
  const [scrollMargin, setScrollMargin] = useState(0);
  // The item that holds the grid's one Tab stop; `focusActive` asks for it to be focused once drawn.
  const [active, setActive] = useState(0);
  const focusActive = useRef(false);
  const activeIndex = Math.min(active, Math.max(0, items.length - 1));

  useLayoutEffect(() => {
    // The grid's distance from the top of the page, re-read when the filters above it change size.
    const el = ref.current;
    if (el) setScrollMargin(el.getBoundingClientRect().top + window.scrollY);
  }, [width, items.length]);

  // The visible rows, one more for a partly shown one at each edge, and the overscan on both sides.
  const slotRows =
    Math.ceil((typeof window === "undefined" ? 900 : window.innerHeight) / rowHeight) + 2 + 2 * OVERSCAN_ROWS;
  const virtualizer = useWindowVirtualizer({
    count: rows,
    estimateSize: () => rowHeight,
    overscan: OVERSCAN_ROWS,
    scrollMargin,
    rangeExtractor: (range) => drawnRows(range.startIndex, range.count, slotRows),
  });

  useEffect(() => {
    virtualizer.measure();
  }, [virtualizer, rowHeight]);

  useEffect(() => {
    if (!focusActive.current) return;
    const button = ref.current?.querySelector<HTMLElement>(`li[data-index="${activeIndex}"] button`);
    if (button) {
      focusActive.current = false;
      button.focus({ preventScroll: true });
    }
  });

  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    if ((event.target as HTMLElement).tagName === "INPUT") return; // a selection checkbox keeps its keys
    const pageRows = Math.max(1, Math.floor(window.innerHeight / rowHeight));
    const next = nextIndex(event.key, activeIndex, items.length, columns, pageRows);
    if (next === null) return;
    event.preventDefault();
    setActive(next);
    focusActive.current = true;
    virtualizer.scrollToIndex(Math.floor(next / columns), { align: "auto" });
  };

  const slots: ReactElement[] = [];
  for (const row of virtualizer.getVirtualItems()) {
    for (let col = 0; col < columns; col++) {
      const index = row.index * columns + col;
      const record = items[index];
      if (!record) break;
      const slot = (row.index % slotRows) * columns + col;
      slots[slot] = (
        <li
          key={slot}
          data-index={index}
          aria-setsize={total ?? items.length}
          aria-posinset={index + 1}
          className="absolute"
          style={{
            transform: `translate(${col * (tile + GRID_GAP_PX)}px, ${row.start - scrollMargin}px)`,
            width: tile,
            height: tile,
          }}
          onFocus={() => setActive(index)}
        >
          <GenerationTile
            record={record}
            onOpen={onOpen}
            tabbable={index === activeIndex}
            selected={selection ? selection.selected.has(record.id) : undefined}
            onToggle={selection?.toggle}
          />
        </li>
      );
    }
  }

  return (
    <>
      <p id={hintId} className="sr-only">
        The arrow keys, Home, End, Page Up and Page Down move between the images.
      </p>
      <ul
        ref={ref}
        aria-label={label}
        aria-describedby={hintId}
        className="relative w-full"
        style={{ height: Math.max(0, rows * rowHeight - GRID_GAP_PX) }}
        onKeyDown={onKeyDown}
      >
        {slots.filter(Boolean)}
      </ul>
    </>
  );
}
