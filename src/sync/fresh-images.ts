// The signed URL a generate answer brought, for the moments between the answer and the bytes being kept
// on this device: the preview shows the new image from it at once (the browser fetches and decodes it
// off the main thread) instead of waiting for the fetch, the thumbnail and the Dexie write that follow
// the task's end (src/sync/run-task.ts keepImage). In-memory and per context: the service worker's
// drain shows nothing, and a reload falls back to the kept bytes or a new signed URL.
import type { GenerationRecord } from "../db/schema";

const fresh = new Map<string, { url: string; until: number }>();

/** How long an answer's URL is offered (well inside its signed lifetime). */
const FRESH_MS = 10 * 60_000;

/** At most this many are remembered (a long batch): the oldest go first. */
const MAX_FRESH = 64;

export function rememberFreshImage(id: string, url: string, now: number = Date.now()): void {
  fresh.delete(id);
  fresh.set(id, { url, until: now + FRESH_MS });
  for (const key of fresh.keys()) {
    if (fresh.size <= MAX_FRESH) break;
    fresh.delete(key);
  }
}

/** The answer's signed URL for generation `id`, while fresh. */
export function freshImageUrl(id: string, now: number = Date.now()): string | undefined {
  const entry = fresh.get(id);
  if (entry && entry.until > now) return entry.url;
  fresh.delete(id);
  return undefined;
}

/** Made images this context's queue is fetching and keeping now (between the answer and the Dexie write). */
const keeping = new Set<string>();
const keptListeners = new Set<(id: string, thumbnail: string | undefined) => void>();

/** The queue starts fetching and keeping the image of generation `id`. */
export function keepingImage(id: string): void {
  keeping.add(id);
}

/** Whether the queue of this context is keeping the image of generation `id` now. */
export function isKeepingImage(id: string): boolean {
  return keeping.has(id);
}

/** The queue is done with the image of `id`: kept with `thumbnail`, or (undefined) not kept or without one. */
export function imageKept(id: string, thumbnail: string | undefined): void {
  keeping.delete(id);
  for (const listener of keptListeners) listener(id, thumbnail);
}

export function subscribeKept(listener: (id: string, thumbnail: string | undefined) => void): () => void {
  keptListeners.add(listener);
  return () => keptListeners.delete(listener);
}

/**
 * Made images a view of this context is putting on screen from their answer's URL, until its frame with
 * them: keeping their bytes (the fetch, the thumbnail's decode, the Dexie write) waits for it rather than
 * compete with the image's own fetch and decode for the device (docs/benchmarks.md, the client's cost).
 */
const onScreen = new Map<string, Set<() => void>>();

/** A view starts showing generation `id` from its answer's URL. */
export function showingFresh(id: string): void {
  if (!onScreen.has(id)) onScreen.set(id, new Set());
}

/** The view has drawn generation `id`, or no longer shows it: what waited for it goes on. */
export function freshShown(id: string): void {
  const waiting = onScreen.get(id);
  onScreen.delete(id);
  waiting?.forEach((go) => go());
}

/** Resolves once no view of this context is putting `id` on screen, or after `atMostMs`. */
export function afterFreshShown(id: string, atMostMs: number): Promise<void> {
  const waiting = onScreen.get(id);
  if (!waiting) return Promise.resolve();
  return new Promise((resolve) => {
    const go = () => {
      clearTimeout(timer);
      waiting.delete(go);
      resolve();
    };
    const timer = setTimeout(go, atMostMs);
    waiting.add(go);
  });
}

/** A URL whose download failed is not offered again: the view signs a new one. */
export function forgetFreshImage(id: string): void {
  fresh.delete(id);
}

/**
 * The generation this context's queue was last answered with, announced the moment the answer is in:
 * the generator's preview shows it at once instead of after the answer's Dexie transaction commits and
 * its live query reads the row back (tens of milliseconds of a click's wait for its image). The server
 * has stored the row by then, so what it shows is true; the live list takes over as soon as it has it.
 */
export type JustMade = { userId: string; record: GenerationRecord; until: number };

/** Long enough for any live query to catch up; a view never shows an announcement older than this. */
const JUST_MADE_MS = 5_000;

let justMade: JustMade | null = null;
const madeListeners = new Set<() => void>();

export function announceMade(userId: string, record: GenerationRecord, now: number = Date.now()): void {
  justMade = { userId, record, until: now + JUST_MADE_MS };
  for (const listener of madeListeners) listener();
}

/** The latest announcement (useSyncExternalStore's snapshot: the same object until the next one). */
export function lastMade(): JustMade | null {
  return justMade;
}

export function subscribeMade(listener: () => void): () => void {
  madeListeners.add(listener);
  return () => madeListeners.delete(listener);
}

/**
 * `list` (newest first, as a live query read it) with `made` in front while the list has not caught up:
 * only `userId`'s, only while fresh, only when newer than the list's newest, and never once `seen` (the
 * list had it: a generation deleted after that stays deleted).
 */
export function withJustMade<T extends { id: string; createdAt: string }>(
  list: readonly T[],
  made: { userId: string; record: T; until: number } | null,
  userId: string | undefined,
  seen: ReadonlySet<string>,
  now: number = Date.now(),
): readonly T[] {
  if (!made || made.userId !== userId || made.until <= now || seen.has(made.record.id)) return list;
  if (list.some((g) => g.id === made.record.id)) return list;
  if (list[0] && list[0].createdAt >= made.record.createdAt) return list;
  return [made.record, ...list];
}
