// Push: drains a user's outbox to the server, oldest entry first, one at a time, under the Web Lock
// "promptcanvas-outbox:<uid>" that the runner (src/sync/runner.ts) takes for each drain: one drainer per
// user across tabs and the service worker. An entry leaves the outbox only after the server confirmed
// it, so a drain cut short (reload, crash, lost response) sends it again; that is harmless because every
// kind sets a state rather than adding to one: flags are set to absolute values, a delete of a row or
// object already gone succeeds, and preferences are upserted with absolute values. Failures: no network waits for `online`;
// 5xx/408/429 and a network failure while online back off (the head entry blocks the rest, keeping
// the order); an expired session is renewed once, then the queue parks until a sign-in; a row gone
// on the server, or a change the server refuses for good, becomes a listed conflict (never silent)
// and the local record takes the server's truth. Publishing goes through the publish-generation function
// (the server's prompt and image checks, decision 141): its refusal (nsfw_content, publishing_suspended)
// is such a conflict, never retried, and the row is unpublished here at once. Unpublishing and saving stay
// the row's own REST update.
import type { ErrorCode } from "#shared/vocabulary/errors.ts";
import { appErrorOf } from "../api/errors";
import { isOnline } from "../lib/online";
import type { Result } from "../lib/result";
import { refreshSession } from "../api/auth";
import {
  deleteGeneration,
  publishGeneration,
  updateGenerationFlags,
  upsertPreferences,
  type FlagsPatch,
  type PreferencesRowPatch,
  type WriteFailure,
} from "../api/library";
import { deleteCustomStyleRow, upsertCustomStyle } from "../api/custom-styles";
import { keepUpscale, type KeepUpscalePayload } from "../api/keep-upscale";
import { addCollectionItems, deleteCollectionRow, removeCollectionItems, upsertCollection } from "../api/collections";
import type { AppDb } from "../db/db";
import { removeImages } from "../db/images";
import { forgetItemsOf } from "../db/collections";
import { completePreferencesEntry } from "../db/library";
import { completeEntry, deferEntry, headEntry, markConflict, parkEntry } from "../db/outbox";
import type { CustomStyleRecord, OutboxEntry, OutboxOp, PreferencesPatch } from "../db/schema";
import { WorkLeftForLater, createLane, type DeliveryOutcome, type Settled } from "./delivery";
import type { WorkerDrain } from "./runner";

export const OUTBOX_LOCK_PREFIX = "promptcanvas-outbox:";
export const OUTBOX_SYNC_TAG = "promptcanvas-outbox";

export type PushDeps = {
  db: AppDb;
  updateFlags: (id: string, patch: FlagsPatch) => Promise<Result<{ found: boolean }, WriteFailure>>;
  /** Publishes a row through the server's checks; `found` is false when the row is gone. */
  publishGeneration: (id: string) => Promise<Result<{ found: boolean }, WriteFailure>>;
  /** Deletes the row and its stored image in one server call (decision 113). */
  deleteGeneration: (id: string, imagePath: string) => Promise<Result<{ rowDeleted: boolean }, WriteFailure>>;
  upsertPreferences: (userId: string, patch: PreferencesRowPatch) => Promise<Result<null, WriteFailure>>;
  /** Custom styles (decision 152): an upsert of the whole style, a delete by id; absent: the backend's. */
  upsertStyle?: (style: CustomStyleRecord) => Promise<Result<null, WriteFailure>>;
  deleteStyle?: (id: string) => Promise<Result<null, WriteFailure>>;
  /** Keeps an upscale made on this device in the library (decision 158); absent: the backend's. */
  keepUpscale?: (payload: KeepUpscalePayload) => Promise<Result<{ found: boolean }, WriteFailure>>;
  /** Collections (decision 157): the four writes of the outbox's collection entries; absent: the backend's. */
  collections?: CollectionCalls;
  /** One attempt to renew the session; true when a fresh one is in place. */
  refreshSession: () => Promise<boolean>;
  /**
   * Whether the person's session still holds, per the server (the page's session watch, decision 129):
   * asked before a change becomes a conflict, since an access token outlives its deleted account and
   * every change then looks refused or gone. Absent (the service worker): not asked.
   */
  sessionHolds?: () => Promise<boolean>;
  isOnline: () => boolean;
  now: () => number;
  random: () => number;
};

