// The style editor (decision 152): name, the words the style adds to the prompt, its negative prompt, the
// built-in style it draws on, its default quality and ratio, and a preview chosen from the person's own
// images on this device. Saving writes this device at once (offline too) and the outbox tells the server;
// rename is a change of the name; Delete asks once. Below the Pro plan the fields are read-only and say why,
// with a link to /pricing; deleting stays possible.
import { useId, useState, type FormEvent } from "react";
import { Link } from "wouter";
import {
  CUSTOM_STYLE_NAME_MAX,
  CUSTOM_STYLE_NEGATIVE_MAX,
  CUSTOM_STYLE_WORDS_MAX,
} from "#shared/vocabulary/custom-styles.ts";
import { GENERATION_DEFAULTS } from "#shared/vocabulary/generation.ts";
import { isStyleId } from "#shared/vocabulary/styles.ts";
import { charsLeft } from "#shared/vocabulary/prompt.ts";
import { deleteCustomStyle, saveCustomStyle, type CustomStyleDraft } from "../../../../db/custom-styles";
import type { CustomStyleRecord } from "../../../../db/schema";
import { ASPECT_RATIO_OPTIONS, QUALITY_OPTIONS, STYLE_OPTIONS } from "../../../../lib/generation-recipe";
import { Modal } from "../../../../ui/modal";
import { usePreviewChoices } from "./use-custom-styles";

type Props = {
  userId: string;
  /** The style to edit; null makes a new one. */
  style: CustomStyleRecord | null;
  /** The person's tier allows making and changing styles. */
  allowed: boolean;
  /** The built-in style a new style starts from (the generator's choice now). */
  startFrom: string;
  /** Closed: with the saved style, null when it was deleted, undefined when nothing changed. */
  onClose: (saved?: CustomStyleRecord | null) => void;
};

function draftOf(style: CustomStyleRecord | null, startFrom: string): CustomStyleDraft {
  if (style) {
    const { name, prompt, negativePrompt, baseStyle, quality, aspectRatio, preview } = style;
    return { name, prompt, negativePrompt, baseStyle, quality, aspectRatio, preview };
  }
  return {
    name: "",
    prompt: "",
    negativePrompt: "",
    baseStyle: isStyleId(startFrom) ? startFrom : GENERATION_DEFAULTS.style,
    quality: GENERATION_DEFAULTS.quality,
    aspectRatio: GENERATION_DEFAULTS.aspectRatio,
    preview: null,
  };
}

function TextField(props: {
  label: string;
  value: string;
  max: number;
  onChange: (v: string) => void;
  disabled: boolean;
  multiline?: boolean;
  placeholder?: string;
}) {
  const id = useId();
  const Field = props.multiline ? "textarea" : "input";
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {props.label}
      </label>
      <Field
        id={id}
        className={props.multiline ? "textarea w-full" : "input w-full"}
        value={props.value}
        placeholder={props.placeholder}
        disabled={props.disabled}
        aria-describedby={`${id}-left`}
        onChange={(e) => props.onChange(e.target.value)}
      />
      <p id={`${id}-left`} className="text-xs text-base-content/70">
        {charsLeft(props.value, props.max)} characters left
      </p>
    </div>
  );
}

