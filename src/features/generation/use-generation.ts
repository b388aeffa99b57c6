// The generator's hooks: actions that write Dexie first and wake the queue, and
// views of the queue process. Records themselves are read with useLiveQuery over src/db/queries.ts.
import { useSelector } from "@xstate/react";
import { useCallback, useMemo, useSyncExternalStore } from "react";
import { VALIDATION_MESSAGES } from "#shared/vocabulary/errors.ts";
import { validateNegativePrompt, validatePrompt } from "#shared/vocabulary/prompt.ts";
import { BATCH_MAX, BATCH_MIN, isAspectRatio, isQuality, SEED_MAX } from "#shared/vocabulary/generation.ts";
import { isStyleId } from "#shared/vocabulary/styles.ts";
import { applyCustomStyle, type AppliedCustomStyle } from "#shared/vocabulary/custom-styles.ts";
import { db } from "../../db/db";
import { addPrompt, clearPrompts, removePrompt, type PromptEntry } from "../../db/prompt-history";
import { paramsFor, type LimitsRecord, type TaskVariation } from "../../db/schema";
import { clearTasks, removeTask, retryTask, type NewTask } from "../../db/tasks";
import { isOnline } from "../../lib/online";
import { readConcurrency, subscribeConcurrency, writeConcurrency } from "../../sync/queue/concurrency-store";
import { useGenerationRuntime } from "./generation-runtime";

export type GenerationSettings = {
  prompt: string;
  negativePrompt: string;
  style: string;
  quality: string;
  aspectRatio: string;
  seed: number | null;
  referenceImage?: string;
  batchCount?: number;
  /** An image engine's id; absent: the deployment's default. */
  provider?: string;
  /** The person chose to hold the request until the daily reset (today's quota is spent). */
  holdUntilReset?: boolean;
  /** A custom style (decision 152), kept by each task as it is now. */
  customStyle?: AppliedCustomStyle;
  /** The person's image this request varies (decision 155), kept by its task. */
  variation?: TaskVariation;
  /** The person's hand-made collection its results go into (decision 157), kept by each task. */
  collectionId?: string;
};

export type GenerateResult =
  | { ok: true; taskIds: string[]; heldUntil?: string }
  /** `resetAt`: refused because today's quota is spent; holding the request until then is possible. */
  | { ok: false; message: string; resetAt?: string };

/** docs/spec.md §5, checked again here so no caller can queue what the server would refuse. */
export function validateSettings(s: GenerationSettings): string | null {
  // The one prompt check of the form and the function (vocabulary/prompt.ts): text the database cannot
  // store would be drawn, then refused, so it is never queued.
  const textError = validatePrompt(s.prompt) ?? validateNegativePrompt(s.negativePrompt);
  if (textError) return textError;
  // With a custom style, the spec's limits hold for the prompt as drawn (its words added), as on the server.
  const styled = applyCustomStyle(s.prompt, s.negativePrompt, s.customStyle).error;
  if (styled) return styled;
  if (s.referenceImage && !/^data:image\/[a-z0-9.+-]+;base64,/i.test(s.referenceImage)) {
    return VALIDATION_MESSAGES.notAnImage;
  }
  if (s.seed !== null && !(Number.isInteger(s.seed) && s.seed >= 0 && s.seed <= SEED_MAX)) {
    return `Seed must be a whole number from 0 to ${SEED_MAX}`;
  }
  if (!isStyleId(s.style) || !isQuality(s.quality) || !isAspectRatio(s.aspectRatio))
    return "Please choose a style, quality and aspect ratio";
  return null;
}

function tasksFor(s: GenerationSettings, userId: string, online: boolean, holdUntil?: string): NewTask[] {
  const count = Math.min(BATCH_MAX, Math.max(BATCH_MIN, Math.round(s.batchCount ?? 1)));
  const batchId = count > 1 ? crypto.randomUUID() : undefined;
  return Array.from({ length: count }, (): NewTask => ({
    id: crypto.randomUUID(),
    userId,
    ...(batchId ? { batchId } : {}),
    type: "image-generation",
    prompt: s.prompt.trim(),
    negativePrompt: s.negativePrompt.trim(),
    style: s.style,
    quality: s.quality as NewTask["quality"],
    aspectRatio: s.aspectRatio as NewTask["aspectRatio"],
    params: paramsFor(s.aspectRatio as NewTask["aspectRatio"]),
    seed: s.seed,
    ...(s.referenceImage ? { referenceImage: s.referenceImage } : {}),
    ...(s.provider ? { provider: s.provider } : {}),
    ...(s.customStyle ? { customStyle: { ...s.customStyle } } : {}),
    ...(s.variation ? { variation: { ...s.variation } } : {}),
    ...(s.collectionId ? { collectionId: s.collectionId } : {}),
    // Held by choice, it waits for the reset; written offline, it says "Waiting for connection".
    ...(holdUntil
      ? { wait: { reason: "quota" as const, until: holdUntil } }
      : online
        ? {}
        : { wait: { reason: "offline" as const } }),
  }));
}

