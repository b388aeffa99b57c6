// A grid's "select to compare" state (History, the gallery): off until asked for, so a tile's click
// keeps opening its large view; then the ids picked, in the order picked (decision 156).
import { useCallback, useMemo, useState } from "react";
import { toggledSelection } from "./compare-link";

export type CompareSelection = {
  /** Whether the grid shows its selection checkboxes. */
  selecting: boolean;
  /** The ids picked, in the order picked. */
  ids: readonly string[];
  selected: ReadonlySet<string>;
  /** Stable, so memoized tiles do not all render again when one is ticked. */
  toggle: (id: string) => void;
  start: () => void;
  /** Leaves selection mode and forgets the ids. */
  stop: () => void;
  /** What a grid takes to show its checkboxes: defined while selecting, and the same object until the ids change. */
  grid?: { selected: ReadonlySet<string>; toggle: (id: string) => void };
};

export function useCompareSelection(): CompareSelection {
  const [selecting, setSelecting] = useState(false);
  const [ids, setIds] = useState<readonly string[]>([]);
  const toggle = useCallback((id: string) => setIds((prev) => toggledSelection(prev, id)), []);
  const start = useCallback(() => setSelecting(true), []);
  const stop = useCallback(() => {
    setSelecting(false);
    setIds([]);
  }, []);
  const selected = useMemo(() => new Set(ids), [ids]);
  const grid = useMemo(() => (selecting ? { selected, toggle } : undefined), [selecting, selected, toggle]);
  return { selecting, ids, selected, toggle, start, stop, grid };
}
