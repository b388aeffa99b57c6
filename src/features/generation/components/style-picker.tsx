// 'Choose Your Style' (docs/spec.md §2): cards with a preview, label, description, a check mark on the
// selected one, NEW and fire (popular) badges. The first 6 show by default; one button shows all
// 27. A selection outside the first 6 (from a link or a preference) stays visible while collapsed.
// As many columns as fit cards of at least 7rem, so the longest label ("Photorealistic") stays on one
// line in the narrow settings column beside the sidebar.
import { useId, useState } from "react";
import { STYLES, type StyleId } from "#shared/vocabulary/styles.ts";
import { stylePreviewSrc } from "../../../lib/style-catalog";
import { PageIcon } from "../../../ui/page-icons";

/** docs/spec.md §9: the style grid shows 6 styles. */
export const STYLE_GRID_COUNT = 6;

type Props = {
  value: StyleId;
  onChange: (style: StyleId) => void;
  disabled?: boolean;
  /** A custom style is chosen instead (decision 152): no built-in card shows as pressed. */
  noneSelected?: boolean;
};

export function StylePicker({ value, onChange, disabled, noneSelected = false }: Props) {
  const id = useId();
  const [showAll, setShowAll] = useState(false);
  const visible = showAll ? STYLES : STYLES.filter((s, i) => i < STYLE_GRID_COUNT || s.id === value);
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-2 text-sm font-medium">Choose Your Style</legend>
      <div id={`${id}-grid`} className="grid grid-cols-[repeat(auto-fill,minmax(7rem,1fr))] gap-2">
        {visible.map((s) => {
          const selected = s.id === value && !noneSelected;
          return (
            <button
              key={s.id}
              type="button"
              aria-label={s.label}
              aria-pressed={selected}
              aria-describedby={`${id}-${s.id}`}
              disabled={disabled}
              onClick={() => onChange(s.id)}
              className={`relative flex flex-col overflow-hidden rounded-box border text-left transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary ${
                selected ? "border-primary ring-2 ring-primary" : "border-base-300 hover:border-primary/60"
              }`}
            >
              <img
                src={stylePreviewSrc(s.id)}
                alt=""
                width={320}
                height={320}
                loading="lazy"
                decoding="async"
                className="aspect-[4/3] w-full bg-base-200 object-cover"
              />
              <span className="absolute top-1.5 left-1.5 flex gap-1" aria-hidden="true">
                {s.isNew && <span className="badge badge-secondary badge-xs font-bold">NEW</span>}
                {s.isPopular && (
                  <span className="badge badge-warning badge-xs" title="Popular">
                    <PageIcon name="flame" className="size-3" />
                  </span>
                )}
              </span>
              {selected && (
                <span
                  className="absolute top-1.5 right-1.5 grid size-6 place-items-center rounded-full bg-primary text-primary-content"
                  aria-hidden="true"
                >
                  <PageIcon name="check" className="size-4" />
                </span>
              )}
              <span className="flex flex-col gap-0.5 p-2">
                <span className="text-xs leading-tight font-semibold [overflow-wrap:anywhere]">{s.label}</span>
                <span id={`${id}-${s.id}`} className="line-clamp-2 text-xs text-base-content/75">
                  {s.isNew ? <span className="sr-only">New. </span> : null}
                  {s.isPopular ? <span className="sr-only">Popular. </span> : null}
                  {s.description}
                </span>
              </span>
            </button>
          );
        })}
      </div>
      <button
        type="button"
        className="btn btn-ghost btn-sm self-start"
        aria-expanded={showAll}
        aria-controls={`${id}-grid`}
        onClick={() => setShowAll((v) => !v)}
      >
        {showAll ? "Show fewer styles" : `Show all ${STYLES.length} styles`}
      </button>
    </fieldset>
  );
}
