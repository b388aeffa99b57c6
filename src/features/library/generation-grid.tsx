// A virtualized grid of generations that stays smooth at 10,000 items: only the rows near the
// viewport are in the DOM (the page scrolls, the grid reserves the full height), tiles are square
// and sized from the grid's width, so every row has the same known height and nothing is measured
// while scrolling.
//
// Rows are recycled: each drawn row sits in a slot (its index modulo the rows drawn) that keeps its
// DOM node while the grid scrolls, and takes the records now at its place. Scrolling then changes a
// few attributes (position, images, labels) and never inserts or removes nodes: an inserted or
// removed node makes Chromium re-style and re-lay-out around it. The grid renders only when a row
// enters or leaves, and then only the row taking the slot renders; each row is its own compositor
// layer, so moving it costs no paint and filling it repaints that row alone; the thumbnails of the
// rows about to enter are read ahead, a dozen rows in one read (bench/history-bench.mjs has the
// figures). The DOM order of the slots is therefore not the visual order, so the grid is one Tab
// stop with arrow-key navigation (a roving tabindex) in visual order, and each item carries its
// position in the whole list.
import {
  memo,
  startTransition,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type Dispatch,
  type KeyboardEvent,
  type ReactElement,
  type RefObject,
  type SetStateAction,
} from "react";
import type { GenerationRecord } from "../../db/schema";
import { GenerationTile } from "./generation-tile";
import { afterTileImagesPainted, prefetchTileImages } from "../../sync/use-tile-image";

export const GRID_GAP_PX = 12;
export const TILE_MIN_PX = 160;
/** Rows drawn beyond the viewport on each side, so a fast flick does not show blanks. */
const OVERSCAN_ROWS = 3;
/** Where nothing lays out (as in tests) the grid's width reads 0, and it assumes this one. */
const FALLBACK_WIDTH_PX = 960;
/** Rows whose thumbnails are read ahead of the drawn ones on each side, in one read... */
const PREFETCH_ROWS = 12;
/** ...once an unread row comes this close to the drawn ones. */
const PREFETCH_NEAR_ROWS = 4;

/**
 * The first row drawn when `startIndex` is the first visible one: OVERSCAN_ROWS above it, or as far up
 * as the end of the list needs so that `size` rows are always drawn (fewer only when the list is
 * shorter), and a row entering takes the slot of the row leaving.
 */