export type DrainReport = {
  sent: number;
  conflicts: number;
  /** Why the drain stopped: nothing left, no network, the head entry backs off (until), or a sign-in is needed. */
  stopped: { reason: "empty" } | { reason: "offline" } | { reason: "backoff"; until: number } | { reason: "auth" };
};

type Sent = { outcome: "applied" } | { outcome: "gone" } | { outcome: "failed"; failure: WriteFailure };

const PREFERENCE_COLUMNS: Record<keyof PreferencesPatch, keyof PreferencesRowPatch> = {
  defaultStyle: "default_style",
  defaultQuality: "default_quality",
  defaultAspectRatio: "default_aspect_ratio",
  notificationsEnabled: "notifications_enabled",
  publicGalleryOptIn: "public_gallery_opt_in",
  timezone: "timezone",
};

export function toPreferencesRowPatch(patch: PreferencesPatch): PreferencesRowPatch {
  const row: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(patch)) {
    const column = PREFERENCE_COLUMNS[key as keyof PreferencesPatch];
    if (column && value !== undefined) row[column] = value;
  }
  return row as PreferencesRowPatch;
}

const failed = (failure: WriteFailure): Sent => ({ outcome: "failed", failure });

const COLLECTION_CALLS = {
  upsert: upsertCollection,
  delete: deleteCollectionRow,
  add: addCollectionItems,
  remove: removeCollectionItems,
};
type CollectionCalls = typeof COLLECTION_CALLS;

/**
 * A collection's entry: its whole row upserted, deleted by id, images added (the entry's moment is their
 * added_at; an add whose collection or image is gone on the server is moot, so applied) or removed.
 */
async function sendCollection(
  calls: CollectionCalls,
  entry: OutboxEntry,
  op: Extract<OutboxOp, { kind: `collection.${string}` }>,
): Promise<Sent> {
  const r =
    op.kind === "collection.save"
      ? await calls.upsert(op.payload.collection)
      : op.kind === "collection.delete"
        ? await calls.delete(op.payload.collectionId)
        : op.kind === "collection.add"
          ? await calls.add(entry.userId, op.payload.collectionId, op.payload.generationIds, entry.createdAt)
          : await calls.remove(op.payload.collectionId, op.payload.generationIds);
  return r.ok ? { outcome: "applied" } : failed(r.error);
}

async function send(deps: PushDeps, entry: OutboxEntry): Promise<Sent> {
  const op = { kind: entry.kind, payload: entry.payload } as OutboxOp;
  switch (op.kind) {
    case "generation.flags":
      return sendFlags(deps, op.payload);
    case "generation.delete": {
      // One request: the server removes the row, then the object, whatever becomes of this device
      // after sending (two requests from here left the object behind when the device lost its
      // IndexedDB between them). A row already gone is success: the intent holds.
      const r = await deps.deleteGeneration(op.payload.generationId, op.payload.imagePath);
      return r.ok ? { outcome: "applied" } : failed(r.error);
    }
    case "preferences.update": {
      const r = await deps.upsertPreferences(entry.userId, toPreferencesRowPatch(op.payload.patch));
      return r.ok ? { outcome: "applied" } : failed(r.error);
    }
    case "style.save": {
      const r = await (deps.upsertStyle ?? upsertCustomStyle)(op.payload.style);
      return r.ok ? { outcome: "applied" } : failed(r.error);
    }
    case "style.delete": {
      const r = await (deps.deleteStyle ?? deleteCustomStyleRow)(op.payload.styleId);
      return r.ok ? { outcome: "applied" } : failed(r.error);
    }
    case "collection.save":
    case "collection.delete":
    case "collection.add":
    case "collection.remove":
      return sendCollection(deps.collections ?? COLLECTION_CALLS, entry, op);
    case "upscale.keep": {
      // The original gone (or the kept id deleted meanwhile) is a conflict that takes the kept record away.
      const r = await (deps.keepUpscale ?? keepUpscale)(op.payload);
      if (!r.ok) return failed(r.error);
      return r.value.found ? { outcome: "applied" } : { outcome: "gone" };
    }
    default:
      return failed({
        kind: "rejected",
        error: appErrorOf(
          "invalid_input",
          String(entry.kind),
          "This change is not understood by this version of the app.",
        ),
      });
  }
}

