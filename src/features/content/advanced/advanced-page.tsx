// /advanced: every advanced option explained beside a working control, and a form that builds the
// /generate link with all of them (a reference image waits in sessionStorage for the generator).
import { useId, useState, type ReactNode } from "react";
import { Link } from "wouter";
import { PageHeader } from "../../../ui/page-header";
import {
  ASPECT_RATIOS,
  BATCH_DEFAULT,
  BATCH_MAX,
  BATCH_MIN,
  CONCURRENCY_MAX,
  DIMENSIONS,
  GENERATION_DEFAULTS,
  NEGATIVE_PROMPT_MAX_CHARS,
  PROMPT_MAX_CHARS,
  QUALITIES,
  REFERENCE_IMAGE_MAX_SIDE,
  SEED_MAX,
  type AspectRatio,
  type Quality,
} from "#shared/vocabulary/generation.ts";
import { countedChars, validateNegativePrompt, validatePrompt } from "#shared/vocabulary/prompt.ts";
import { isStyleId, type StyleId } from "#shared/vocabulary/styles.ts";
import { buildGenerateLink, stashReferenceImage } from "../../../lib/generate-link";
import { useOfferedEngines } from "../../../sync/use-offered-engines";
import { EngineField } from "../../../ui/engine-field";
import { prepareReference, REFERENCE_MAX_SIDE_PX } from "../../../lib/reference-image";
import { REFERENCE_BY_ENGINE } from "../reference-engines";
import { STYLES } from "../../../lib/style-catalog";

// What each level picks: an AI model where one is connected; in the built-in renderer, how finely the same
// scene is drawn (docs/decisions/102-built-in-qualities-draw-the-same-scene-finer.md).
const QUALITY_HELP: Record<Quality, string> = {
  standard:
    "FLUX.1 Schnell (fastest) when Replicate or Runware is connected. The built-in renderer draws at its usual detail.",
  high: "FLUX.1 Dev when Replicate or Runware is connected. The built-in renderer draws finer marks and texture.",
  ultra:
    "FLUX 1.1 Pro on Replicate, FLUX.1 Dev on Runware. The built-in renderer draws the scene at twice the size and scales it down: the finest detail, and it takes longer.",
};

/** What a seed does, and on which engines (OpenAI-style APIs and Google's Gemini and nano-banana take none). */
const SEED_EXPLAINED =
  "Fixes the random starting point. With the built-in renderer and the FLUX models, the same prompt, style, size and seed give the same picture; OpenAI-style APIs and Google's Gemini and nano-banana take no seed. Empty means a new random picture each time.";

const RATIO_USES: Record<AspectRatio, string> = {
  "1:1": "feeds, avatars, tiles",
  "16:9": "landscapes, headers",
  "9:16": "portraits, stories",
};

function ratioHelp(ratio: AspectRatio): string {
  const { width, height } = DIMENSIONS[ratio];
  return `${width}×${height}: ${RATIO_USES[ratio]}`;
}

function Option({ title, explain, children }: { title: string; explain: ReactNode; children: ReactNode }) {
  return (
    <fieldset className="grid gap-3 border-t border-base-300 py-6 md:grid-cols-[16rem_1fr] md:gap-8">
      <legend className="sr-only">{title}</legend>
      <div>
        <p className="font-semibold" aria-hidden="true">
          {title}
        </p>
        <div className="mt-1 text-sm leading-relaxed text-base-content/80">{explain}</div>
      </div>
      <div className="min-w-0">{children}</div>
    </fieldset>
  );
}

/**
 * A field's count against its limit, counted as the generator counts (trimmed, in code points), and the
 * generator's message once the text would be refused there (the link carries at most the limit).
 */
function CharCount({ text, max, error }: { text: string; max: number; error: string | null }) {
  return (
    <p className="mt-1 flex justify-between gap-2 text-xs text-base-content/80">
      <span className="font-semibold text-base-content">{error}</span>
      <span className="shrink-0">
        {countedChars(text)}/{max}
      </span>
    </p>
  );
}