function SelectField(props: {
  label: string;
  value: string;
  options: readonly { value: string; label: string }[];
  onChange: (v: string) => void;
  disabled: boolean;
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {props.label}
      </label>
      <select
        id={id}
        className="select w-full"
        value={props.value}
        disabled={props.disabled}
        onChange={(e) => props.onChange(e.target.value)}
      >
        {props.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

function PreviewPicker(props: {
  userId: string;
  value: string | null;
  onChange: (v: string | null) => void;
  disabled: boolean;
}) {
  const choices = usePreviewChoices(props.userId);
  return (
    <fieldset className="flex flex-col gap-1">
      <legend className="mb-1 text-sm font-medium">Preview, from your images</legend>
      {choices === null ? (
        <p className="text-xs text-base-content/70">Reading your images…</p>
      ) : choices.length === 0 ? (
        <p className="text-xs text-base-content/70">Your images on this device will show here to pick from.</p>
      ) : (
        <div className="grid grid-cols-6 gap-1">
          {choices.map((c) => (
            <button
              key={c.id}
              type="button"
              aria-pressed={props.value === c.src}
              aria-label={`Use the image of “${c.prompt}” as the preview`}
              disabled={props.disabled}
              onClick={() => props.onChange(props.value === c.src ? null : c.src)}
              className={`overflow-hidden rounded-field border-2 ${props.value === c.src ? "border-primary" : "border-transparent"}`}
            >
              <img src={c.src} alt="" className="aspect-square w-full object-cover" />
            </button>
          ))}
        </div>
      )}
    </fieldset>
  );
}

export function CustomStyleEditor({ userId, style, allowed, startFrom, onClose }: Props) {
  const [draft, setDraft] = useState<CustomStyleDraft>(() => draftOf(style, startFrom));
  const [message, setMessage] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const set = <K extends keyof CustomStyleDraft>(key: K, value: CustomStyleDraft[K]) =>
    setDraft((d) => ({ ...d, [key]: value }));
  const locked = !allowed;

  const save = async (e: FormEvent) => {
    e.preventDefault();
    // The editor is portalled out of the generator's form, but React still bubbles its submit there.
    e.stopPropagation();
    if (locked) return;
    const r = await saveCustomStyle(userId, draft, style?.id);
    if (r.ok) onClose(r.style);
    else setMessage(r.message);
  };
  const remove = async () => {
    if (!style) return;
    if (!confirming) {
      setConfirming(true);
      return;
    }
    await deleteCustomStyle(userId, style.id);
    onClose(null);
  };

  return (
    <Modal title={style ? `Edit “${style.name}”` : "New style"} onClose={() => onClose()}>
      <form className="flex flex-col gap-3" onSubmit={(e) => void save(e)} aria-label="Style" noValidate>
        {locked && (
          <p role="note" className="alert alert-info alert-soft text-sm">
            <span>
              Making and changing styles is part of the Pro plan. Your styles stay yours to use and delete.{" "}
              <Link to="/pricing" className="link font-medium">
                See plans
              </Link>
            </span>
          </p>
        )}
        <TextField
          label="Name"
          value={draft.name}
          max={CUSTOM_STYLE_NAME_MAX}
          disabled={locked}
          placeholder="Moody film"
          onChange={(v) => set("name", v)}
        />
        <TextField
          label="Words added to the prompt"
          value={draft.prompt}
          max={CUSTOM_STYLE_WORDS_MAX}
          disabled={locked}
          multiline
          placeholder="35mm film, teal and orange, soft grain"
          onChange={(v) => set("prompt", v)}
        />
        <TextField
          label="Negative prompt"
          value={draft.negativePrompt}
          max={CUSTOM_STYLE_NEGATIVE_MAX}
          disabled={locked}
          placeholder="blurry, text"
          onChange={(v) => set("negativePrompt", v)}
        />
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
          <SelectField
            label="Draws on"
            value={draft.baseStyle}
            options={STYLE_OPTIONS}
            disabled={locked}
            onChange={(v) => set("baseStyle", v)}
          />
          <SelectField
            label="Default quality"
            value={draft.quality}
            options={QUALITY_OPTIONS}
            disabled={locked}
            onChange={(v) => set("quality", v as CustomStyleDraft["quality"])}
          />
          <SelectField
            label="Default ratio"
            value={draft.aspectRatio}
            options={ASPECT_RATIO_OPTIONS}
            disabled={locked}
            onChange={(v) => set("aspectRatio", v as CustomStyleDraft["aspectRatio"])}
          />
        </div>
        <PreviewPicker userId={userId} value={draft.preview} disabled={locked} onChange={(v) => set("preview", v)} />
        {message && (
          <p role="alert" className="text-sm font-semibold text-error">
            {message}
          </p>
        )}
        <div className="modal-action flex-wrap">
          {style && (
            <button type="button" className="btn btn-ghost text-error" onClick={() => void remove()}>
              {confirming ? "Delete it for good" : "Delete style"}
            </button>
          )}
          <button type="button" className="btn btn-ghost" onClick={() => onClose()}>
            Cancel
          </button>
          {!locked && (
            <button type="submit" className="btn btn-primary">
              Save style
            </button>
          )}
        </div>
      </form>
    </Modal>
  );
}
