// The recipe fields of the compared images in one table: a row per field, a column per image, and each
// row marked "Differs" (its cells highlighted) or "Same". "Differences only" hides the rows that match.
import { useId, useState } from "react";
import { differenceSummary, type DiffRow } from "./recipe-diff";

type Props = { rows: readonly DiffRow[]; letters: readonly string[] };

export function CompareTable({ rows, letters }: Props) {
  const [onlyDiffs, setOnlyDiffs] = useState(false);
  const toggleId = useId();
  const shown = onlyDiffs ? rows.filter((r) => r.differs) : rows;
  return (
    <section aria-labelledby={`${toggleId}-title`} className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={`${toggleId}-title`} className="text-xl font-semibold">
          Settings
        </h2>
        <label htmlFor={toggleId} className="flex cursor-pointer items-center gap-2 text-sm">
          <input
            id={toggleId}
            type="checkbox"
            className="toggle toggle-sm toggle-primary"
            checked={onlyDiffs}
            onChange={(e) => setOnlyDiffs(e.target.checked)}
          />
          Differences only
        </label>
      </div>
      <table className="table table-fixed table-xs w-full sm:table-sm">
        <caption className="caption-top pb-2 text-left text-sm text-base-content/80">{differenceSummary(rows)}</caption>
        <thead>
          <tr>
            <th scope="col" className="w-24 sm:w-36">
              Field
            </th>
            {letters.map((letter) => (
              <th key={letter} scope="col">
                {letter}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {shown.map((row) => (
            <tr key={row.label} data-differs={row.differs ? "" : undefined}>
              <th scope="row" className="align-top font-medium">
                <span className="block break-words">{row.label}</span>
                {row.differs ? (
                  <span className="badge badge-warning badge-sm mt-1">Differs</span>
                ) : (
                  <span className="mt-1 block text-xs font-normal text-base-content/70">Same</span>
                )}
              </th>
              {row.values.map((value, i) => (
                <td
                  key={letters[i]}
                  className={`align-top break-words ${row.differs ? "bg-warning/15 font-medium" : "text-base-content/80"}`}
                >
                  {value}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