export default function AdvancedPage() {
  const id = useId();
  const [prompt, setPrompt] = useState("");
  const [negative, setNegative] = useState("");
  const [style, setStyle] = useState<StyleId>(GENERATION_DEFAULTS.style);
  const [quality, setQuality] = useState<Quality>(GENERATION_DEFAULTS.quality);
  const [ratio, setRatio] = useState<AspectRatio>(GENERATION_DEFAULTS.aspectRatio);
  const [seed, setSeed] = useState("");
  const [batchOn, setBatchOn] = useState(false);
  const [batch, setBatch] = useState(BATCH_DEFAULT);
  const [reference, setReference] = useState<{ dataUrl: string; name: string } | null>(null);
  const [referenceError, setReferenceError] = useState("");
  const [engine, setEngine] = useState("");
  const engines = useOfferedEngines();

  const seedValid = seed === "" || (/^\d+$/.test(seed) && Number(seed) <= SEED_MAX);
  const link = buildGenerateLink({
    prompt,
    negativePrompt: negative,
    style,
    quality,
    aspectRatio: ratio,
    seed: seed && seedValid ? Number(seed) : null,
    batch: batchOn ? batch : null,
    engine: engine || undefined,
    reference: Boolean(reference),
  });

  const onFile = async (file: File | undefined) => {
    setReferenceError("");
    if (!file) return;
    // Redrawn as a small JPEG always: it waits in sessionStorage for the generator.
    const prepared = await prepareReference(file, { alwaysRedraw: true });
    if (prepared.ok) setReference({ dataUrl: prepared.dataUrl, name: file.name });
    else {
      setReference(null);
      setReferenceError(prepared.message);
    }
  };

  return (
    <div className="mx-auto w-full max-w-5xl">
      <PageHeader
        title="Advanced"
        lead="Every option the generator offers beyond the prompt, explained, with a control to try it. When the settings are right, open the generator with all of them filled in."
      />
      <form onSubmit={(e) => e.preventDefault()} aria-label="Advanced generation options">
        <Option
          title="Prompt"
          explain={
            <>What to draw, up to {PROMPT_MAX_CHARS} characters. Subject first, then setting, light and colour.</>
          }
        >
          <label className="sr-only" htmlFor={`${id}-prompt`}>
            Prompt
          </label>
          <textarea
            id={`${id}-prompt`}
            className="textarea w-full"
            rows={3}
            placeholder="A lighthouse on a cliff above a rough sea at dusk"
            value={prompt}
            onChange={(e) => setPrompt(e.target.value)}
          />
          <CharCount text={prompt} max={PROMPT_MAX_CHARS} error={prompt.trim() ? validatePrompt(prompt) : null} />
        </Option>

        <Option
          title="Negative prompt"
          explain={
            <>
              What to leave out, up to {NEGATIVE_PROMPT_MAX_CHARS} characters, as a short list. The built-in renderer
              drops the subjects and colours named; Runware passes it to its model; FLUX on Replicate ignores it.
            </>
          }
        >
          <label className="sr-only" htmlFor={`${id}-negative`}>
            Negative prompt
          </label>
          <input
            id={`${id}-negative`}
            className="input w-full"
            placeholder="text, watermark, people, blur"
            value={negative}
            onChange={(e) => setNegative(e.target.value)}
          />
          <CharCount text={negative} max={NEGATIVE_PROMPT_MAX_CHARS} error={validateNegativePrompt(negative)} />
        </Option>

        <Option
          title="Style"
          explain={<>The medium and look. {STYLES.length} styles; see them all on the styles page.</>}
        >
          <label className="sr-only" htmlFor={`${id}-style`}>
            Style
          </label>
          <select
            id={`${id}-style`}
            className="select w-full max-w-xs"
            value={style}
            onChange={(e) => isStyleId(e.target.value) && setStyle(e.target.value)}
          >
            {STYLES.map((s) => (
              <option key={s.id} value={s.id}>
                {s.label}
                {s.isNew ? " (new)" : ""}
              </option>
            ))}
          </select>
        </Option>

        <Option
          title="Quality"
          explain="More detail at each level, where the engine has it. The built-in renderer draws the same scene more finely at High and Ultra; an AI engine may switch model or take more steps (Replicate: FLUX Schnell, Dev, 1.1 Pro), and some (OpenAI-style APIs, Google Gemini) draw the same way at every level."
        >
          <div role="radiogroup" aria-label="Quality" className="flex flex-col gap-2">
            {QUALITIES.map((q) => (
              <label key={q} className="flex cursor-pointer items-start gap-3">
                <input
                  type="radio"
                  name={`${id}-quality`}
                  className="radio radio-primary radio-sm mt-0.5"
                  checked={quality === q}
                  onChange={() => setQuality(q)}
                />
                <span>
                  <span className="font-medium capitalize">{q}</span>
                  <span className="block text-sm text-base-content/80">{QUALITY_HELP[q]}</span>
                </span>
              </label>
            ))}
          </div>
        </Option>

        <Option title="Aspect ratio" explain="The frame. Choose it for where the image will be used.">
          <div role="radiogroup" aria-label="Aspect ratio" className="flex flex-wrap gap-3">
            {ASPECT_RATIOS.map((r) => (
              <label
                key={r}
                className={`flex cursor-pointer items-center gap-3 rounded-box border px-4 py-3 ${ratio === r ? "border-primary bg-primary/5" : "border-base-300"}`}
              >
                <input
                  type="radio"
                  name={`${id}-ratio`}
                  className="radio radio-primary radio-sm"
                  checked={ratio === r}
                  onChange={() => setRatio(r)}
                />
                <span>
                  <span className="font-medium">{r}</span>
                  <span className="block text-xs text-base-content/80">{ratioHelp(r)}</span>
                </span>
              </label>
            ))}
          </div>
        </Option>

        <Option title="Seed" explain={SEED_EXPLAINED}>
          <label className="sr-only" htmlFor={`${id}-seed`}>
            Seed
          </label>
          <div className="flex flex-wrap items-center gap-2">
            <input
              id={`${id}-seed`}
              className={`input w-48 ${seedValid ? "" : "input-error"}`}
              inputMode="numeric"
              placeholder="Random"
              value={seed}
              aria-invalid={!seedValid}
              aria-describedby={`${id}-seed-help`}
              onChange={(e) => setSeed(e.target.value.trim())}
            />
            <button
              type="button"
              className="btn btn-sm btn-outline"
              onClick={() => setSeed(String(Math.floor(Math.random() * 1_000_000)))}
            >
              Pick a seed
            </button>
            {seed && (
              <button type="button" className="btn btn-sm btn-ghost" onClick={() => setSeed("")}>
                Clear
              </button>
            )}
          </div>
          <p id={`${id}-seed-help`} className={`mt-1 text-xs ${seedValid ? "text-base-content/80" : "text-error"}`}>
            {seedValid
              ? `A whole number from 0 to ${SEED_MAX.toLocaleString("en-US")}.`
              : "The seed must be a whole number (or empty for random)."}
          </p>
        </Option>

        {engines && engines.available.length > 1 ? (
          <Option
            title="Engine"
            explain="Which image engine draws. This deployment offers several; each treats quality, seeds and reference images in its own way, and the default serves a request that names none."
          >
            <EngineField value={engine} onChange={setEngine} engines={engines} hideLabel />
          </Option>
        ) : null}

        <Option
          title="Reference image"
          explain={`Steers the picture with an image of yours. ${REFERENCE_BY_ENGINE} Any picture this browser can open, up to ${REFERENCE_IMAGE_MAX_SIDE} px a side: it is redrawn here as a JPEG at most ${REFERENCE_MAX_SIDE_PX} px a side and kept in this tab until the generator picks it up.`}
        >
          <label className="sr-only" htmlFor={`${id}-reference`}>
            Reference image
          </label>
          <input
            id={`${id}-reference`}
            type="file"
            accept="image/*"
            className="file-input w-full max-w-sm"
            aria-describedby={referenceError ? `${id}-reference-error` : undefined}
            onChange={(e) => void onFile(e.target.files?.[0])}
          />
          {referenceError && (
            <p id={`${id}-reference-error`} role="alert" className="mt-2 text-sm text-error">
              {referenceError}
            </p>
          )}
          {reference && (
            <div className="mt-3 flex items-center gap-3">
              <img
                src={reference.dataUrl}
                alt={`Reference image: ${reference.name}`}
                className="size-20 rounded-field object-cover"
              />
              <button type="button" className="btn btn-sm btn-ghost" onClick={() => setReference(null)}>
                Remove reference image
              </button>
            </div>
          )}
        </Option>

        <Option
          title="Batch mode"
          explain={`Queues ${BATCH_MIN} to ${BATCH_MAX} images of the same request instead of one. Up to ${CONCURRENCY_MAX} run at a time; each counts toward your daily limit.`}
        >
          <label className="flex cursor-pointer items-center gap-3">
            <input
              type="checkbox"
              className="toggle toggle-primary"
              checked={batchOn}
              onChange={(e) => setBatchOn(e.target.checked)}
            />
            <span>Batch mode</span>
          </label>
          {batchOn && (
            <div className="mt-4 max-w-sm">
              <label htmlFor={`${id}-batch`} className="text-sm font-medium">
                Number of images: {batch}
              </label>
              <input
                id={`${id}-batch`}
                type="range"
                min={BATCH_MIN}
                max={BATCH_MAX}
                step={1}
                value={batch}
                className="range range-primary range-sm mt-2 w-full"
                onChange={(e) => setBatch(Number(e.target.value))}
              />
            </div>
          )}
        </Option>

        <section
          aria-labelledby={`${id}-result`}
          className="sticky bottom-0 -mx-4 border-t border-base-300 bg-base-100/95 px-4 py-4 backdrop-blur sm:mx-0 sm:rounded-box sm:border"
        >
          <h2 id={`${id}-result`} className="sr-only">
            Your generator link
          </h2>
          <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
            <code className="min-w-0 truncate text-xs text-base-content/80" title={link}>
              {link}
            </code>
            <Link
              to={link}
              className="btn btn-primary shrink-0"
              onClick={() => {
                if (reference) stashReferenceImage(reference.dataUrl);
              }}
            >
              Open in generator
            </Link>
          </div>
        </section>
      </form>
      <p className="mt-8 text-sm text-base-content/80">
        New to these settings? The{" "}
        <Link to="/blog/complete-guide-ai-image-generation" className="link">
          complete guide
        </Link>{" "}
        explains each with examples.
      </p>
    </div>
  );
}