export function firstDrawnRow(startIndex: number, count: number, size: number): number {
  return Math.max(0, Math.min(startIndex - OVERSCAN_ROWS, count - size));
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

/** The element's width, or null until it is first measured (before the first paint). */
function useWidth(ref: RefObject<HTMLElement | null>): number | null {
  const [width, setWidth] = useState<number | null>(null);
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

/**
 * The first drawn row of a grid of `rows` rows of `rowHeight` px that starts `top` px down the page,
 * following the window's scroll. It changes only when a row enters or leaves, so a scroll that moves
 * within a row renders nothing: the rows have one known height, so nothing is measured, and the grid
 * renders about once per row scrolled (a general virtualizer re-rendered on every scroll event).
 */
function useFirstDrawnRow(rows: number, rowHeight: number, top: number, size: number): number {
  const [first, setFirst] = useState(0);
  const shown = useRef(first);
  useLayoutEffect(() => {
    const update = () => {
      const visible = Math.floor(Math.max(0, window.scrollY - top) / rowHeight);
      const next = firstDrawnRow(visible, rows, size);
      if (next === shown.current) return;
      shown.current = next;
      setFirst(next);
    };
    update();
    window.addEventListener("scroll", update, { passive: true });
    window.addEventListener("resize", update);
    return () => {
      window.removeEventListener("scroll", update);
      window.removeEventListener("resize", update);
    };
  }, [rows, rowHeight, top, size]);
  return first;
}

/** Scrolls the window just enough to show a row (no scroll when it is in view already). */
function scrollRowIntoView(row: number, rowHeight: number, top: number): void {
  const from = top + row * rowHeight;
  const to = from + rowHeight - GRID_GAP_PX;
  if (from < window.scrollY) window.scrollTo({ top: from });
  else if (to > window.scrollY + window.innerHeight) window.scrollTo({ top: to - window.innerHeight });
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

type RowProps = {
  items: readonly GenerationRecord[];
  row: number;
  columns: number;
  tile: number;
  /** The row's distance from the top of the grid. */
  y: number;
  setsize: number;
  /** The column of the item holding the Tab stop when it is in this row, else -1. */
  activeColumn: number;
  setActive: Dispatch<SetStateAction<number>>;
  onOpen: (id: string) => void;
  selection?: Selection;
};

/**
 * One drawn row. Memoized: when a row enters, only the row taking its slot renders; the others keep
 * their props (same records, same place) and are skipped.
 */
const GridRow = memo(function GridRow(props: RowProps) {
  const { items, row, columns, tile, y, setsize, activeColumn, setActive, onOpen, selection } = props;
  const cells: ReactElement[] = [];
  for (let col = 0; col < columns; col++) {
    const index = row * columns + col;
    const record = items[index];
    if (!record) break;
    cells.push(
      <div
        key={col}
        role="listitem"
        data-index={index}
        aria-setsize={setsize}
        aria-posinset={index + 1}
        onFocus={() => setActive(index)}
      >
        <GenerationTile
          record={record}
          onOpen={onOpen}
          tabbable={col === activeColumn}
          selected={selection ? selection.selected.has(record.id) : undefined}
          onToggle={selection?.toggle}
        />
      </div>,
    );
  }
  // Its own compositor layer (will-change): moving the row is the compositor's work alone, and a row
  // taking new records repaints itself only, not the rows around it (bench/history-bench.mjs).
  return (
    <div
      role="none"
      className="absolute top-0 left-0 grid w-full bg-base-100 will-change-transform"
      style={{
        transform: `translateY(${y}px)`,
        height: tile,
        gap: GRID_GAP_PX,
        gridTemplateColumns: `repeat(${columns}, ${tile}px)`,
      }}
    >
      {cells}
    </div>
  );
});

export function GenerationGrid({ items, total, label, onOpen, selection }: Props) {
  const ref = useRef<HTMLDivElement>(null);
  const hintId = useId();
  const width = useWidth(ref);
  const { columns, tile } = gridGeometry(width ?? 0);
  const rowHeight = tile + GRID_GAP_PX;
  const rows = Math.ceil(items.length / columns);
  const [top, setTop] = useState(0);
  // The item that holds the grid's one Tab stop; `focusActive` asks for it to be focused once drawn.
  const [active, setActive] = useState(0);
  const focusActive = useRef(false);
  const activeIndex = Math.min(active, Math.max(0, items.length - 1));

  useLayoutEffect(() => {
    // The grid's distance from the top of the page, re-read when the filters above it change size.
    const el = ref.current;
    if (el) setTop(el.getBoundingClientRect().top + window.scrollY);
  }, [width, items.length]);

  // The visible rows, one more for a partly shown one at each edge, and the overscan on both sides.
  const slotRows =
    Math.ceil((typeof window === "undefined" ? 900 : window.innerHeight) / rowHeight) + 2 + 2 * OVERSCAN_ROWS;
  const first = useFirstDrawnRow(rows, rowHeight, top, slotRows);
  // The first paint of a list draws the rows in view alone (the grid starts `top` px down the page, so
  // a few); the overscan rows join once their pictures are on screen too, each in its own slot, so no
  // drawn row is redrawn. A new list (a search keystroke, a live update) starts over the same way: a
  // keystroke's results then restyle a third of the tiles. (The drawn tiles' effects have asked for
  // their pictures before this one runs.)
  const [settledFor, setSettledFor] = useState<readonly GenerationRecord[] | null>(null);
  const settled = settledFor === items;
  const measured = width !== null;
  // The overscan rows' render is a transition: React renders it in slices and gives way to a keystroke or a
  // click that comes meanwhile (a words filter typed fast would otherwise wait behind the last keystroke's).
  useEffect(
    () => (measured ? afterTileImagesPainted(() => startTransition(() => setSettledFor(items))) : undefined),
    [measured, items],
  );
  const inView =
    typeof window === "undefined"
      ? slotRows
      : Math.ceil((window.scrollY + window.innerHeight - top) / rowHeight) - first;
  // Nothing is drawn before the grid's width is known: tiles laid out at a guessed size would be laid
  // out again at the real one before the first paint, while measuring the empty grid costs next to nothing.
  const drawn =
    width === null ? 0 : Math.max(0, Math.min(slotRows, rows - first, settled ? slotRows : Math.max(1, inView)));

  useEffect(() => {
    // The thumbnails of the rows about to enter, read ahead in one go so that an entering tile shows its
    // picture in its first render.
    const ids = (from: number, to: number) =>
      items.slice(Math.max(0, from) * columns, Math.max(0, to) * columns).map((r) => r.id);
    const end = first + drawn;
    prefetchTileImages(
      [...ids(first - PREFETCH_NEAR_ROWS, first), ...ids(end, end + PREFETCH_NEAR_ROWS)],
      [...ids(first - PREFETCH_ROWS, first), ...ids(first, end), ...ids(end, end + PREFETCH_ROWS)],
    );
  }, [items, columns, first, drawn]);

  useEffect(() => {
    if (!focusActive.current) return;
    const button = ref.current?.querySelector<HTMLElement>(`[data-index="${activeIndex}"] button`);
    if (button) {
      focusActive.current = false;
      button.focus({ preventScroll: true });
    }
  });

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if ((event.target as HTMLElement).tagName === "INPUT") return; // a selection checkbox keeps its keys
    const pageRows = Math.max(1, Math.floor(window.innerHeight / rowHeight));
    const next = nextIndex(event.key, activeIndex, items.length, columns, pageRows);
    if (next === null) return;
    event.preventDefault();
    setActive(next);
    focusActive.current = true;
    scrollRowIntoView(Math.floor(next / columns), rowHeight, top);
  };

  // Each drawn row in its slot (its index modulo the rows drawn), in slot order: the slots keep their
  // DOM nodes and their order while the rows move through them.
  const slots: ReactElement[] = [];
  for (let row = first; row < first + drawn; row++) {
    const activeColumn = Math.floor(activeIndex / columns) === row ? activeIndex % columns : -1;
    slots[row % slotRows] = (
      <GridRow
        key={row % slotRows}
        items={items}
        row={row}
        columns={columns}
        tile={tile}
        y={row * rowHeight}
        setsize={total ?? items.length}
        activeColumn={activeColumn}
        setActive={setActive}
        onOpen={onOpen}
        selection={selection}
      />
    );
  }

  return (
    <>
      <p id={hintId} className="sr-only">
        The arrow keys, Home, End, Page Up and Page Down move between the images.
      </p>
      <div
        ref={ref}
        role="list"
        aria-label={label}
        aria-describedby={hintId}
        className="relative w-full"
        style={{ height: Math.max(0, rows * rowHeight - GRID_GAP_PX) }}
        onKeyDown={onKeyDown}
      >
        {slots.filter(Boolean)}
      </div>
    </>
  );
}
