// The History search box and filters. The search box is always in view; the other filters fold
// into a disclosure on narrow screens so the grid starts high on a phone.
import { useState, type ReactNode } from "react";
import { ASPECT_RATIOS, QUALITIES } from "#shared/vocabulary/generation.ts";
import { STYLES } from "#shared/vocabulary/styles.ts";
import { qualityLabel } from "../../lib/generation-recipe";
import { Icon } from "../../ui/icons";
import { EMPTY_FILTERS, activeFilterCount, type HistoryFilters, type TriState } from "./history-filters";

type Props = { value: HistoryFilters; onChange: (next: HistoryFilters) => void };

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <label className="flex flex-col gap-1">
      <span className="text-sm font-medium">{label}</span>
      {children}
    </label>
  );
}

function TriSelect(props: {
  label: string;
  value: TriState;
  yes: string;
  no: string;
  onChange: (v: TriState) => void;
}) {
  return (
    <Field label={props.label}>
      <select
        className="select select-sm w-full"
        value={props.value}
        onChange={(e) => props.onChange(e.target.value as TriState)}
      >
        <option value="any">Any</option>
        <option value="yes">{props.yes}</option>
        <option value="no">{props.no}</option>
      </select>
    </Field>
  );
}

export function LibraryFilters({ value, onChange }: Props) {
  const set = <K extends keyof HistoryFilters>(key: K, v: HistoryFilters[K]) => onChange({ ...value, [key]: v });
  const active = activeFilterCount(value);
  // Open on wide screens, folded on phones; after that the person decides.
  const [initiallyOpen] = useState(() => window.matchMedia?.("(min-width: 640px)").matches ?? true);
  return (
    <div role="search" aria-label="Search and filter your generations" className="flex flex-col gap-3">
      <label className="input w-full">
        <Icon name="search" className="size-4 opacity-70" />
        <span className="sr-only">Search prompts</span>
        <input
          type="search"
          placeholder="Search your prompts"
          value={value.text}
          onChange={(e) => set("text", e.target.value)}
        />
      </label>
      <details className="rounded-box border border-base-300 bg-base-100" open={initiallyOpen}>
        <summary className="cursor-pointer px-4 py-2 text-sm font-medium">
          Filters{active > 0 ? ` (${active} set)` : ""}
        </summary>
        <div className="grid grid-cols-2 gap-3 px-4 pb-4 sm:grid-cols-4 lg:grid-cols-7">
          <Field label="Style">
            <select
              className="select select-sm w-full"
              value={value.style}
              onChange={(e) => set("style", e.target.value)}
            >
              <option value="any">Any</option>
              {STYLES.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.label}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Quality">
            <select
              className="select select-sm w-full"
              value={value.quality}
              onChange={(e) => set("quality", e.target.value)}
            >
              <option value="any">Any</option>
              {QUALITIES.map((q) => (
                <option key={q} value={q}>
                  {qualityLabel(q)}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Aspect ratio">
            <select
              className="select select-sm w-full"
              value={value.aspectRatio}
              onChange={(e) => set("aspectRatio", e.target.value)}
            >
              <option value="any">Any</option>
              {ASPECT_RATIOS.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          </Field>
          <TriSelect label="Saved" value={value.saved} yes="Saved" no="Not saved" onChange={(v) => set("saved", v)} />
          <TriSelect
            label="Published"
            value={value.published}
            yes="Published"
            no="Private"
            onChange={(v) => set("published", v)}
          />
          <Field label="From">
            <input
              type="date"
              className="input input-sm w-full"
              value={value.from}
              max={value.to || undefined}
              onChange={(e) => set("from", e.target.value)}
            />
          </Field>
          <Field label="To">
            <input
              type="date"
              className="input input-sm w-full"
              value={value.to}
              min={value.from || undefined}
              onChange={(e) => set("to", e.target.value)}
            />
          </Field>
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
