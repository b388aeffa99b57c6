// The optional reference image (docs/spec.md §5): images only ('Please select an image file' otherwise),
// read as a data URL, shown as a small preview and removable. A refused file takes the previous image
// with it (what is shown is what Generate sends); the message stays until the next pick, a Reset (the
// form remounts this field) or an image given from outside ("Open an image", a drop).
import { useEffect, useId, useRef, useState } from "react";
import { prepareReference } from "../../../lib/reference-image";
import { OptionalLabel } from "./setting-fields";

type Reference = { dataUrl: string; name: string };

type Props = { value: Reference | null; onChange: (v: Reference | null) => void; disabled?: boolean };

export function ReferenceField({ value, onChange, disabled }: Props) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [error, setError] = useState("");
  /** The last value this field gave; any other is from outside. */
  const own = useRef<Reference | null>(value);
  useEffect(() => {
    if (value === own.current) return;
    own.current = value;
    setError("");
    // Cleared from outside: the file input lets go of its file name too.
    if (!value && input.current) input.current.value = "";
  }, [value]);

  const give = (next: Reference | null) => {
    own.current = next;
    onChange(next);
  };

  const onFile = async (file: File | undefined) => {
    setError("");
    if (!file) return;
    const read = await prepareReference(file);
    if (read.ok) give({ dataUrl: read.dataUrl, name: file.name });
    else {
      setError(read.message);
      give(null);
      if (input.current) input.current.value = "";
    }
  };

  return (
    <div className="flex flex-col gap-1.5">
      <OptionalLabel htmlFor={id} label="Reference image" />
      <input
        ref={input}
        id={id}
        type="file"
        accept="image/*"
        className={`file-input file-input-sm w-full ${error ? "file-input-error" : ""}`}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => void onFile(e.target.files?.[0])}
      />
      {error && (
        <p id={`${id}-error`} role="alert" className="text-xs font-semibold text-base-content">
          {error}
        </p>
      )}
      {value && (
        <div className="flex items-center gap-3">
          <img
            src={value.dataUrl}
            alt={`Reference image: ${value.name}`}
            className="size-16 rounded-field border border-base-300 object-cover"
          />
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            disabled={disabled}
            onClick={() => {
              give(null);
              if (input.current) input.current.value = "";
            }}
          >
            Remove reference image
          </button>
        </div>
      )}
    </div>
  );
}
