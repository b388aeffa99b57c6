// The offline library's background fill (src/db/offline-library.ts says what is kept): when online
// and idle, fetches the images the plan asks for, one at a time, keeps each one's thumbnail and,
// where the plan wants it, its full image, and lets go of full images past the budget. It never runs
// ahead of what the person is waiting for: while a view fetches an image or the queue sends
// (src/sync/foreground.ts), and until the page is idle, it waits, even to plan; and while the person
// scrolls, taps or types, until INTERACTION_QUIET_MS after the last of it, it waits
// (docs/decisions/091-background-fill-costs-history-scroll.md measured what it cost History's scroll).
// Thumbnails are made in a worker, and the plan is read again every FILL_BATCH images or when what it
// depends on changes, not every few images. It runs again when the library, the saved items or the
// budget change (a batch's new rows call for one pass once the queue is done), and when the connection
// returns.
import { liveQuery } from "dexie";
import { fetchStoredImage, type ImageFetchFailure } from "../api/library";
import type { AppDb } from "../db/db";
import { getImage, storeImage } from "../db/images";
import { budgetKey, getOfflineBudget, planAndEvict } from "../db/offline-library";
import { isOnline } from "../lib/online";
import type { Result } from "../lib/result";
import { whenIdle } from "../lib/schedule";
import { coalesced } from "./delivery";
import { freshImageUrl } from "./fresh-images";
import { foregroundCount, noForeground, whileNoForeground } from "./foreground";
import { makeThumbnail } from "../lib/thumbnail";

/**
 * Fetches between two plans (a plan reads and sorts all the user's records; the budget is checked at
 * each). A change of the records, the saved items or the budget calls for a plan at once.
 */
export const FILL_BATCH = 48;

/** How long after the person's last scroll, tap or key the fill waits before its next step. */
export const INTERACTION_QUIET_MS = 500;

let lastInteraction = -Infinity;
let watching = false;
const INTERACTIONS = ["scroll", "wheel", "touchstart", "touchmove", "pointerdown", "keydown"] as const;

/** Notes that the person is scrolling or interacting now: the background fill holds off a while. */
export function noteInteraction(): void {
  lastInteraction = performance.now();
}

