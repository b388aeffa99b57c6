// A virtualized grid of generations that stays smooth at 10,000 items: only the rows near the
// viewport are in the DOM (the page scrolls, the grid reserves the full height), tiles are square
// and sized from the grid's width, so every row has the same known height and nothing is measured
// while scrolling.
import { useWindowVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from "react";
import type { GenerationRecord } from "../../db/schema";
import { GenerationTile } from "./generation-tile";

export const GRID_GAP_PX = 12;
export const TILE_MIN_PX = 160;
/** Rows drawn beyond the viewport on each side, so a fast flick does not show blanks. */
const OVERSCAN_ROWS = 3;
/** Until the grid is laid out (or where nothing lays out, as in tests) it assumes this width. */
const FALLBACK_WIDTH_PX = 960;

export function gridGeometry(width: number): { columns: number; tile: number } {
  const w = width > 0 ? width : FALLBACK_WIDTH_PX;
  const columns = Math.max(2, Math.floor((w + GRID_GAP_PX) / (TILE_MIN_PX + GRID_GAP_PX)));
  return { columns, tile: (w - GRID_GAP_PX * (columns - 1)) / columns };
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
  label: string;
  onOpen: (id: string) => void;
  selection?: Selection;
};

export function GenerationGrid({ items, label, onOpen, selection }: Props) {
  const ref = useRef<HTMLUListElement>(null);
  const width = useWidth(ref);
  const { columns, tile } = gridGeometry(width);
  const rowHeight = tile + GRID_GAP_PX;
  const rows = Math.ceil(items.length / columns);
  const [scrollMargin, setScrollMargin] = useState(0);

  useLayoutEffect(() => {
    // The grid's distance from the top of the page, re-read when the filters above it change size.
    const el = ref.current;
    if (el) setScrollMargin(el.getBoundingClientRect().top + window.scrollY);
  }, [width, items.length]);

  const virtualizer = useWindowVirtualizer({
    count: rows,
    estimateSize: () => rowHeight,
    overscan: OVERSCAN_ROWS,
    scrollMargin,
  });

  useEffect(() => {
    virtualizer.measure();
  }, [virtualizer, rowHeight]);

  return (
    <ul
      ref={ref}
      aria-label={label}
      className="relative w-full"
      style={{ height: Math.max(0, rows * rowHeight - GRID_GAP_PX) }}
    >
      {virtualizer.getVirtualItems().flatMap((row) =>
        items.slice(row.index * columns, row.index * columns + columns).map((record, col) => (
          <li
            key={record.id}
            aria-setsize={items.length}
            aria-posinset={row.index * columns + col + 1}
            className="absolute"
            style={{
              top: row.start - scrollMargin,
              left: col * (tile + GRID_GAP_PX),
              width: tile,
              height: tile,
            }}
          >
            <GenerationTile
              record={record}
              onOpen={onOpen}
              selected={selection ? selection.selected.has(record.id) : undefined}
              onToggle={selection?.toggle}
            />
          </li>
        )),
      )}
    </ul>
  );
}
