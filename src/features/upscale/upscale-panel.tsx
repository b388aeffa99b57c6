// "Upscale" in the large view: choose 2× or 4×, watch the progress (with Cancel), then download the
// upscaled image as PNG, JPG or WebP carrying its recipe with the upscale noted, or keep it in the library
// beside its original (keep-upscale.ts, decision 158). The work runs in a worker on this device
// (upscale-client.ts), started when the panel opens and ended when it closes.
import { useEffect, useRef, useState } from "react";
import type { ImageRecipe } from "#shared/recipe-metadata/recipe.ts";
import { db } from "../../db/db";
import { DownloadButtons } from "../../ui/download-buttons";
import { sourceBlob } from "../../ui/download-menu";
import { Icon } from "../../ui/icons";
import { ProgressBar } from "../../ui/progress-bar";
import { UpscaleSession, type UpscaleJob, type Upscaled } from "./upscale-client";
import { BACKEND_LABELS, modelName, UPSCALE_SCALES, type BackendName, type UpscaleScale } from "./upscale-models";
import { percent, upscaledFileName, upscaledRecipe } from "./upscale-protocol";
import { keepUpscale, keptFile } from "./keep-upscale";

type Props = { generationId: string; recipe: ImageRecipe; image: Blob | undefined; src: string | undefined };

export type UpscaleState =
  | { phase: "idle" }
  | { phase: "running"; done: number; backend?: BackendName }
  | { phase: "done"; result: Upscaled }
  | { phase: "cancelled" }
  | { phase: "failed"; message: string };

export function UpscalePanel(props: Props) {
  const [open, setOpen] = useState(false);
  return (
    <div className="flex flex-col gap-2">
      <button
        type="button"
        className="btn btn-outline btn-sm self-start"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
      >
        <Icon name="image" className="size-4" />
        Upscale
      </button>
      {open && <UpscaleControls {...props} />}
    </div>
  );
}

function UpscaleControls({ generationId, recipe, image, src }: Props) {
  const [scale, setScale] = useState<UpscaleScale>(2);
  const [state, setState] = useState<UpscaleState>({ phase: "idle" });
  const session = useRef<UpscaleSession | null>(null);
  const job = useRef<UpscaleJob | null>(null);
  const startButton = useRef<HTMLButtonElement>(null);
  const cancelButton = useRef<HTMLButtonElement>(null);
  const running = state.phase === "running";

  // The control pressed goes away (Start is disabled while it runs, Cancel is gone after): the keyboard's
  // place moves to the one that replaces it rather than dropping to the page.
  useEffect(() => {
    (running ? cancelButton : startButton).current?.focus();
  }, [running]);

  useEffect(() => {
    session.current = new UpscaleSession();
    return () => {
      session.current?.dispose();
      session.current = null;
    };
  }, []);

  const start = async () => {
    if (!session.current || state.phase === "running") return;
    setState({ phase: "running", done: 0 });
    try {
      const source = await sourceBlob(image, src);
      const current = session.current.run(source, {
        scale,
        onStarted: (backend) => setState({ phase: "running", done: 0, backend }),
        onProgress: (done) => setState((s) => (s.phase === "running" ? { ...s, done } : s)),
      });
      job.current = current;
      const result = await current.result;
      setState(result === "cancelled" ? { phase: "cancelled" } : { phase: "done", result });
    } catch (error) {
      setState({ phase: "failed", message: error instanceof Error ? error.message : "The upscale failed." });
    } finally {
      job.current = null;
    }
  };

  return (
    <section aria-label="Upscale" className="flex flex-col gap-3 rounded-box border border-base-300 p-3 text-sm">
      <fieldset className="flex flex-wrap items-center gap-3" disabled={running}>
        <legend className="sr-only">Upscale by</legend>
        {UPSCALE_SCALES.map((s) => (
          <label key={s} className="flex items-center gap-2">
            <input
              type="radio"
              name="upscale-scale"
              className="radio radio-sm"
              checked={scale === s}
              onChange={() => setScale(s)}
            />
            {s}× ({recipe.width * s} × {recipe.height * s})
          </label>
        ))}
        <button ref={startButton} type="button" className="btn btn-primary btn-sm" onClick={() => void start()}>
          Upscale {scale}×
        </button>
      </fieldset>
      {running && (
        <div className="flex items-center gap-3">
          <div className="flex min-w-0 flex-1 flex-col gap-1">
            <ProgressBar value={percent(state.done)} label={`Upscaling ${scale}×`} />
            <span aria-live="polite" className="text-base-content/80">
              {percent(state.done)}%{" "}
              {state.backend ? `on this device (${BACKEND_LABELS[state.backend]})` : "(starting)"}
            </span>
          </div>
          <button
            ref={cancelButton}
            type="button"
            className="btn btn-ghost btn-sm"
            onClick={() => job.current?.cancel()}
          >
            Cancel
          </button>
        </div>
      )}
      <UpscaleOutcome state={state} recipe={recipe} generationId={generationId} />
    </section>
  );
}

function UpscaleOutcome({
  state,
  recipe,
  generationId,
}: {
  state: UpscaleState;
  recipe: ImageRecipe;
  generationId: string;
}) {
  if (state.phase === "cancelled") return <p role="status">Upscale cancelled.</p>;
  if (state.phase === "failed") return <p role="alert">Upscale failed: {state.message}</p>;
  if (state.phase !== "done") return null;
  const { result } = state;
  const scale = (result.width / recipe.width >= 3 ? 4 : 2) as UpscaleScale;
  return (
    <div className="flex flex-col gap-2">
      <p role="status">
        Ready: {result.width} × {result.height}, by {modelName({ size: result.model })} in{" "}
        {(result.ms / 1000).toFixed(1)} s.
      </p>
      <DownloadButtons
        recipe={upscaledRecipe(recipe, scale, result.model)}
        image={result.image}
        fileName={(format) => upscaledFileName(recipe.prompt, scale, format)}
        what={`${scale}×`}
      />
      <KeepInLibrary generationId={generationId} recipe={upscaledRecipe(recipe, scale, result.model)} result={result} />
    </div>
  );
}

type Keeping = { phase: "idle" } | { phase: "keeping" } | { phase: "kept" } | { phase: "failed"; message: string };

/** "Keep in library": the upscaled image becomes a generation here at once, and on the person's other devices. */
function KeepInLibrary(p: {
  generationId: string;
  recipe: ImageRecipe & { upscale: { scale: UpscaleScale } };
  result: Upscaled;
}) {
  const [keeping, setKeeping] = useState<Keeping>({ phase: "idle" });
  const keep = async () => {
    setKeeping({ phase: "keeping" });
    try {
      const original = await db.generations.get(p.generationId);
      if (!original) throw new Error("the original is no longer in your library.");
      const image = await keptFile(p.result.image, p.recipe);
      await keepUpscale(
        db,
        original,
        { image, width: p.result.width, height: p.result.height },
        p.recipe.upscale.scale,
      );
      setKeeping({ phase: "kept" });
    } catch (error) {
      setKeeping({ phase: "failed", message: error instanceof Error ? error.message : "it could not be kept." });
    }
  };
  if (keeping.phase === "kept") {
    return <p role="status">Kept in your library beside the original; it reaches your other devices when online.</p>;
  }
  return (
    <div className="flex flex-col gap-1">
      <button
        type="button"
        className="btn btn-outline btn-sm self-start"
        disabled={keeping.phase === "keeping"}
        onClick={() => void keep()}
      >
        Keep in library
      </button>
      {keeping.phase === "failed" && <p role="alert">Not kept: {keeping.message}</p>}
    </div>
  );
}
