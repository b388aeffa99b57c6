// The generator (docs/spec.md §2): the settings on the left, the preview and the Generation Queue card on the
// right. Records come from Dexie through useLiveQuery (the queue, the generations, the prompt
// history); work goes through the generation hooks. Used on /generate and in the home page's
// #generator section; the quota alert is handed in by the app (features do not import each other).
import { useCallback, useEffect, useMemo, useRef, useState, type MutableRefObject, type ReactNode } from "react";
import { useSearch } from "wouter";
import { useLiveQuery } from "dexie-react-hooks";
import { VALIDATION_MESSAGES } from "#shared/vocabulary/errors.ts";
import { db } from "../../../db/db";
import { readEngines } from "../../../db/engines";
import { getGeneration, listPromptHistory, listTasks, newestGenerations } from "../../../db/queries";
import type { GenerationRecord } from "../../../db/schema";
import { authRedirectPath } from "../../../lib/auth-redirect";
import { buildGenerateLink, stashReferenceImage } from "../../../lib/generate-link";
import { useHydrated } from "../../../lib/use-hydrated";
import { useSession } from "../../../state/session-store";
import { showToast } from "../../../state/toasts";
import { useConcurrency, useGenerationActions, useRunState } from "../use-generation";
import { GeneratorForm, type FormNotice } from "./generator-form";
import { applyRecipe, parseSeed, toRequest, type GeneratorSettings } from "./generator-settings";
import { LivePreviewPanel, RECENT_COUNT, RECENT_FIRST } from "./preview-panel";
import { PromptHistory } from "./prompt-history";
import { QueueCard, type QueueCardProps } from "./queue-card";
import { useGeneratorForm } from "./use-generator-form";
import { useCustomStyles } from "./custom-styles/use-custom-styles";
import { useResultsCollection } from "./results-collection-field";
import { OpenImageDropZone, useImagesFromOutside, type OpenedImageHandlers } from "./open-image";
import { findSameRecipe } from "./same-recipe";
import { SameRecipeDialog } from "./same-recipe-dialog";

const NO_TASKS: never[] = [];

/** Where 'Sign in' leads: back to this generator with the same settings filled in. */
function signInLink(s: GeneratorSettings): FormNotice["link"] {
  const back = buildGenerateLink({
    prompt: s.prompt,
    negativePrompt: s.negativePrompt,
    style: s.style,
    quality: s.quality,
    aspectRatio: s.aspectRatio,
    seed: parseSeed(s.seed) ?? null,
    batch: s.batch ? s.batchCount : null,
    engine: s.provider || undefined,
    reference: Boolean(s.referenceImage),
  });
  const [pathname, search] = back.split("?");
  return {
    label: "Sign in",
    to: authRedirectPath({ pathname, search }),
    onClick: () => {
      if (s.referenceImage) stashReferenceImage(s.referenceImage.dataUrl);
    },
  };
}

const clock = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });

function noticeFor(message: string, s: GeneratorSettings, hold?: { resetAt: string; run: () => void }): FormNotice {
  if (message === VALIDATION_MESSAGES.signInToGenerate) return { message, link: signInLink(s) };
  if (message === VALIDATION_MESSAGES.dailyLimit) {
    return {
      message,
      link: { label: "Upgrade Now", to: "/pricing" },
      ...(hold ? { choice: { label: `Hold it until the reset (${clock(hold.resetAt)})`, onClick: hold.run } } : {}),
    };
  }
  return { message };
}

/** How long after Generate the preview is kept in view as it changes (progress, then the result). */
const FOLLOW_MS = 120_000;

/** Brings the preview's top into view unless it already is near the top (e.g. beside the form). */
function revealPreview(preview: HTMLElement | null): void {
  if (!preview) return;
  const box = preview.getBoundingClientRect();
  const top = document.querySelector("header")?.getBoundingClientRect().bottom ?? 0;
  const visible = box.top >= top - 1 && box.top <= top + window.innerHeight * 0.4;
  if (!visible) preview.scrollIntoView({ block: "start", behavior: "auto" });
}

/** The queue card with the user's tasks read here: a task's change redraws the card alone, not the form. */
function LiveQueueCard({ userId, ...props }: Omit<QueueCardProps, "tasks"> & { userId: string | null }) {
  const tasks = useLiveQuery(() => (userId ? listTasks(userId) : NO_TASKS), [userId], NO_TASKS);
  return <QueueCard tasks={tasks} {...props} />;
}

