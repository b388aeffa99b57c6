// The generator's left panel (docs/spec.md §2, §5): prompt with its budget, negative prompt, 'Choose Your
// Style', quality, aspect ratio, reference image, seed, batch mode, Generate and Reset. It checks the
// §5 rules before asking the queue; a blank prompt disables Generate and says why once edited.
import { useState, useSyncExternalStore, type FormEvent, type ReactNode } from "react";
import { Link } from "wouter";
import { isStyleId } from "#shared/vocabulary/styles.ts";
import { useOnline } from "../../../lib/use-online";
import { Icon } from "../../../ui/icons";
import { validateSettings, type GeneratorSettings, type SettingsErrors } from "./generator-settings";
import { LazyPromptEditor } from "./lazy-prompt-editor";
import { ReferenceField } from "./reference-field";
import { useEngines } from "../../../sync/use-engines";
import { EngineField } from "../../../ui/engine-field";
import { AspectRatioField, BatchField, NegativePromptField, QualityField, SeedField } from "./setting-fields";
import { StylePicker } from "./style-picker";
import { CustomStylePicker } from "./custom-styles/custom-style-picker";
import { ResultsCollectionField } from "./results-collection-field";
import { Spinner } from "../../../ui/spinner";
import type { RunState } from "../use-generation";

export type FormNotice = {
  message: string;
  link?: { label: string; to: string; onClick?: () => void };
  /** A second way on that only the person may choose (holding a request for the daily reset). */
  choice?: { label: string; onClick: () => void };
};

type Props = {
  settings: GeneratorSettings;
  update: <K extends keyof GeneratorSettings>(key: K, value: GeneratorSettings[K]) => void;
  onReset: () => void;
  onGenerate: () => void;
  /** Whether a generation runs (a queued batch is not held by it), read by the Generate button alone. */
  run: RunState;
  submitting: boolean;
  notice: FormNotice | null;
  /** Shown above the settings (the rate-limit alert). */
  alert?: ReactNode;
  /** Below the prompt (prompt history). */
  afterPrompt?: ReactNode;
  /** Changes when an image was opened from outside: the reference field starts afresh (no old message). */
  openedCount?: number;
  /**
   * False until the saved defaults are in: style, quality and ratio keep their place unseen, so they are
   * first shown with the person's own values (docs/spec.md §4), never flipping to them.
   */
  defaultsReady?: boolean;
  /** The queue's concurrency, also set in the batch settings before a batch is queued. */
  concurrency: number;
  onConcurrency: (n: number) => void;
  /** The person signed in (their custom styles, decision 152); absent for a visitor. */
  userId?: string | null;
};

/**
 * Busy (sending, or a generation running: a queued batch is not held by it), or before the saved
 * defaults are in (it would send the product's defaults instead), Generate waits.
 */
function isHeld(running: boolean, submitting: boolean, batch: boolean, defaultsReady: boolean): boolean {
  return submitting || (running && !batch) || !defaultsReady;
}

/**
 * Generate, the one part of the form that follows the run: a run's start and end redraw it alone. Held,
 * it stays focusable and says so with aria-disabled: a disabled button would drop the focus to the top of
 * the page. Its colours change at once: every press flips it to held and back, and each colour transition
 * (which the compositor cannot run) would redraw the page for 200 ms
 * (docs/decisions/176-generate-changes-colour-at-once.md).
 */
function GenerateButton(props: {
  run: RunState;
  submitting: boolean;
  batch: boolean;
  batchCount: number;
  defaultsReady: boolean;
  blank: boolean;
}) {
  const { run, submitting, batch, batchCount, blank } = props;
  const running = useSyncExternalStore(run.subscribe, run.active, () => false);
  const held = isHeld(running, submitting, batch, props.defaultsReady);
  return (
    <button
      type="submit"
      className={`btn btn-primary flex-1 transition-none ${held ? "btn-disabled" : ""}`}
      disabled={blank && !held}
      aria-disabled={held || undefined}
    >
      {submitting || (running && !batch) ? <Spinner size="sm" /> : <Icon name="sparkles" className="size-5" />}
      {batch ? `Queue ${batchCount} ${batchCount === 1 ? "task" : "tasks"}` : "Generate"}
    </button>
  );
}

