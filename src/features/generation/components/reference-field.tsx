// The optional reference image (docs/spec.md §5): images only ('Please select an image file' otherwise),
// read as a data URL, shown as a small preview and removable. A refused file takes the previous image
// with it (what is shown is what Generate sends); the message stays until the next pick, a Reset (the
// form remounts this field) or an image given from outside ("Open an image", a drop).
import { useEffect, useId, useRef, useState } from "react";
import { REFERENCE_IMAGE_MAX_PIXELS, REFERENCE_IMAGE_MAX_SIDE } from "#shared/vocabulary/generation.ts";
import { prepareReference, REFERENCE_MAX_SIDE_PX } from "../../../lib/reference-image";
import { OptionalLabel } from "./setting-fields";

type Reference = { dataUrl: string; name: string };

/** What the field takes, as lib/reference-image.ts prepares it (the server decodes PNG, JPEG and GIF only). */
const REFERENCE_HELP = `Any picture this browser can open, up to ${REFERENCE_IMAGE_MAX_SIDE} px a side and ${REFERENCE_IMAGE_MAX_PIXELS / 1_000_000} million pixels. A small PNG, JPEG or GIF is sent as it is; anything else, WebP included, is redrawn here as a JPEG at most ${REFERENCE_MAX_SIDE_PX} px a side.`;

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
        aria-describedby={error ? `${id}-help ${id}-error` : `${id}-help`}
        onChange={(e) => void onFile(e.target.files?.[0])}
      />
      <p id={`${id}-help`} className="text-xs text-base-content/70">
        {REFERENCE_HELP}
      </p>
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