/**
 * The preview with the user's newest generations read here: a new row redraws this column alone, not
 * the form beside it. Records only: the views in it read the bytes they show (a stored image redraws
 * those alone, and no list re-read loads five images' Blobs again). `newest` is set to the newest stored
 * generation (Reset clears the list up to it); `onLatest` hears the id on the stage after each change.
 */
function GeneratorPreview(props: {
  userId: string | null;
  clearedAt: string | null;
  pinnedId: string | null;
  newest: MutableRefObject<GenerationRecord | undefined>;
  onLatest: (id: string | undefined) => void;
}) {
  const { userId, clearedAt, pinnedId, newest, onLatest } = props;
  const generations = useLiveQuery(
    () => (userId ? newestGenerations(userId, RECENT_FIRST + RECENT_COUNT) : NO_TASKS),
    [userId],
    NO_TASKS,
  );
  const pinned = useLiveQuery(() => (pinnedId ? getGeneration(pinnedId) : undefined), [pinnedId]);
  newest.current = generations[0];
  const recentShown = clearedAt ? generations.filter((g) => g.createdAt > clearedAt) : generations;
  const shown =
    pinned && pinned.userId === userId ? [pinned, ...recentShown.filter((g) => g.id !== pinned.id)] : recentShown;
  const latestId = shown[0]?.id;
  useEffect(() => onLatest(latestId), [latestId, onLatest]);
  return <LivePreviewPanel generations={shown} userId={userId ?? undefined} />;
}