/** Listens (once, passively, in the capture phase so inner scrollers count) for the person's input. */
function watchInteraction(): void {
  if (watching || typeof window === "undefined") return;
  watching = true;
  for (const type of INTERACTIONS) window.addEventListener(type, noteInteraction, { capture: true, passive: true });
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Resolves once no foreground work is under way (src/sync/foreground.ts: a view fetching, the queue
 * sending), the person has not scrolled, tapped or typed for INTERACTION_QUIET_MS, and the page is idle (all three at once: each is checked again after the idle
 * callback, since the person may have started scrolling meanwhile).
 */
export async function backgroundTurn(): Promise<void> {
  watchInteraction();
  for (;;) {
    await noForeground();
    const wait = lastInteraction + INTERACTION_QUIET_MS - performance.now();
    if (wait > 0) {
      await sleep(wait);
      continue;
    }
    await new Promise<void>((resolve) => whenIdle(resolve, { timeoutMs: 1000, fallbackMs: 20 }));
    if (!foregroundCount() && performance.now() - lastInteraction >= INTERACTION_QUIET_MS) return;
  }
}

export type FillDeps = {
  db: AppDb;
  fetchImage: (path: string) => Promise<Result<Blob, ImageFetchFailure>>;
  thumbnail: (image: Blob) => Promise<string | undefined>;
  budget: (userId: string) => Promise<number>;
  turn: () => Promise<void>;
  online: () => boolean;
  /**
   * A generation whose image the queue is keeping now (just made here: it fetches the bytes from its
   * answer's URL and makes the thumbnail, src/sync/run-task.ts): the fill leaves it to the queue rather
   * than sign, download and scale the same image a second time.
   */
  keptByQueue: (id: string) => boolean;
  /**
   * Runs the watch of what calls for a pass only while nothing the person waits for is under way
   * (src/sync/foreground.ts): a batch's writes would read it again for each image, for a pass that waits
   * for the batch anyway. It reads once when the batch is over.
   */
  whileQuiet: (start: () => () => void) => () => void;
};

export function fillDeps(db: AppDb): FillDeps {
  return {
    db,
    fetchImage: fetchStoredImage,
    thumbnail: makeThumbnail,
    budget: async (userId) => (await getOfflineBudget(userId, db)).bytes,
    turn: backgroundTurn,
    online: isOnline,
    keptByQueue: (id) => freshImageUrl(id) !== undefined,
    whileQuiet: whileNoForeground,
  };
}

export type FillReport = { fetched: number; failed: number; stopped: "done" | "offline" | "stopped" };

/**
 * One pass: waits its turn, plans, fetches up to FILL_BATCH, plans again, until nothing is left to fetch (an image
 * that fails is skipped for the rest of the pass), the connection goes or `stopped()` says so.
 * `changed()` says the records, saved items or budget changed since it was last asked: the batch ends
 * there and the next plan is read at once.
 */
export async function fillOnce(
  deps: FillDeps,
  userId: string,
  stopped: () => boolean = () => false,
  changed: () => boolean = () => false,
): Promise<FillReport> {
  const { db } = deps;
  const failed = new Set<string>();
  // Left to the queue for this pass (see FillDeps.keptByQueue).
  const left = new Set<string>();
  let fetched = 0;
  for (;;) {
    if (stopped()) return { fetched, failed: failed.size, stopped: "stopped" };
    if (!deps.online()) return { fetched, failed: failed.size, stopped: "offline" };
    // A plan reads every record: it waits for a turn too, so a batch under way plans once, after it.
    await deps.turn();
    if (stopped()) return { fetched, failed: failed.size, stopped: "stopped" };
    const plan = await planAndEvict(userId, await deps.budget(userId), db);
    const next = plan.fetch.filter((f) => !failed.has(f.id) && !left.has(f.id)).slice(0, FILL_BATCH);
    if (!next.length) return { fetched, failed: failed.size, stopped: "done" };
    for (const item of next) {
      if (changed()) break;
      await deps.turn();
      if (stopped()) return { fetched, failed: failed.size, stopped: "stopped" };
      const record = await db.generations.get(item.id);
      if (!record) continue;
      const held = await getImage(item.id, db);
      // Kept meanwhile (by the queue, a view or another tab): nothing to fetch or write.
      if (held?.thumbnail && (held.image || !item.full)) continue;
      if (!held?.thumbnail && deps.keptByQueue(item.id)) {
        left.add(item.id);
        continue;
      }
      let image = held?.image;
      if (!image) {
        const got = await deps.fetchImage(record.imagePath);
        if (!got.ok) {
          if (got.error.offline) return { fetched, failed: failed.size, stopped: "offline" };
          failed.add(item.id);
          continue;
        }
        image = got.value;
      }
      const thumbnail = held?.thumbnail ? undefined : await deps.thumbnail(image);
      // An image that makes no thumbnail (not decodable here) is not fetched again in this pass.
      if (!held?.thumbnail && !thumbnail) failed.add(item.id);
      // The write (a full image is most of a megabyte) waits for a turn of its own, so one idle
      // callback does not start a fetch, a thumbnail and a write and run past its idle time.
      await deps.turn();
      if (stopped()) return { fetched, failed: failed.size, stopped: "stopped" };
      await storeImage(item.id, { image: item.full ? image : undefined, thumbnail }, db);
      fetched++;
    }
  }
}

/**
 * Keeps the user's library on this device while signed in (the runner's images lane): a pass on start,
 * and another whenever the records, the saved flags or the budget change, or at `wake()` (the connection
 * returned).
 */
export function keepLibraryOffline(
  deps: FillDeps,
  userId: string,
  onError: (e: unknown) => void,
): { wake: () => void; stop: () => void } {
  let stopped = false;
  const fill = coalesced(async (takeRequest) => {
    await fillOnce(deps, userId, () => stopped, takeRequest);
  }, onError);
  const { db } = deps;
  // What a change of calls for another pass: the records, the saved ones, the budget (one read transaction).
  const watched = liveQuery(() =>
    db.transaction("r", [db.generations, db.meta], async () => {
      const [count, saved, budget] = await Promise.all([
        db.generations.where("userId").equals(userId).count(),
        db.generations.where({ userId, isSaved: 1 }).primaryKeys(),
        db.meta.get(budgetKey(userId)),
      ]);
      return `${count}|${saved.join(",")}|${String(budget?.value)}`;
    }),
  );
  let last: string | undefined;
  const stopWatch = deps.whileQuiet(() => {
    const subscription = watched.subscribe({
      next: (key) => {
        if (key === last) return;
        last = key;
        fill.request();
      },
      error: onError,
    });
    return () => subscription.unsubscribe();
  });
  return {
    wake: () => fill.request(),
    stop: () => {
      stopped = true;
      fill.stop();
      stopWatch();
    },
  };
}
