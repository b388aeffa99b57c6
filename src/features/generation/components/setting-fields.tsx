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

/** What the quality changes on each engine the server can draw with (its adapters under supabase/functions/_shared/providers). */
const QUALITY_ON_ENGINE: Readonly<Record<string, string>> = {
  builtin:
    "The built-in procedural renderer (not an AI model) draws the same scene at every quality: finer marks and texture at High, and at Ultra the scene drawn at twice the size and scaled down, which takes longer.",
  replicate:
    "Replicate draws with FLUX Schnell at Standard, FLUX Dev at High and FLUX 1.1 Pro at Ultra; the Nano Banana style uses Google's nano-banana at every quality.",
  runware: "Runware draws with FLUX Schnell at Standard and FLUX Dev at High and Ultra.",
  bfl: "Black Forest Labs draws with FLUX.1 Dev at Standard (20 steps) and High (28 steps), and FLUX 1.1 Pro at Ultra.",
  fal: "fal draws with FLUX Schnell in 4 steps at Standard, 8 at High and 12 at Ultra.",
  openai: "The OpenAI-style API draws the same way at every quality.",
  gemini: "Google Gemini draws the same way at every quality.",
  a1111:
    "The self-hosted server takes more sampling steps at each level (20, 30 and 40 unless its operator set others).",
  comfyui:
    "The self-hosted server takes more sampling steps at each level (20, 30 and 40 unless its operator set others).",
};

const QUALITY_HINT: Readonly<Record<Quality, string>> = {
  standard: "Standard detail",
  high: "More detail",
  ultra: "Most detail",
};

/**
 * `engine`: the one that will draw (the Engine field's choice, else the deployment's default), or null
 * while the list is unknown. The words say what quality changes there, and never promise a model that
 * may not be connected (docs/decisions/143-what-the-public-pages-say.md).
 */
export function QualityField(props: {
  value: Quality;
  onChange: (q: Quality) => void;
  disabled?: boolean;
  engine?: string | null;
}) {
  const { engine, ...choice } = props;
  const known = engine ? QUALITY_ON_ENGINE[engine] : undefined;
  return (
    <div className="flex flex-col gap-1.5">
      <ChoiceGroup label="Quality" values={QUALITIES} text={qualityLabel} hint={(q) => QUALITY_HINT[q]} {...choice} />
      <p className="text-xs text-base-content/70">
        {known ??
          "What quality changes depends on the engine that draws: an AI model, where one is connected, may switch model or take more steps; the built-in renderer draws the same scene more finely."}
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
