// The Preview panel (docs/spec.md §2, §4): the running task's progress ('Generating Your Masterpiece' and
// '{n}% Complete'), else the latest image with the prompt as alt text at its real aspect ratio and
// its downloads, else 'Ready to Create'; 'Recent Generations' shows generations 2 to 5. The copy
// says what really draws: the built-in procedural renderer is not an AI model.
import { useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore } from "react";
import { STYLE_BY_ID, isStyleId } from "#shared/vocabulary/styles.ts";
import type { GenerationWithImage } from "../../../db/queries";
import { Icon } from "../../../ui/icons";
import { ProgressBar } from "../../../ui/progress-bar";
import { DownloadMenu } from "../../../ui/download-menu";
import { useRecordImage } from "../../../sync/use-record-image";
import { useTileImage } from "../../../sync/use-tile-image";
import { freshShown, lastMade, showingFresh, subscribeMade, withJustMade } from "../../../sync/fresh-images";
import { modelName } from "../../../lib/model-names";
import { PulseRing } from "../../../ui/spinner";
import { useRunProgress } from "../use-generation";

/** docs/spec.md §9: recent thumbnails are generations 2 to 5. */
export const RECENT_FIRST = 1;
export const RECENT_COUNT = 4;

export const BUILTIN_PROVIDER = "builtin";
export const DRAWING_NOTE =
  "An AI model draws it when the server has one configured; otherwise the built-in procedural renderer does.";

export type RunProgress = { taskId: string; progress: number } | null;

type Props = { progress: RunProgress; generations: readonly GenerationWithImage[] };

/**
 * The panel with this tab's running task's progress read here, so that its ticks (five a second while an
 * image is drawn) redraw the panel alone and not the whole generator. The image this tab's queue was just
 * answered with is shown before its row is read back from Dexie (src/sync/fresh-images.ts), again by the
 * panel alone.
 */
export function LivePreviewPanel({
  generations: stored,
  userId,
}: {
  generations: readonly GenerationWithImage[];
  userId: string | undefined;
}) {
  const made = useSyncExternalStore(subscribeMade, lastMade, () => null);
  const seen = useRef(new Set<string>());
  const madeId = made?.record.id;
  useEffect(() => {
    if (madeId && stored.some((g) => g.id === madeId)) seen.current.add(madeId);
  }, [stored, madeId]);
  const generations = withJustMade(stored, made, userId, seen.current);
  return <PreviewPanel progress={useRunProgress()} generations={generations} />;
}

export function PreviewPanel({ progress, generations }: Props) {
  const latest = generations[0];
  const [picked, setPicked] = useState<{ id: string; latestId: string } | null>(null);
  // A new generation always takes the stage; a picked thumbnail only holds until then.
  const shown = (picked && picked.latestId === latest?.id && generations.find((g) => g.id === picked.id)) || latest;
  const recent = generations.slice(RECENT_FIRST, RECENT_FIRST + RECENT_COUNT);
  return (
    <section aria-label="Preview" className="card border border-base-300 bg-base-100">
      <div className="card-body gap-4 p-4 sm:p-6">
        <p role="status" className="sr-only">
          {progress ? "Generating your image" : shown ? `Showing: ${shown.prompt}` : ""}
        </p>
        <div className="contents">
          {progress ? (
            <Generating value={progress.progress} />
          ) : shown ? (
            <Result generation={shown} />
          ) : (
            <div className="flex min-h-72 flex-col items-center justify-center gap-2 rounded-box border border-dashed border-base-300 p-6 text-center">
              <Icon name="image" className="size-10 text-base-content/50" />
              <h2 className="text-lg font-semibold">Ready to Create</h2>
              <p className="text-sm text-base-content/80">Enter a prompt and generate your first image</p>
            </div>
          )}
        </div>
        {recent.length > 0 && (
          <div className="flex flex-col gap-2">
            <h2 className="text-sm font-semibold">Recent Generations</h2>
            <ul className="grid grid-cols-4 gap-2">
              {recent.map((g) => (
                <li key={g.id}>
                  <Thumbnail
                    generation={g}
                    selected={shown?.id === g.id}
                    onPick={() => latest && setPicked({ id: g.id, latestId: latest.id })}
                  />
                </li>
              ))}
            </ul>
          </div>
        )}
      </div>
    </section>
  );
}

