// The outbox drain against an in-memory server that keeps rows, objects and preferences the way
// the real one does (RLS scoping aside): order, exactly-once effects, conflicts, backoff, auth.
import { afterEach, describe, expect, it } from "vitest";
import type { GenerationRow } from "#shared/vocabulary/rows.ts";
import type { FlagsPatch, PreferencesRowPatch, WriteFailure } from "#src/api/library.ts";
import { appErrorOf, type AppError } from "#src/api/errors.ts";
import { openAppDb, type AppDb } from "#src/db/db.ts";
import { toGenerationRecord } from "#src/db/generation-record.ts";
import {
  applyServerPreferences,
  deleteGeneration,
  setPublished,
  setSaved,
  updatePreferences,
} from "#src/db/library.ts";
import { claimUnnotifiedConflicts, pendingEntries, releaseWaits } from "#src/db/outbox.ts";
import { listConflicts, pendingOutboxCount } from "#src/db/queries.ts";
import { err, ok } from "#src/lib/result.ts";
import { WORKER_DRAIN_WAIT_MS, WorkLeftForLater } from "#src/sync/delivery.ts";
import { OUTBOX_LOCK_PREFIX, drainOutbox, drainOutboxInWorker, type PushDeps } from "#src/sync/push.ts";
import { locked } from "#src/sync/runner.ts";
import type { LockManagerLike } from "#src/sync/triggers.ts";
import { generationRow } from "../../support/records.ts";

const NOW = Date.parse("2026-11-22T10:00:00.000Z");
let db: AppDb;
afterEach(async () => {
  await db?.delete();
});

const row = (id: string): GenerationRow => generationRow(id, "alice", { created_at: "2026-11-22T09:00:00.000Z" });

type Failure = WriteFailure["kind"] | "lost-response" | "none";

/** The server's state, a log of every request, and failures to inject into the next requests. */
class FakeServer {
  rows = new Map<string, { is_saved: boolean; is_public: boolean }>();
  objects = new Set<string>();
  prefs = new Map<string, PreferencesRowPatch>();
  log: string[] = [];
  failures: Failure[] = [];
  /** What publish-generation answers every publish with, when set (its checks refused it). */
  refusal: AppError | null = null;

  constructor(ids: string[]) {
    for (const id of ids) {
      this.rows.set(id, { is_saved: false, is_public: false });
      this.objects.add(`alice/${id}.png`);
    }
  }

  /** Applies the effect, then answers; a "lost-response" applies and then fails, like a dropped connection. */
  private answer<T>(apply: () => T): Promise<{ ok: true; value: T } | { ok: false; error: WriteFailure }> {
    const failure = this.failures.shift();
    if (failure && failure !== "lost-response" && failure !== "none") {
      return Promise.resolve(err({ kind: failure, error: appErrorOf("server_error", failure) }));
    }
    const value = apply();
    if (failure === "lost-response")
      return Promise.resolve(err({ kind: "transient", error: appErrorOf("network_error") }));
    return Promise.resolve(ok(value));
  }

  deps(over: Partial<PushDeps> = {}): PushDeps {
    return {
      db,
      updateFlags: (id: string, patch: FlagsPatch) =>
        this.answer(() => {
          this.log.push(`update ${id} ${JSON.stringify(patch)}`);
          const r = this.rows.get(id);
          if (r) Object.assign(r, patch);
          return { found: r !== undefined };
        }),
      // The publish-generation function: the server's checks, then the row published (or a refusal).
      publishGeneration: (id: string) => {
        if (this.refusal) {
          this.log.push(`refused ${id}`);
          return Promise.resolve(err({ kind: "rejected" as const, error: this.refusal }));
        }
        return this.answer(() => {
          this.log.push(`publish ${id}`);
          const r = this.rows.get(id);
          if (r) r.is_public = true;
          return { found: r !== undefined };
        });
      },
      // The delete-generation function: the row, then the object, both on the server in one request.
      deleteGeneration: (id: string, path: string) =>
        this.answer(() => {
          this.log.push(`delete ${id} ${path}`);
          const rowDeleted = this.rows.delete(id);
          this.objects.delete(path);
          return { rowDeleted };
        }),
      upsertPreferences: (userId: string, patch: PreferencesRowPatch) =>
        this.answer(() => {
          this.log.push(`prefs ${JSON.stringify(patch)}`);
          this.prefs.set(userId, { ...this.prefs.get(userId), ...patch });
          return null;
        }),
      refreshSession: async () => false,
      isOnline: () => true,
      now: () => NOW,
      random: () => 0.5,
      ...over,
    };
  }
}

