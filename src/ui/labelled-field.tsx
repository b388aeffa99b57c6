// A labelled field (the label text above its control) and the <select> made of it, as the settings
// and filter forms lay them out. The option lists come from the caller.
import type { ReactNode } from "react";

type SelectOption<T extends string> = { value: T; label: string };

export function LabelledField({ label, children }: { label: string; children: ReactNode }) {
  return (
    <label className="flex flex-col gap-1">
      <span className="text-sm font-medium">{label}</span>
      {children}
    </label>
  );
}

export function SelectField<T extends string>(props: {
  label: string;
  value: T;
  options: readonly SelectOption<T>[];
  onChange: (value: T) => void;
  /** The select's classes; the small size suits dense filter rows. */
  size?: "md" | "sm";
}) {
  return (
    <LabelledField label={props.label}>
      <select
        className={props.size === "sm" ? "select select-sm w-full" : "select w-full"}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value as T)}
      >
        {props.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </LabelledField>
  );
}
