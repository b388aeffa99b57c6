// The bar of a grid in "select to compare" mode (History, the gallery): how many are picked, Compare
// (a link to /compare with them, once 2 to 4 are) and Cancel. It sticks to the top while the grid scrolls.
import type { ReactNode } from "react";
import { Link } from "wouter";
import { canCompare, compareHint, compareLink } from "../lib/compare-link";

/** A grid's selection bar: what is selected (announced politely) and what can be done with it. */
export function SelectionToolbar({ label, status, children }: { label: string; status: string; children: ReactNode }) {
  return (
    <div
      role="toolbar"
      aria-label={label}
      className="sticky top-16 z-10 mb-4 flex flex-wrap items-center gap-2 rounded-box border border-base-300 bg-base-100/95 p-2 backdrop-blur"
    >
      <p role="status" className="px-2 text-sm font-medium">
        {status}
      </p>
      <div className="ms-auto flex flex-wrap gap-2">{children}</div>
    </div>
  );
}

type Props = {
  ids: readonly string[];
  onCancel: () => void;
  /** What else the page offers for the ids picked (History: add them to a collection). */
  children?: ReactNode;
};

export function CompareBar({ ids, onCancel, children }: Props) {
  return (
    <SelectionToolbar label="Compare" status={compareHint(ids.length)}>
      <button type="button" className="btn btn-ghost btn-sm" onClick={onCancel}>
        Cancel
      </button>
      {children}
      <CompareLink ids={ids} />
    </SelectionToolbar>
  );
}

/** "Compare" as a link to the comparison of `ids`; shown disabled (no address) unless 2 to 4 are picked. */
export function CompareLink({ ids }: { ids: readonly string[] }) {
  return canCompare(ids.length) ? (
    <Link to={compareLink(ids)} className="btn btn-primary btn-sm">
      Compare
    </Link>
  ) : (
    <a role="link" aria-disabled="true" className="btn btn-primary btn-sm btn-disabled">
      Compare
    </a>
  );
}
