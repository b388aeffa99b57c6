// The History search box and filters. The search box is always in view; the other filters fold
// into a disclosure on narrow screens so the grid starts high on a phone.
import { useState } from "react";
import { ASPECT_RATIO_OPTIONS, QUALITY_OPTIONS, STYLE_OPTIONS } from "../../lib/generation-recipe";
import { SearchField } from "../../ui/search-field";
import { LabelledField, SelectField } from "../../ui/labelled-field";
import { EMPTY_FILTERS, activeFilterCount, type HistoryFilters, type TriState } from "./history-filters";

type Props = { value: HistoryFilters; onChange: (next: HistoryFilters) => void };

const ANY = { value: "any", label: "Any" };
type Option = { value: string; label: string };
const RECIPE_FILTERS: ReadonlyArray<readonly ["style" | "quality" | "aspectRatio", string, readonly Option[]]> = [
  ["style", "Style", STYLE_OPTIONS],
  ["quality", "Quality", QUALITY_OPTIONS],
  ["aspectRatio", "Aspect ratio", ASPECT_RATIO_OPTIONS],
];

function TriSelect(props: {
  label: string;
  value: TriState;
  yes: string;
  no: string;
  onChange: (v: TriState) => void;
}) {
  return (
    <SelectField<TriState>
      label={props.label}
      size="sm"
      value={props.value}
      options={[
        { value: "any", label: "Any" },
        { value: "yes", label: props.yes },
        { value: "no", label: props.no },
      ]}
      onChange={props.onChange}
    />
  );
}

/**
 * The recipe filters (style, quality, aspect ratio, saved, published, days) as fields of a grid the caller
 * lays out: History's filters, and a smart collection's filter form (handed in by the app).
 */
export function FilterFields({ value, onChange }: Props) {
  const set = <K extends keyof HistoryFilters>(key: K, v: HistoryFilters[K]) => onChange({ ...value, [key]: v });
  return (
    <>
      {RECIPE_FILTERS.map(([key, label, options]) => (
        <SelectField
          key={key}
          label={label}
          size="sm"
          value={value[key]}
          options={[ANY, ...options]}
          onChange={(v) => set(key, v)}
        />
      ))}
      <TriSelect label="Saved" value={value.saved} yes="Saved" no="Not saved" onChange={(v) => set("saved", v)} />
      <TriSelect
        label="Published"
        value={value.published}
        yes="Published"
        no="Private"
        onChange={(v) => set("published", v)}
      />
      {(["from", "to"] as const).map((end) => (
        <LabelledField key={end} label={end === "from" ? "From" : "To"}>
          <input
            type="date"
            className="input input-sm w-full"
            value={value[end]}
            min={end === "to" ? value.from || undefined : undefined}
            max={end === "from" ? value.to || undefined : undefined}
            onChange={(e) => set(end, e.target.value)}
          />
        </LabelledField>
      ))}
    </>
  );
}

export function LibraryFilters({ value, onChange }: Props) {
  const active = activeFilterCount(value);
  // Open on wide screens, folded on phones; after that the person decides.
  const [initiallyOpen] = useState(() => window.matchMedia?.("(min-width: 640px)").matches ?? true);
  return (
    <div role="search" aria-label="Search and filter your generations" className="flex flex-col gap-3">
      <SearchField
        label="Search prompts"
        placeholder="Search your prompts"
        value={value.text}
        onChange={(text) => onChange({ ...value, text })}
      />
      <details className="rounded-box border border-base-300 bg-base-100" open={initiallyOpen}>
        <summary className="cursor-pointer px-4 py-2 text-sm font-medium">
          Filters{active > 0 ? ` (${active} set)` : ""}
        </summary>
        <div className="grid grid-cols-2 gap-3 px-4 pb-4 sm:grid-cols-4 lg:grid-cols-7">
          <FilterFields value={value} onChange={onChange} />
          {active > 0 && (
            <div className="col-span-full">
              <button
                type="button"
                className="btn btn-ghost btn-sm"
                onClick={() => onChange({ ...EMPTY_FILTERS, text: value.text })}
              >
                Clear filters
              </button>
            </div>
          )}
        </div>
      </details>
    </div>
  );
}