/**
 * A row's flags: saving and unpublishing as the row's own update, publishing through the server's checks
 * (after the update, when one entry carries both). Each step sets an absolute value, so a resend is harmless.
 */
async function sendFlags(
  deps: PushDeps,
  payload: { generationId: string; isSaved?: boolean; isPublic?: boolean },
): Promise<Sent> {
  const patch: FlagsPatch = {};
  if (payload.isSaved !== undefined) patch.is_saved = payload.isSaved;
  if (payload.isPublic === false) patch.is_public = false;
  if (Object.keys(patch).length) {
    const r = await deps.updateFlags(payload.generationId, patch);
    if (!r.ok) return failed(r.error);
    if (!r.value.found) return { outcome: "gone" };
  }
  if (payload.isPublic !== true) return { outcome: "applied" };
  const r = await deps.publishGeneration(payload.generationId);
  if (!r.ok) return failed(r.error);
  return r.value.found ? { outcome: "applied" } : { outcome: "gone" };
}

/**
 * The server's truth after a conflict: a row gone there is gone here too, and a refused publish leaves
 * the row unpublished here.
 */
async function settleConflict(deps: PushDeps, entry: OutboxEntry, detail: Conflict) {
  const { db } = deps;
  const { conflict: reason, message, code } = detail;
  await db.transaction("rw", [db.outbox, db.generations, db.images, db.imageUse, db.collectionItems], async () => {
    await markConflict(db, entry.seq!, { reason, message, ...(code ? { code } : {}) }, deps.now());
    const payload = entry.payload as { generationId?: unknown; isPublic?: unknown } | null;
    const generationId = payload?.generationId;
    if (typeof generationId !== "string") return;
    if (reason === "gone") {
      await db.generations.delete(generationId);
      await removeImages(db, [generationId]);
      await forgetItemsOf(db, [generationId]);
    } else if (entry.kind === "generation.flags" && payload?.isPublic === true) {
      await db.generations.update(generationId, { isPublic: 0 });
    }
  });
}

const GONE_MESSAGE = "This generation no longer exists on the server (it was deleted elsewhere).";

/** A change the server's truth overrides, with the refusal's code where it has one. */
type Conflict = { conflict: "gone" | "rejected"; message: string; code?: ErrorCode };

/** What became of a sent entry beyond delivered or retried, for the report and the outbox. */
type Detail = Conflict | { park: "auth" };

/**
 * Sends the user's pending entries in order until none is left or one must wait, on an ordered
 * delivery lane (src/sync/delivery.ts): the head entry's backoff (kept in the outbox) holds the rest.
 * A drain never sleeps: it ends where the lane would wait, and says why.
 */
