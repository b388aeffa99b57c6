// 'Your styles' (decision 152), beside the 27 built-in styles: the person's own styles as cards like the
// built-in ones (their preview, name and words), one pressed when chosen, each with Edit; "New style" opens
// the editor. A person whose tier does not allow making styles (or a visitor) is told that custom styles are
// the Pro plan's, with a link to /pricing; styles they already have stay listed and usable.
import { useId, useState } from "react";
import { createPortal } from "react-dom";
import { Link } from "wouter";
import type { CustomStyleRecord } from "../../../../db/schema";
import { Icon } from "../../../../ui/icons";
import { PageIcon } from "../../../../ui/page-icons";
import { CustomStyleEditor } from "./custom-style-editor";
import { useCustomStyles, useCustomStylesAllowed } from "./use-custom-styles";

type Props = {
  userId: string | null | undefined;
  /** The chosen custom style's id; "" when a built-in style is chosen. */
  value: string;
  /** A style chosen (its defaults go into the form), or null when the chosen one is gone. */
  onChange: (style: CustomStyleRecord | null) => void;
  /** The built-in style chosen now: a new style starts from it. */
  currentStyle: string;
};

function ProPlanNote() {
  return (
    <p className="text-sm text-base-content/80">
      Save your own styles (words, negative prompt, quality, ratio and a preview) with the Pro plan.{" "}
      <Link to="/pricing" className="link font-medium">
        See plans
      </Link>
    </p>
  );
}

export function CustomStylePicker({ userId, value, onChange, currentStyle }: Props) {
  const id = useId();
  const styles = useCustomStyles(userId) ?? [];
  const allowed = useCustomStylesAllowed(userId) === true;
  const [editing, setEditing] = useState<CustomStyleRecord | "new" | null>(null);
  const close = (saved?: CustomStyleRecord | null) => {
    setEditing(null);
    if (saved === null && editing !== "new" && editing?.id === value) onChange(null);
    else if (saved && (editing === "new" || saved.id === value)) onChange(saved);
  };
  return (
    <fieldset className="flex flex-col gap-2" aria-describedby={`${id}-lead`}>
      <legend className="mb-2 text-sm font-medium">Your styles</legend>
      <p id={`${id}-lead`} className="sr-only">
        Your own saved styles; choosing one adds its words to the prompt.
      </p>
      {styles.length > 0 && (
        <ul className="grid grid-cols-[repeat(auto-fill,minmax(7rem,1fr))] gap-2">
          {styles.map((s) => {
            const selected = s.id === value;
            return (
              <li key={s.id} className="flex flex-col gap-1">
                <button
                  type="button"
                  aria-pressed={selected}
                  aria-label={s.name}
                  aria-describedby={`${id}-${s.id}`}
                  onClick={() => onChange(selected ? null : s)}
                  className={`relative flex flex-col overflow-hidden rounded-box border text-left transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary ${
                    selected ? "border-primary ring-2 ring-primary" : "border-base-300 hover:border-primary/60"
                  }`}
                >
                  {s.preview ? (
                    <img src={s.preview} alt="" className="aspect-[4/3] w-full bg-base-200 object-cover" />
                  ) : (
                    <span className="grid aspect-[4/3] w-full place-items-center bg-base-200" aria-hidden="true">
                      <Icon name="sparkles" className="size-6 text-base-content/60" />
                    </span>
                  )}
                  {selected && (
                    <span
                      className="absolute top-1.5 right-1.5 grid size-6 place-items-center rounded-full bg-primary text-primary-content"
                      aria-hidden="true"
                    >
                      <PageIcon name="check" className="size-4" />
                    </span>
                  )}
                  <span className="flex flex-col gap-0.5 p-2">
                    <span className="text-xs leading-tight font-semibold [overflow-wrap:anywhere]">{s.name}</span>
                    <span id={`${id}-${s.id}`} className="line-clamp-2 text-xs text-base-content/75">
                      {s.prompt}
                    </span>
                  </span>
                </button>
                <button
                  type="button"
                  className="btn btn-ghost btn-xs self-start"
                  aria-label={`Edit ${s.name}`}
                  onClick={() => setEditing(s)}
                >
                  Edit
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {userId && allowed ? (
        <button type="button" className="btn btn-outline btn-sm self-start" onClick={() => setEditing("new")}>
          <Icon name="palette" className="size-4" />
          New style
        </button>
      ) : (
        <ProPlanNote />
      )}
      {/* Outside the generator's form (a form inside a form is not HTML, and Enter there would generate). */}
      {editing &&
        userId &&
        createPortal(
          <CustomStyleEditor
            userId={userId}
            style={editing === "new" ? null : editing}
            allowed={allowed}
            startFrom={currentStyle}
            onClose={close}
          />,
          document.body,
        )}
    </fieldset>
  );
}
