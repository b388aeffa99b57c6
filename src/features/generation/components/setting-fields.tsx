// The generator's smaller controls (docs/spec.md §2, §5): negative prompt, quality, aspect ratio, seed and
// batch mode with its count slider. Each is labelled for assistive technology and the e2e tests.
import { useEffect, useId, useRef, type ReactNode } from "react";
import {
  ASPECT_RATIOS,
  BATCH_MAX,
  BATCH_MIN,
  DIMENSIONS,
  NEGATIVE_PROMPT_MAX_CHARS,
  QUALITIES,
  type AspectRatio,
  type Quality,
} from "#shared/vocabulary/generation.ts";
import { charsLeft } from "#shared/vocabulary/prompt.ts";
import { qualityLabel } from "../../../lib/generation-recipe";
import { takeTypedBeforeLive } from "../../../lib/typed-before-live";
import { ConcurrencyControl } from "./concurrency-control";

const RATIO_LABEL: Record<AspectRatio, string> = { "1:1": "Square", "16:9": "Landscape", "9:16": "Portrait" };

/** A field's label with "Optional" at its end. */
export function OptionalLabel({ htmlFor, label }: { htmlFor: string; label: string }) {
  return (
    <div className="flex items-baseline justify-between gap-2">
      <label htmlFor={htmlFor} className="text-sm font-medium">
        {label}
      </label>
      <span className="text-xs text-base-content/70">Optional</span>
    </div>
  );
}

/** The line under a field: its error when it has one (stressed), else its help. */
function FieldHelp({ id, error, children }: { id: string; error?: string; children: ReactNode }) {
  return (
    <p id={id} className={`text-xs ${error ? "font-semibold text-base-content" : "text-base-content/70"}`}>
      {error ?? children}
    </p>
  );
}

export function NegativePromptField(props: {
  value: string;
  onChange: (v: string) => void;
  error?: string;
  disabled?: boolean;
}) {
  const id = useId();
  const keepTyped = useRef(props.onChange);
  useEffect(() => {
    // Typed into the prerendered field before the page was drawn afresh (lib/typed-before-live.ts).
    const typed = takeTypedBeforeLive("negative_prompt");
    if (typed) keepTyped.current(typed);
  }, []);
  return (
    <div className="flex flex-col gap-1.5">
      <OptionalLabel htmlFor={id} label="Negative prompt" />
      <input
        id={id}
        name="negative_prompt"
        className={`input w-full ${props.error ? "input-error" : ""}`}
        value={props.value}
        placeholder="text, watermark, blur"
        disabled={props.disabled}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={`${id}-help`}
        onChange={(e) => props.onChange(e.target.value)}
      />
      <FieldHelp id={`${id}-help`} error={props.error}>
        {`${charsLeft(props.value, NEGATIVE_PROMPT_MAX_CHARS)} characters left`}
      </FieldHelp>
    </div>
  );
}

function ChoiceGroup<T extends string>(props: {
  label: string;
  values: readonly T[];
  value: T;
  onChange: (v: T) => void;
  text: (v: T) => string;
  hint: (v: T) => string;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <fieldset role="radiogroup" aria-labelledby={`${id}-legend`} className="flex flex-col gap-1.5">
      <legend id={`${id}-legend`} className="mb-1.5 text-sm font-medium">
        {props.label}
      </legend>
      <div className="grid grid-cols-3 gap-2">
        {props.values.map((v) => (
          <label
            key={v}
            className={`flex cursor-pointer flex-col items-center rounded-field border px-2 py-2 text-center has-focus-visible:outline-2 has-focus-visible:outline-primary ${
              props.value === v ? "border-primary bg-primary/10" : "border-base-300"
            }`}
          >
            <input
              type="radio"
              className="sr-only"
              name={id}
              value={v}
              checked={props.value === v}
              disabled={props.disabled}
              onChange={() => props.onChange(v)}
            />
            <span className="text-sm font-medium">{props.text(v)}</span>
            <span className="text-xs text-base-content/70">{props.hint(v)}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

export function QualityField(props: { value: Quality; onChange: (q: Quality) => void; disabled?: boolean }) {
  // An AI model (when one is connected) changes with quality; the built-in renderer draws the same scene
  // more finely at High and Ultra (docs/decisions/102-built-in-qualities-draw-the-same-scene-finer.md).
  return (
    <div className="flex flex-col gap-1.5">
      <ChoiceGroup
        label="Quality"
        values={QUALITIES}
        text={qualityLabel}
        hint={(q) =>
          q === "standard" ? "Fastest AI model" : q === "high" ? "Detailed AI model" : "Most detailed AI model"
        }
        {...props}
      />
      <p className="text-xs text-base-content/70">
        Quality picks the AI model when one is connected; the built-in renderer draws the same scene, more finely at
        High and Ultra (Ultra takes about twice as long).
      </p>
    </div>
  );
}

export function AspectRatioField(props: {
  value: AspectRatio;
  onChange: (r: AspectRatio) => void;
  disabled?: boolean;
}) {
  return (
    <ChoiceGroup
      label="Aspect ratio"
      values={ASPECT_RATIOS}
      text={(r) => r}
      hint={(r) => `${RATIO_LABEL[r]} · ${DIMENSIONS[r].width}×${DIMENSIONS[r].height}`}
      {...props}
    />
  );
}

export function SeedField(props: { value: string; onChange: (v: string) => void; error?: string; disabled?: boolean }) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1.5">
      <OptionalLabel htmlFor={id} label="Seed" />
      <input
        id={id}
        className={`input w-full ${props.error ? "input-error" : ""}`}
        inputMode="numeric"
        autoComplete="off"
        placeholder="Random"
        value={props.value}
        disabled={props.disabled}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={`${id}-help`}
        onChange={(e) => props.onChange(e.target.value.trim())}
      />
      <FieldHelp id={`${id}-help`} error={props.error}>
        Same prompt, style, size and seed give the same picture. Empty means random.
      </FieldHelp>
    </div>
  );
}

export function BatchField(props: {
  on: boolean;
  count: number;
  onToggle: (on: boolean) => void;
  onCount: (n: number) => void;
  /** The queue's concurrency: how many of the batch's images are drawn at once. */
  concurrency: number;
  onConcurrency: (n: number) => void;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-2">
      <label className="flex cursor-pointer items-center justify-between gap-3">
        <span className="text-sm font-medium">Batch mode</span>
        <input
          type="checkbox"
          className="toggle toggle-primary"
          checked={props.on}
          disabled={props.disabled}
          onChange={(e) => props.onToggle(e.target.checked)}
        />
      </label>
      {props.on && (
        <div className="flex flex-col gap-1">
          <div className="flex justify-between text-xs">
            <label htmlFor={id} className="text-base-content/80">
              Batch count
            </label>
            <output htmlFor={id} className="font-semibold">
              {props.count} {props.count === 1 ? "image" : "images"}
            </output>
          </div>
          <input
            id={id}
            type="range"
            className="range range-primary range-sm w-full"
            min={BATCH_MIN}
            max={BATCH_MAX}
            step={1}
            value={props.count}
            disabled={props.disabled}
            onChange={(e) => props.onCount(Number(e.target.value))}
          />
          <div className="mt-2 flex items-center justify-between gap-3 text-xs">
            <span className="text-base-content/80">Images drawn at once</span>
            <ConcurrencyControl
              value={props.concurrency}
              onChange={props.onConcurrency}
              names={{
                value: "Images drawn at once",
                less: "Draw fewer images at once",
                more: "Draw more images at once",
              }}
            />
          </div>
        </div>
      )}
    </div>
  );
}