async function library(ids: string[]) {
  db = openAppDb(`push-${Math.random()}`);
  await db.generations.bulkPut(ids.map((id) => toGenerationRecord(row(id))));
  return new FakeServer(ids);
}

describe("outbox drain", () => {
  it("sends every kind in the order the writes were made, then empties the outbox", async () => {
    const server = await library(["g1", "g2"]);
    await setSaved("alice", "g1", true, db);
    await updatePreferences("alice", { defaultStyle: "anime", publicGalleryOptIn: true }, db);
    await setPublished("alice", "g2", true, db);
    await setPublished("alice", "g2", false, db);
    await deleteGeneration("alice", "g1", db);

    const report = await drainOutbox(server.deps(), "alice");
    expect(report).toEqual({ sent: 4, conflicts: 0, stopped: { reason: "empty" } });
    // The flag change of g1 was dropped by its delete (moot), the rest went in order.
    expect(server.log).toEqual([
      'prefs {"default_style":"anime","public_gallery_opt_in":true}',
      "publish g2",
      'update g2 {"is_public":false}',
      "delete g1 alice/g1.png",
    ]);
    expect(server.rows.has("g1")).toBe(false);
    expect(server.objects.has("alice/g1.png")).toBe(false);
    expect(server.rows.get("g2")).toEqual({ is_saved: false, is_public: false });
    expect(await pendingOutboxCount("alice", db)).toBe(0);
  });

  it("applies each effect once even when a drain stops after the server applied an entry", async () => {
    const server = await library(["g1", "g2"]);
    await setPublished("alice", "g1", true, db);
    await setPublished("alice", "g1", false, db);
    await deleteGeneration("alice", "g2", db);
    await updatePreferences("alice", { defaultQuality: "ultra" }, db);

    // Every request reaches the server once with its answer lost (the entry stays in the outbox,
    // as after a crash between the server's commit and the local removal), then again normally.
    const script: Failure[][] = [
      ["lost-response"], // publish g1 true
      ["none", "lost-response"], // publish g1 true again; publish g1 false
      ["none", "lost-response"], // publish g1 false again; delete g2 (row and image)
      ["none", "lost-response"], // delete g2 again (neither is there); preferences
    ];
    const snapshot = () => JSON.stringify([[...server.rows], [...server.objects], [...server.prefs]]);
    for (const [i, failures] of script.entries()) {
      server.failures.push(...failures);
      const report = await drainOutbox(server.deps({ now: () => NOW + i * 120_000 }), "alice");
      expect(report.stopped.reason).toBe("backoff");
    }
    const beforeLastReplay = snapshot();
    const done = await drainOutbox(server.deps({ now: () => NOW + 3_600_000 }), "alice");
    expect(done).toEqual({ sent: 1, conflicts: 0, stopped: { reason: "empty" } });
    // Replays changed nothing: flags are absolute values (the later "false" still comes after
    // "true"), a second delete finds no row and a second remove no object, preferences are absolute.
    expect(server.rows.get("g1")).toEqual({ is_saved: false, is_public: false });
    expect(server.rows.has("g2")).toBe(false);
    expect(server.objects.has("alice/g2.png")).toBe(false);
    expect(server.prefs.get("alice")).toEqual({ default_quality: "ultra" });
    expect(server.log.filter((l) => l === "publish g1")).toHaveLength(2);
    expect(server.log.indexOf('update g1 {"is_public":false}')).toBeGreaterThan(server.log.lastIndexOf("publish g1"));
    expect(snapshot()).toBe(beforeLastReplay);
    expect(server.log.filter((l) => l === "delete g2 alice/g2.png")).toHaveLength(2);
    expect(server.log.filter((l) => l.startsWith("prefs"))).toHaveLength(2);
    expect(await pendingEntries(db, "alice")).toEqual([]);
  });

  it("turns an entry whose row is gone into a listed conflict, takes the server's truth and goes on", async () => {
    const server = await library(["g1", "g2"]);
    await setSaved("alice", "g1", true, db);
    await setSaved("alice", "g2", true, db);
    server.rows.delete("g1"); // deleted on another device meanwhile

    const report = await drainOutbox(server.deps(), "alice");
    expect(report).toEqual({ sent: 1, conflicts: 1, stopped: { reason: "empty" } });
    expect(await db.generations.get("g1")).toBeUndefined();
    expect(server.rows.get("g2")?.is_saved).toBe(true);
    const conflicts = await listConflicts("alice", db);
    expect(conflicts.map((c) => [c.payload, c.conflict?.reason])).toEqual([
      [{ generationId: "g1", isSaved: true }, "gone"],
    ]);
    // Announced exactly once, whoever asks.
    expect(await claimUnnotifiedConflicts(db, "alice")).toHaveLength(1);
    expect(await claimUnnotifiedConflicts(db, "alice")).toHaveLength(0);
    expect(await listConflicts("alice", db)).toHaveLength(1);
  });

  it("a pull's older copy of the preferences does not undo a change sent after the pull read them", async () => {
    // Fault seed 3642: a page's pull read the preferences, the person saved a new style and the outbox sent
    // it, then the pull wrote what it had read: the device went back to the old style, the server kept the new.
    const server = await library([]);
    const read = {
      userId: "alice",
      defaultStyle: "photorealistic",
      defaultQuality: "high" as const,
      defaultAspectRatio: "1:1" as const,
      notificationsEnabled: true,
      publicGalleryOptIn: false,
      timezone: "UTC",
      updatedAt: "2026-11-22T09:00:00.000Z",
    };
    await updatePreferences("alice", { defaultStyle: "steampunk" }, db);
    expect(await drainOutbox(server.deps({ now: () => NOW + 500 }), "alice")).toMatchObject({ sent: 1 });
    expect(await pendingOutboxCount("alice", db)).toBe(0);
    await applyServerPreferences(db, read, NOW);
    expect((await db.preferences.get("alice"))?.defaultStyle).toBe("steampunk");
    // A copy read after the send is the server's word: another device's later change is taken.
    await applyServerPreferences(db, { ...read, defaultStyle: "anime" }, NOW + 1000);
    expect((await db.preferences.get("alice"))?.defaultStyle).toBe("anime");
  });

  it("a change the server refuses for good is a conflict too, never dropped silently", async () => {
    const server = await library(["g1"]);
    await updatePreferences("alice", { timezone: "Mars/Olympus" }, db);
    server.failures.push("rejected");
    const report = await drainOutbox(server.deps(), "alice");
    expect(report.conflicts).toBe(1);
    expect((await listConflicts("alice", db))[0].conflict?.reason).toBe("rejected");
  });

  it("a publish refused by the server's checks is one conflict with its code, the row unpublished here, never sent again", async () => {
    const server = await library(["g1", "g2"]);
    await setPublished("alice", "g1", true, db);
    await setSaved("alice", "g2", true, db);
    const why = "The image check found this image sexually explicit, so it was not published.";
    server.refusal = appErrorOf("nsfw_content", "422", why);
    expect((await db.generations.get("g1"))?.isPublic).toBe(1);

    const report = await drainOutbox(server.deps(), "alice");
    expect(report).toEqual({ sent: 1, conflicts: 1, stopped: { reason: "empty" } });
    expect((await db.generations.get("g1"))?.isPublic).toBe(0);
    const [conflict] = await listConflicts("alice", db);
    expect(conflict.conflict).toMatchObject({ reason: "rejected", code: "nsfw_content", message: why });
    // Later drains find nothing to send: the refusal is final, not retried.
    for (const later of [60_000, 3_600_000]) {
      expect(await drainOutbox(server.deps({ now: () => NOW + later }), "alice")).toEqual({
        sent: 0,
        conflicts: 0,
        stopped: { reason: "empty" },
      });
    }
    expect(server.log).toEqual(["refused g1", 'update g2 {"is_saved":true}']);
    expect(server.rows.get("g1")?.is_public).toBe(false);
  });

  it("a suspended account's publish is refused the same way, with its code kept for the toast", async () => {
    const server = await library(["g1"]);
    await setPublished("alice", "g1", true, db);
    server.refusal = appErrorOf(
      "publishing_suspended",
      "403",
      "Publishing to the gallery is suspended for your account.",
    );
    expect((await drainOutbox(server.deps(), "alice")).conflicts).toBe(1);
    expect((await listConflicts("alice", db))[0].conflict?.code).toBe("publishing_suspended");
    expect((await db.generations.get("g1"))?.isPublic).toBe(0);
  });

  it("unpublishing stays the row's own update, never the publish function", async () => {
    const server = await library(["g1"]);
    server.rows.get("g1")!.is_public = true;
    await setPublished("alice", "g1", false, db);
    await drainOutbox(server.deps(), "alice");
    expect(server.log).toEqual(['update g1 {"is_public":false}']);
  });

  it("parks a change found gone or refused, not a conflict, when the session turns out to be gone", async () => {
    const server = await library(["g1", "g2"]);
    await setSaved("alice", "g1", true, db);
    await updatePreferences("alice", { defaultStyle: "anime" }, db);
    await setSaved("alice", "g2", true, db);
    // The account was deleted elsewhere: its rows are gone and its writes refused, its token still valid.
    server.rows.clear();
    let asked = 0;
    const report = await drainOutbox(server.deps({ sessionHolds: async () => (asked++, false) }), "alice");
    expect(report).toEqual({ sent: 0, conflicts: 0, stopped: { reason: "auth" } });
    expect(asked).toBe(1);
    expect(await listConflicts("alice", db)).toEqual([]);
    expect(await db.generations.get("g1")).toBeDefined();
    expect(await pendingOutboxCount("alice", db)).toBe(3);
    expect((await pendingEntries(db, "alice"))[0].parkedReason).toBe("auth");
  });

  it("asks once per drain whether the session holds, and then treats a gone row as a conflict", async () => {
    const server = await library(["g1", "g2"]);
    await setSaved("alice", "g1", true, db);
    await setSaved("alice", "g2", true, db);
    server.rows.clear();
    let asked = 0;
    const report = await drainOutbox(server.deps({ sessionHolds: async () => (asked++, true) }), "alice");
    expect(report).toEqual({ sent: 0, conflicts: 2, stopped: { reason: "empty" } });
    expect(asked).toBe(1);
  });

  it("backs off on server failures, keeping the order behind the failed entry", async () => {
    const server = await library(["g1"]);
    await setSaved("alice", "g1", true, db);
    await setPublished("alice", "g1", true, db);
    server.failures.push("transient");
    const first = await drainOutbox(server.deps(), "alice");
    expect(first.stopped).toEqual({ reason: "backoff", until: NOW + 2_000 });
    expect(server.log).toEqual([]);
    // Not due yet: nothing is sent, the second entry does not overtake the first.
    expect((await drainOutbox(server.deps({ now: () => NOW + 1_000 }), "alice")).stopped.reason).toBe("backoff");
    expect(server.log).toEqual([]);
    const later = await drainOutbox(server.deps({ now: () => NOW + 2_000 }), "alice");
    expect(later.sent).toBe(2);
    expect(server.log).toEqual(['update g1 {"is_saved":true}', "publish g1"]);
  });

  it("waits without sending while offline", async () => {
    const server = await library(["g1"]);
    await deleteGeneration("alice", "g1", db);
    const report = await drainOutbox(server.deps({ isOnline: () => false }), "alice");
    expect(report.stopped).toEqual({ reason: "offline" });
    expect(server.log).toEqual([]);
    expect(await pendingOutboxCount("alice", db)).toBe(1);
  });

  it("renews an expired session once, then parks until a sign-in", async () => {
    const server = await library(["g1"]);
    await setSaved("alice", "g1", true, db);
    let refreshes = 0;
    server.failures.push("auth");
    const renewed = await drainOutbox(server.deps({ refreshSession: async () => ++refreshes > 0 }), "alice");
    expect([renewed.sent, refreshes]).toEqual([1, 1]);

    await setSaved("alice", "g1", false, db);
    server.failures.push("auth", "auth");
    const parked = await drainOutbox(server.deps({ refreshSession: async () => true }), "alice");
    expect(parked.stopped).toEqual({ reason: "auth" });
    expect((await drainOutbox(server.deps(), "alice")).stopped).toEqual({ reason: "auth" });
    await releaseWaits(db, "alice", "auth");
    expect((await drainOutbox(server.deps(), "alice")).sent).toBe(1);
    expect(server.rows.get("g1")?.is_saved).toBe(false);
  });

  it("two drains at once (two tabs) send each entry once under the lock", async () => {
    const server = await library(["g1", "g2", "g3"]);
    for (const id of ["g1", "g2", "g3"]) await setSaved("alice", id, true, db);
    // A lock manager like navigator.locks: callbacks of one name run one after another.
    const held = new Map<string, Promise<unknown>>();
    const locks: LockManagerLike = {
      request(name, _options, callback) {
        const run = (held.get(name) ?? Promise.resolve()).then(() => callback());
        held.set(
          name,
          run.catch(() => undefined),
        );
        return run;
      },
    };
    const slow = server.deps();
    const update = slow.updateFlags;
    slow.updateFlags = async (id, patch) => {
      await new Promise((r) => setTimeout(r, 5));
      return update(id, patch);
    };
    const drain = () => locked(locks, OUTBOX_LOCK_PREFIX + "alice", () => drainOutbox(slow, "alice"));
    const [a, b] = await Promise.all([drain(), drain()]);
    expect(a.sent + b.sent).toBe(3);
    expect(server.log).toEqual([
      'update g1 {"is_saved":true}',
      'update g2 {"is_saved":true}',
      'update g3 {"is_saved":true}',
    ]);
  });
});