export async function drainOutbox(deps: PushDeps, userId: string): Promise<DrainReport> {
  const report: DrainReport = { sent: 0, conflicts: 0, stopped: { reason: "empty" } };
  const details = new Map<number, Detail>();
  let renewed = false;
  let holds: Promise<boolean> | undefined;
  let error: unknown;

  async function deliver(entry: OutboxEntry): Promise<DeliveryOutcome> {
    if (entry.parkedReason === "auth") return { outcome: "wait", for: "session" };
    if (!deps.isOnline()) return { outcome: "wait", for: "online" };
    let sent = await send(deps, entry);
    if (sent.outcome === "failed" && sent.failure.kind === "auth" && !renewed && (await deps.refreshSession())) {
      renewed = true;
      sent = await send(deps, entry); // the same entry again, with the fresh session
    }
    if (sent.outcome === "applied") return { outcome: "delivered" };
    const refusedOrGone = sent.outcome === "gone" || sent.failure.kind === "rejected";
    if (refusedOrGone && deps.sessionHolds && !(await (holds ??= deps.sessionHolds()))) {
      // Not a conflict: the session (or its account) is gone, which the page now says once. The entry
      // waits for a sign-in; a gone account's entries go with the rest of its data.
      details.set(entry.seq!, { park: "auth" });
      return { outcome: "wait", for: "session" };
    }
    if (sent.outcome === "gone") {
      details.set(entry.seq!, { conflict: "gone", message: GONE_MESSAGE });
      return { outcome: "failed" };
    }
    const { failure } = sent;
    if (failure.kind === "rejected") {
      details.set(entry.seq!, { conflict: "rejected", message: failure.error.message, code: failure.error.code });
      return { outcome: "failed" };
    }
    if (failure.kind === "auth") {
      details.set(entry.seq!, { park: "auth" });
      return { outcome: "wait", for: "session" };
    }
    if (failure.kind === "offline" && !deps.isOnline()) return { outcome: "wait", for: "online" };
    return { outcome: "retry", retryAfterMs: failure.error.retryAfterMs };
  }

  async function settled(entry: OutboxEntry, result: Settled): Promise<void> {
    const detail = details.get(entry.seq!);
    details.delete(entry.seq!);
    if (result.outcome === "delivered") {
      const op = { kind: entry.kind, payload: entry.payload } as OutboxOp;
      if (op.kind === "preferences.update")
        await completePreferencesEntry(deps.db, { ...entry, patch: op.payload.patch }, deps.now());
      else await completeEntry(deps.db, entry.seq!);
      report.sent++;
    } else if (result.outcome === "failed" && detail && "conflict" in detail) {
      await settleConflict(deps, entry, detail);
      report.conflicts++;
    } else if (result.outcome === "retry") {
      await deferEntry(deps.db, entry.seq!, result.at);
    } else if (result.outcome === "wait" && detail && "park" in detail) {
      await parkEntry(deps.db, entry.seq!, detail.park);
    }
  }

  const lane = createLane<OutboxEntry>({
    key: OUTBOX_LOCK_PREFIX + userId,
    mode: "ordered",
    next: async () => {
      const head = await headEntry(deps.db, userId);
      return head ? [head] : [];
    },
    idOf: (entry) => String(entry.seq),
    attemptsOf: (entry) => entry.attempts,
    dueAt: (entry) => (entry.nextAttemptAt ? Date.parse(entry.nextAttemptAt) : 0),
    deliver,
    settled,
    // A drain ends where the lane would sleep: its timers never fire.
    clock: { now: deps.now, setTimeout: () => undefined, clearTimeout: () => undefined },
    random: deps.random,
    onError: (e) => {
      error ??= e;
      lane.stop();
    },
  });
  lane.wake();
  const status = await lane.idle();
  lane.stop();
  if (error) throw error;
  if (status.waiting === "online") report.stopped = { reason: "offline" };
  else if (status.waiting === "session") report.stopped = { reason: "auth" };
  else if (status.until !== null) report.stopped = { reason: "backoff", until: status.until };
  return report;
}

/**
 * The service worker's drain (no page may be open to retry later): drains under the user's outbox lock
 * (src/sync/lanes.ts declares it), waits without it (a page that opens meanwhile drains) for a backoff
 * that ends by the drain's deadline, and rejects with WorkLeftForLater for an entry left offline or for
 * later, so the browser fires the sync again. An entry parked for a sign-in is a page's to send.
 */
export async function drainOutboxInWorker(
  deps: PushDeps,
  ctx: Pick<WorkerDrain, "userId" | "deadline" | "sleep" | "locked">,
): Promise<void> {
  for (;;) {
    const { stopped } = await ctx.locked(() => drainOutbox(deps, ctx.userId));
    if (stopped.reason === "empty" || stopped.reason === "auth") return;
    if (stopped.reason === "offline" || stopped.until > ctx.deadline)
      throw new WorkLeftForLater("changes to the library");
    await ctx.sleep(Math.max(0, stopped.until - deps.now()));
  }
}

/** The drain as the page and the service worker run it: the real backend calls. */
export function pushDeps(db: AppDb): PushDeps {
  return {
    db,
    updateFlags: updateGenerationFlags,
    publishGeneration,
    deleteGeneration,
    upsertPreferences,
    refreshSession,
    isOnline,
    now: () => Date.now(),
    random: Math.random,
  };
}
