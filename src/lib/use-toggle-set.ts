// A set of ids ticked one by one (Saved's and a collection's selection), with a toggle that stays the same
// function, so memoized grid tiles do not all render again when one is ticked.
import { useCallback, useState } from "react";

export function useToggleSet(): {
  chosen: ReadonlySet<string>;
  setChosen: (next: ReadonlySet<string>) => void;
  toggle: (id: string) => void;
} {
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const toggle = useCallback(
    (id: string) =>
      setChosen((prev) => {
        const next = new Set(prev);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        return next;
      }),
    [],
  );
  return { chosen, setChosen, toggle };
}