describe("the outbox drain in the service worker", () => {
  /** A clock the drain's waits move: each sleep is recorded and advances `now` by its length. */
  function sleeper() {
    const state = { now: NOW, slept: [] as number[] };
    const sleep = (ms: number) => {
      state.slept.push(ms);
      state.now += ms;
      return Promise.resolve();
    };
    const ctx = {
      userId: "alice",
      deadline: NOW + WORKER_DRAIN_WAIT_MS,
      sleep,
      locked: <T>(job: () => Promise<T>) => job(),
    };
    return { state, sleep, ctx };
  }

  it("waits for a backoff that ends within its time, then sends the rest: no page may be open to do it", async () => {
    const server = await library(["g1"]);
    await setSaved("alice", "g1", true, db);
    await setPublished("alice", "g1", true, db);
    server.failures.push("transient");
    const { state, ctx } = sleeper();
    await drainOutboxInWorker(server.deps({ now: () => state.now }), ctx);
    expect(state.slept).toEqual([2_000]);
    expect(server.log).toEqual(['update g1 {"is_saved":true}', "publish g1"]);
    expect(await pendingOutboxCount("alice", db)).toBe(0);
  });

  it("rejects for an entry whose retry comes past its time, so the browser fires the sync again", async () => {
    const server = await library(["g1"]);
    await setSaved("alice", "g1", true, db);
    // Failures whose backoffs (2, 4, 8, 16, 32, 60, 60 s) pass the drain's 90 s before an attempt succeeds.
    server.failures.push(...Array.from({ length: 10 }, () => "transient" as const));
    const { state, ctx } = sleeper();
    const error = await drainOutboxInWorker(server.deps({ now: () => state.now }), ctx).catch((e) => e);
    expect(error).toBeInstanceOf(WorkLeftForLater);
    expect(state.now - NOW).toBeLessThanOrEqual(WORKER_DRAIN_WAIT_MS);
    expect(server.log).toEqual([]);
    expect(await pendingOutboxCount("alice", db)).toBe(1);
  });

  it("rejects offline and ends for an entry parked for a sign-in, sending nothing", async () => {
    const server = await library(["g1"]);
    await setSaved("alice", "g1", true, db);
    const { ctx } = sleeper();
    await expect(drainOutboxInWorker(server.deps({ isOnline: () => false }), ctx)).rejects.toBeInstanceOf(
      WorkLeftForLater,
    );
    server.failures.push("auth");
    await drainOutboxInWorker(server.deps(), ctx);
    expect(server.log).toEqual([]);
    expect(await pendingOutboxCount("alice", db)).toBe(1);
  });
});