function Generating({ value }: { value: number }) {
  const percent = Math.round(Math.min(100, Math.max(0, value)));
  return (
    <div className="flex min-h-72 flex-col items-center justify-center gap-3 rounded-box bg-base-200 p-6 text-center">
      {/* The ring swells only once the bar stops at 90 (a long render), and the bar steps 10 points every
          200 ms without easing (docs/spec.md §4): a compositor animation costs a frame on the compositor
          and in the GPU process for every frame of the whole run. */}
      <PulseRing className={`text-primary ${percent < 90 ? "*:animate-none" : ""}`} />
      <h2 className="text-lg font-semibold">Generating Your Masterpiece</h2>
      <p className="text-sm text-base-content/80">Drawing your image…</p>
      <ProgressBar value={percent} label="Generation progress" className="max-w-xs *:transition-none" />
      <p className="text-sm font-medium">{percent}% Complete</p>
      <p className="max-w-sm text-xs text-base-content/70">{DRAWING_NOTE}</p>
    </div>
  );
}

/** Once the loaded (or failed) image is decoded for the screen, what waited for it to be drawn goes on. */
function afterDecode({ currentTarget: img }: { currentTarget: HTMLImageElement }, id: string): void {
  void Promise.resolve()
    .then(() => img.decode?.())
    .catch(() => undefined)
    .then(() => freshShown(id));
}

function Result({ generation }: { generation: GenerationWithImage }) {
  const image = useRecordImage(generation);
  // An image just made here, shown from its answer's URL: keeping its bytes waits for it to be decoded
  // for the screen (src/sync/run-task.ts keepImage), or for this view to show something else.
  const freshId = image.fresh ? generation.id : undefined;
  useLayoutEffect(() => {
    if (!freshId) return;
    showingFresh(freshId);
    return () => freshShown(freshId);
  }, [freshId]);
  const drawn = freshId ? (event: { currentTarget: HTMLImageElement }) => afterDecode(event, freshId) : undefined;
  const style = isStyleId(generation.style) ? STYLE_BY_ID[generation.style].label : generation.style;
  return (
    <figure className="flex flex-col gap-3">
      <div
        className="mx-auto w-full max-w-xl overflow-hidden rounded-box bg-base-200"
        style={{ aspectRatio: `${generation.width} / ${generation.height}` }}
      >
        {image.src ? (
          <img
            src={image.src}
            crossOrigin="anonymous"
            alt={generation.prompt}
            width={generation.width}
            height={generation.height}
            className="size-full object-contain"
            onLoad={drawn}
            onError={drawn}
          />
        ) : (
          <p
            role={image.error ? "alert" : "status"}
            className="grid size-full place-items-center p-4 text-center text-sm text-base-content/80"
          >
            {image.error ?? "Loading image…"}
          </p>
        )}
      </div>
      <figcaption className="flex flex-col gap-2">
        <p className="line-clamp-2 text-sm">{generation.prompt}</p>
        <p className="text-xs text-base-content/75">
          {generation.customStyle ? `${generation.customStyle} (your style, on ${style})` : style} · {generation.width}×
          {generation.height}
          {generation.seed !== null ? ` · seed ${generation.seed}` : ""}
          {generation.provider === BUILTIN_PROVIDER
            ? " · drawn by the built-in procedural renderer (not an AI model)"
            : generation.model
              ? ` · ${modelName(generation.model)}`
              : ""}
        </p>
        {(image.blob ?? image.src) && <DownloadMenu recipe={generation} image={image.blob} src={image.src} />}
      </figcaption>
    </figure>
  );
}

function Thumbnail({
  generation,
  selected,
  onPick,
}: {
  generation: GenerationWithImage;
  selected: boolean;
  onPick: () => void;
}) {
  const url = useTileImage(generation).src;
  return (
    <button
      type="button"
      aria-pressed={selected}
      aria-label={`Show: ${generation.prompt}`}
      onClick={onPick}
      className={`block aspect-square w-full overflow-hidden rounded-field bg-base-200 ${selected ? "ring-2 ring-primary" : ""}`}
    >
      {url && <img src={url} crossOrigin="anonymous" alt="" className="size-full object-cover" />}
    </button>
  );
}