const report = (what: string) => (e: unknown) =>
  console.warn(`[queue] ${what} failed:`, e instanceof Error ? e.message : String(e));

export function useGenerationActions() {
  const runtime = useGenerationRuntime();
  const generate = useCallback(
    async (settings: GenerationSettings): Promise<GenerateResult> => {
      if (!runtime) return { ok: false, message: VALIDATION_MESSAGES.signInToGenerate };
      const invalid = validateSettings(settings);
      if (invalid) return { ok: false, message: invalid };
      // docs/spec.md §5: generating requires remaining quota. With today's known to be spent nothing is queued
      // to be sent; the person may choose to hold the request for the reset instead. The limits are read
      // in the transaction that queues the tasks, and this tab's queue sends what may go from it too, so a
      // click costs one transaction before its send.
      const online = isOnline();
      const read: { spentUntil?: string } = {};
      const pick = (limits: LimitsRecord | undefined): NewTask[] => {
        const spent = limits && limits.remaining <= 0 && Date.parse(limits.resetAt) > Date.now();
        read.spentUntil = spent ? limits.resetAt : undefined;
        if (read.spentUntil && !settings.holdUntilReset) return [];
        return tasksFor(settings, runtime.userId, online, read.spentUntil);
      };
      const prompt: PromptEntry = {
        prompt: settings.prompt,
        style: settings.style,
        quality: settings.quality as NewTask["quality"],
      };
      try {
        const taskIds = await runtime.enqueue({ userId: runtime.userId, pick }, prompt);
        const { spentUntil } = read;
        if (!taskIds.length && spentUntil) {
          return { ok: false, message: VALIDATION_MESSAGES.dailyLimit, resetAt: spentUntil };
        }
        return spentUntil ? { ok: true, taskIds, heldUntil: spentUntil } : { ok: true, taskIds };
      } catch (e) {
        report("queueing")(e);
        return { ok: false, message: "Could not save the task on this device" };
      }
    },
    [runtime],
  );
  return useMemo(
    () => ({
      generate,
      retry: (taskId: string) => {
        void retryTask(db, taskId)
          .then(() => runtime?.enqueued([taskId]))
          .catch(report("retry"));
      },
      removeTask: (taskId: string) => void removeTask(db, taskId).catch(report("removing a task")),
      clearTasks: () => {
        if (runtime) void clearTasks(db, runtime.userId).catch(report("clearing the queue"));
      },
      // A setting of this browser: chosen before the queue's runner has started, it is kept for it.
      setConcurrency: (n: number) => (runtime ? runtime.setConcurrency(n) : void writeConcurrency(n)),
      addPrompt: (entry: PromptEntry) => {
        if (runtime) void addPrompt(db, runtime.userId, entry).catch(report("saving the prompt"));
      },
      removePrompt: (id: string) => {
        if (runtime) void removePrompt(db, runtime.userId, id).catch(report("removing the prompt"));
      },
      clearPrompts: () => {
        if (runtime) void clearPrompts(db, runtime.userId).catch(report("clearing prompts"));
      },
    }),
    [generate, runtime],
  );
}

export function useConcurrency(): number {
  return useSyncExternalStore(subscribeConcurrency, readConcurrency, readConcurrency);
}

type Progress = { taskId: string; progress: number } | null;

const noRuns = () => () => undefined;

/** The newest task running in this tab, and its run's machine. */
function useNewestRun() {
  const queue = useGenerationRuntime()?.queue ?? null;
  const newest = useSyncExternalStore(
    queue ? queue.subscribe : noRuns,
    () => queue?.running().at(-1) ?? null,
    () => null,
  );
  return { newest, run: newest ? queue?.runOf(newest) : undefined };
}

/** The newest running task's progress (docs/spec.md §4), or null when nothing runs in this tab. */
export function useRunProgress(): Progress {
  const { newest, run } = useNewestRun();
  const progress = useSelector(run, (s) => s?.context.progress ?? null);
  return newest && progress !== null ? { taskId: newest, progress } : null;
}

/** Whether a generation runs in this tab now, and a way to hear when that changes. */
export type RunState = { active(): boolean; subscribe(listener: () => void): () => void };

/**
 * Whether a task runs in this tab (useRunProgress is not null), as a store read where it is shown: the
 * Generate button alone re-renders when it changes (not the whole generator, on a click's start and at
 * its image), not on every progress tick (five a second while an image is drawn) nor when one task's run
 * hands over to the next in a batch.
 */
export function useRunState(): RunState {
  const queue = useGenerationRuntime()?.queue ?? null;
  return useMemo(
    () => ({
      active: () => (queue?.running().length ?? 0) > 0,
      subscribe: queue ? queue.subscribe : noRuns,
    }),
    [queue],
  );
}