export function GeneratorForm({
  settings,
  update,
  onReset,
  onGenerate,
  run,
  submitting,
  notice,
  alert,
  afterPrompt,
  openedCount = 0,
  defaultsReady = true,
  concurrency,
  onConcurrency,
  userId,
}: Props) {
  const online = useOnline();
  const engines = useEngines();
  const [promptEdited, setPromptEdited] = useState(false);
  const [checked, setChecked] = useState<SettingsErrors | null>(null);
  const [resets, setResets] = useState(0);
  // Live checks once the prompt was edited; every field after a Generate attempt.
  const live = validateSettings(settings);
  const errors: SettingsErrors = checked
    ? live
    : { prompt: promptEdited ? live.prompt : undefined, negativePrompt: live.negativePrompt, seed: live.seed };
  const blank = !settings.prompt.trim();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found = validateSettings(settings);
    setChecked(found);
    if (Object.keys(found).length > 0 || blank || isHeld(run.active(), submitting, settings.batch, defaultsReady)) {
      return;
    }
    onGenerate();
  };

  return (
    <form onSubmit={submit} aria-label="Generation settings" className="flex flex-col gap-5" noValidate>
      {alert}
      <LazyPromptEditor
        value={settings.prompt}
        onChange={(v) => {
          setPromptEdited(true);
          update("prompt", v);
        }}
        error={errors.prompt}
      />
      {afterPrompt}
      <NegativePromptField
        value={settings.negativePrompt}
        onChange={(v) => update("negativePrompt", v)}
        error={errors.negativePrompt}
      />
      <div
        className={`flex flex-col gap-5 ${defaultsReady ? "" : "invisible"}`}
        aria-busy={defaultsReady ? undefined : true}
        data-testid="saved-defaults"
      >
        <StylePicker
          value={settings.style}
          noneSelected={Boolean(settings.customStyleId)}
          onChange={(v) => {
            update("style", v);
            update("customStyleId", "");
          }}
        />
        <CustomStylePicker
          userId={userId}
          value={settings.customStyleId}
          currentStyle={settings.style}
          onChange={(custom) => {
            update("customStyleId", custom?.id ?? "");
            if (!custom) return;
            // A custom style brings its defaults: the built-in style it draws on, its quality and ratio.
            if (isStyleId(custom.baseStyle)) update("style", custom.baseStyle);
            update("quality", custom.quality);
            update("aspectRatio", custom.aspectRatio);
          }}
        />
        <QualityField
          value={settings.quality}
          onChange={(v) => update("quality", v)}
          engine={engines?.available.includes(settings.provider) ? settings.provider : (engines?.default ?? null)}
        />
        <AspectRatioField value={settings.aspectRatio} onChange={(v) => update("aspectRatio", v)} />
      </div>
      <ReferenceField
        key={`${resets}-${openedCount}`}
        value={settings.referenceImage}
        onChange={(v) => update("referenceImage", v)}
      />
      <SeedField value={settings.seed} onChange={(v) => update("seed", v)} error={errors.seed} />
      <EngineField value={settings.provider} onChange={(v) => update("provider", v)} engines={engines} />
      <ResultsCollectionField userId={userId} />
      <BatchField
        on={settings.batch}
        count={settings.batchCount}
        onToggle={(v) => update("batch", v)}
        onCount={(n) => update("batchCount", n)}
        concurrency={concurrency}
        onConcurrency={onConcurrency}
      />
      {notice && (
        <div role="alert" className="alert alert-error alert-soft">
          <Icon name="alert" className="size-5 shrink-0" />
          <span>
            {notice.message}
            {notice.link && (
              <>
                {" "}
                <Link to={notice.link.to} onClick={notice.link.onClick} className="link font-medium">
                  {notice.link.label}
                </Link>
              </>
            )}
            {notice.choice && (
              <span className="mt-2 block">
                <button type="button" className="btn btn-sm btn-outline" onClick={notice.choice.onClick}>
                  {notice.choice.label}
                </button>
              </span>
            )}
          </span>
        </div>
      )}
      <div className="flex flex-col gap-2 sm:flex-row">
        <GenerateButton
          run={run}
          submitting={submitting}
          batch={settings.batch}
          batchCount={settings.batchCount}
          defaultsReady={defaultsReady}
          blank={blank}
        />
        <button
          type="button"
          className="btn btn-ghost"
          onClick={() => {
            setPromptEdited(false);
            setChecked(null);
            setResets((n) => n + 1);
            onReset();
          }}
        >
          <Icon name="refresh" className="size-4" />
          Reset
        </button>
      </div>
      {!online && (
        <p role="status" className="text-sm text-base-content/80">
          You are offline. What you generate now waits in the queue and runs once the connection returns.
        </p>
      )}
    </form>
  );
}