export function Generator({ limitAlert }: { limitAlert?: ReactNode }) {
  const hydrated = useHydrated();
  const session = useSession();
  const userId = hydrated ? (session.user?.id ?? null) : null;
  const { settings, update, reset, replace, defaultsReady } = useGeneratorForm({
    userId,
    checking: session.status === "checking",
  });
  // The chosen custom style's record as this device holds it now (decision 152).
  const customStyle = useCustomStyles(userId)?.find((s) => s.id === settings.customStyleId);
  // "Add new results to" (decision 157): the hand-made collection each task's image goes into, if any.
  const resultsCollection = useResultsCollection(userId).chosen;
  // Each image opened from outside starts the reference field afresh (an old refusal's message goes).
  const [openedCount, setOpenedCount] = useState(0);
  const opened = useMemo<OpenedImageHandlers>(
    () => ({
      remix: (recipe) => {
        setOpenedCount((n) => n + 1);
        replace((s) => applyRecipe(s, recipe));
      },
      reference: (reference) => {
        setOpenedCount((n) => n + 1);
        update("referenceImage", reference);
      },
    }),
    [replace, update],
  );
  useImagesFromOutside(opened, useSearch());
  const actions = useGenerationActions();
  const run = useRunState();
  const concurrency = useConcurrency();
  const history = useLiveQuery(() => (userId ? listPromptHistory(userId) : NO_TASKS), [userId], NO_TASKS);
  const [submitting, setSubmitting] = useState(false);
  const [notice, setNotice] = useState<FormNotice | null>(null);
  // Reset clears the preview's list (docs/spec.md §4): only what is generated after it is shown there.
  const [clearedAt, setClearedAt] = useState<string | null>(null);
  // An identical re-run found (asked about), and the generation "Open it" put on the preview's stage.
  const [same, setSame] = useState<GenerationRecord | null>(null);
  const [pinnedId, setPinnedId] = useState<string | null>(null);
  const newest = useRef<GenerationRecord | undefined>(undefined);
  const preview = useRef<HTMLDivElement>(null);
  // After Generate the preview is followed until the result is in: its progress, then the image (which
  // may make the column taller than the screen) are brought into view; focus stays on Generate.
  const followSince = useRef(0);
  const followFrom = useRef<string | undefined>(undefined);
  const latestId = useRef<string | undefined>(undefined);
  const follow = useCallback((id: string | undefined) => {
    latestId.current = id;
    if (!followSince.current || Date.now() - followSince.current > FOLLOW_MS) return;
    revealPreview(preview.current);
    if (id !== followFrom.current) followSince.current = 0; // the result is in: stop following
  }, []);
  // A run's start and end (not its progress, nor a batch's hand-overs) bring the preview into view once
  // it is drawn; heard here without drawing the generator again.
  useEffect(() => {
    let active = run.active();
    let frame = 0;
    const stop = run.subscribe(() => {
      if (run.active() === active) return;
      active = run.active();
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => follow(latestId.current));
    });
    return () => {
      stop();
      cancelAnimationFrame(frame);
    };
  }, [run, follow]);

  /** `again`: the person chose to make an identical re-run anyway. */
  const generate = async (hold = false, again = false) => {
    setNotice(null);
    if (!userId) {
      setNotice(noticeFor(VALIDATION_MESSAGES.signInToGenerate, settings));
      return;
    }
    setSubmitting(true);
    try {
      if (!hold && !again) {
        const request = toRequest(settings, customStyle);
        const engine = async () => settings.provider || (await readEngines(db))?.default || null;
        const found = await findSameRecipe(userId, request, engine).catch(() => null);
        if (found) {
          setSame(found);
          return;
        }
      }
      setPinnedId(null);
      const result = await actions.generate({
        ...toRequest(settings, customStyle),
        holdUntilReset: hold,
        ...(resultsCollection ? { collectionId: resultsCollection } : {}),
      });
      if (!result.ok) {
        const { resetAt } = result;
        const held = resetAt ? { resetAt, run: () => void generate(true) } : undefined;
        setNotice(noticeFor(result.message, settings, held));
      } else if (result.heldUntil) {
        const n = result.taskIds.length;
        showToast({
          tone: "info",
          title: `Held ${n === 1 ? "1 task" : `${n} tasks`} until the daily reset`,
          message: `Sent at ${clock(result.heldUntil)}, when your quota resets. Remove it from the queue to cancel.`,
        });
      } else if (settings.batch) {
        const n = result.taskIds.length;
        showToast({ tone: "success", title: `Added ${n} ${n === 1 ? "task" : "tasks"} to generation queue` });
      }
      if (result.ok) {
        followSince.current = Date.now();
        followFrom.current = latestId.current;
        revealPreview(preview.current);
      }
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,5fr)_minmax(0,6fr)]">
      <div className="card border border-base-300 bg-base-100">
        <div className="card-body p-4 sm:p-6">
          <OpenImageDropZone on={opened}>
            <GeneratorForm
              settings={settings}
              update={update}
              onReset={() => {
                setNotice(null);
                // The newest shown so far marks the line (the server's clock, as every created_at is).
                if (newest.current) setClearedAt(newest.current.createdAt);
                setPinnedId(null);
                reset();
              }}
              onGenerate={() => void generate()}
              run={run}
              submitting={submitting}
              notice={notice}
              alert={limitAlert}
              defaultsReady={defaultsReady}
              openedCount={openedCount}
              concurrency={concurrency}
              onConcurrency={actions.setConcurrency}
              userId={userId}
              afterPrompt={
                <PromptHistory
                  entries={history}
                  onPick={(p) => update("prompt", p)}
                  onRemove={actions.removePrompt}
                  onClear={actions.clearPrompts}
                />
              }
            />
          </OpenImageDropZone>
        </div>
      </div>
      {/* After Generate the preview is scrolled to unless its top is already in view (a sticky column
          did not hold: with the result and the queue it is taller than a 800 px screen). */}
      <div className="flex min-w-0 scroll-mt-20 flex-col gap-6" ref={preview}>
        <GeneratorPreview userId={userId} clearedAt={clearedAt} pinnedId={pinnedId} newest={newest} onLatest={follow} />
        <LiveQueueCard
          userId={userId}
          concurrency={concurrency}
          onConcurrency={actions.setConcurrency}
          onClear={actions.clearTasks}
          onRemove={actions.removeTask}
          onRetry={actions.retry}
        />
      </div>
      {same && (
        <SameRecipeDialog
          prompt={same.prompt}
          createdAt={same.createdAt}
          onClose={() => setSame(null)}
          onOpen={() => {
            setPinnedId(same.id);
            setSame(null);
            revealPreview(preview.current);
          }}
          onGenerate={() => {
            setSame(null);
            void generate(false, true);
          }}
        />
      )}
    </div>
  );
}
