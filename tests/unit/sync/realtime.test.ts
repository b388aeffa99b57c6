// Live updates and the catch-up: realtime changes and pulled rows land in Dexie by id (nothing
// twice), deletions made elsewhere are reconciled, and every (re)subscription catches up.
import { afterEach, describe, expect, it } from "vitest";
import type { GenerationRow } from "#shared/vocabulary/rows.ts";
import type { ChangeFeedStatus, GenerationChange, RowFlags } from "#src/api/library.ts";
import { openAppDb, type AppDb } from "#src/db/db.ts";
import { applyServerRows, cacheImage, deleteGeneration, setSaved } from "#src/db/library.ts";
import { err, ok } from "#src/lib/result.ts";
import { appErrorOf } from "#src/api/errors.ts";
import { catchUp } from "#src/sync/pull.ts";
import { followGenerations } from "#src/sync/realtime.ts";
import { generationRow } from "../../support/records.ts";
import { simClock } from "./sim-clock.ts";

let db: AppDb;
afterEach(async () => {
  await db?.delete();
});

const row = (id: string, second: number, over: Partial<GenerationRow> = {}): GenerationRow =>
  generationRow(id, "alice", {
    prompt: `a lighthouse number ${id}`,
    created_at: `2026-11-22T10:00:${String(second).padStart(2, "0")}.000Z`,
    ...over,
  });

/** The user's rows on the server, answering the two catch-up reads as PostgREST would. */
function serverOf(rows: GenerationRow[]) {
  const byId = new Map(rows.map((r) => [r.id, r]));
  return {
    byId,
    fetchSince: async (_userId: string, since: string | null, pageSize: number) =>
      ok(
        [...byId.values()]
          .filter((r) => since === null || r.created_at >= since)
          .sort((a, b) => a.created_at.localeCompare(b.created_at))
          .slice(0, pageSize),
      ),
    fetchFlags: async (_userId: string, upTo: string, afterId: string | null, limit: number) =>
      ok(
        [...byId.values()]
          .filter((r) => r.created_at <= upTo && (afterId === null || r.id > afterId))
          .sort((a, b) => a.id.localeCompare(b.id))
          .slice(0, limit)
          .map((r): RowFlags => ({ id: r.id, is_saved: r.is_saved, is_public: r.is_public })),
      ),
    fetchByIds: async (_userId: string, ids: string[]) => ok([...byId.values()].filter((r) => ids.includes(r.id))),
  };
}

function fakeChannel() {
  const channel = {
    onChange: (_c: GenerationChange) => undefined as void,
    onStatus: (_s: ChangeFeedStatus) => undefined as void,
    unsubscribed: false,
    subscribe(_userId: string, onChange: (c: GenerationChange) => void, onStatus: (s: ChangeFeedStatus) => void) {
      channel.onChange = onChange;
      channel.onStatus = onStatus;
      return () => void (channel.unsubscribed = true);
    },
  };
  return channel;
}

const ids = async () => (await db.generations.orderBy("createdAt").toArray()).map((r) => r.id);

describe("live generations", () => {
  it("upserts realtime changes by id: an insert seen by pull and realtime is kept once", async () => {
    db = openAppDb("rt-upsert");
    const server = serverOf([row("g1", 1), row("g2", 2)]);
    const channel = fakeChannel();
    let catchUps = 0;
    const live = followGenerations(
      {
        db,
        subscribe: channel.subscribe,
        catchUp: (uid) => (catchUps++, catchUp(db, uid, server.fetchSince, server.fetchFlags, server.fetchByIds)),
      },
      "alice",
    );
    channel.onStatus("SUBSCRIBED");
    await live.settled();
    expect([catchUps, await ids()]).toEqual([1, ["g1", "g2"]]);

    // The same rows come again by realtime (and g3 is new, twice), then an update.
    channel.onChange({ type: "upsert", row: row("g2", 2) });
    channel.onChange({ type: "upsert", row: row("g3", 3) });
    channel.onChange({ type: "upsert", row: row("g3", 3) });
    await live.settled();
    expect(await cacheImage("g3", new Blob(["x"]), db)).toBe(true);
    channel.onChange({ type: "upsert", row: row("g3", 3, { is_public: true }) });
    channel.onChange({ type: "upsert", row: row("b1", 4, { user_id: "bob" }) });
    await live.settled();
    expect(await ids()).toEqual(["g1", "g2", "g3"]);
    const g3 = await db.generations.get("g3");
    const g3Bytes = await db.images.get("g3");
    expect([g3?.isPublic, g3Bytes?.image !== undefined, g3?.words?.includes("lighthouse")]).toEqual([1, true, true]);

    channel.onChange({ type: "delete", id: "g1" });
    await live.settled();
    expect(await ids()).toEqual(["g2", "g3"]);
    live.stop();
    expect(channel.unsubscribed).toBe(true);
  });

  it("a rejoin after a lost connection catches up: rows missed, deletions and flag changes made elsewhere", async () => {
    db = openAppDb("rt-catchup");
    const server = serverOf([row("g1", 1), row("g2", 2), row("g3", 3)]);
    const channel = fakeChannel();
    const live = followGenerations(
      {
        db,
        subscribe: channel.subscribe,
        catchUp: (uid) => catchUp(db, uid, server.fetchSince, server.fetchFlags, server.fetchByIds),
      },
      "alice",
    );
    channel.onStatus("SUBSCRIBED");
    await live.settled();
    await setSaved("alice", "g3", true, db); // still in the outbox

    // While the socket was down: g1 deleted, g2 published, g3 unsaved, g4 made on another device.
    server.byId.delete("g1");
    server.byId.get("g2")!.is_public = true;
    server.byId.set("g4", row("g4", 4));
    channel.onStatus("CLOSED");
    channel.onStatus("SUBSCRIBED");
    await live.settled();

    expect(await ids()).toEqual(["g2", "g3", "g4"]);
    expect((await db.generations.get("g2"))?.isPublic).toBe(1);
    // The pending local change wins until the outbox has sent it.
    expect((await db.generations.get("g3"))?.isSaved).toBe(1);
    live.stop();
  });
  it("the catch-up fetches a row that committed behind the cursor, but not one this device deleted and has not sent", async () => {
    db = openAppDb("rt-behind-cursor");
    const server = serverOf([row("g1", 1), row("g3", 3)]);
    // No custom styles nor collections on this server (decisions 152, 157): the catch-up reads empty lists.
    const noStyles = async () => ok([]);
    const noCollections = async () => ok({ collections: [], items: [] });
    const fetch = (uid: string) =>
      catchUp(db, uid, server.fetchSince, server.fetchFlags, server.fetchByIds, noStyles, noCollections);
    expect((await fetch("alice")).pulled).toBe(2);
    // g2's transaction started before g3's (its created_at is older) but committed after the pull had
    // moved the cursor to g3; g0 was deleted on this device, its delete still in the outbox.
    server.byId.set("g2", row("g2", 2));
    server.byId.set("g0", row("g0", 0));
    await applyServerRows(db, "alice", [row("g0", 0)]);
    await deleteGeneration("alice", "g0", db);
    const report = await fetch("alice");
    expect(report.restored).toBe(1);
    expect(report.errors).toEqual([]);
    expect(await ids()).toEqual(["g1", "g2", "g3"]);
    // Nothing missing (g0's delete is still to be sent): the next catch-up fetches nothing by id.
    let asked = 0;
    await catchUp(
      db,
      "alice",
      server.fetchSince,
      server.fetchFlags,
      async (u, ids) => {
        asked += ids.length;
        return server.fetchByIds(u, ids);
      },
      noStyles,
      noCollections,
    );
    expect(asked).toBe(0);
  });

  it("sends no read once the page is ending its session (a sign-out under way), nor after it began", async () => {
    db = openAppDb("rt-ending");
    const server = serverOf([row("g1", 1)]);
    const reads: string[] = [];
    const counted =
      <A extends unknown[], R>(name: string, read: (...args: A) => Promise<R>) =>
      (...args: A) => (reads.push(name), read(...args));
    let ending = false;
    const fetch = () =>
      catchUp(
        db,
        "alice",
        // The sign-out begins while the first read is answered: the reads after it are not sent.
        counted("rows", (...a: Parameters<typeof server.fetchSince>) => ((ending = true), server.fetchSince(...a))),
        counted("flags", server.fetchFlags),
        counted("by id", server.fetchByIds),
        counted("styles", async () => ok([])),
        counted("collections", async () => ok({ collections: [], items: [] })),
        (run, skipped) => (ending ? Promise.resolve(skipped) : run()),
      );
    const report = await fetch();
    expect(reads).toEqual(["rows"]);
    expect(report.errors).toEqual([]);
    reads.length = 0;
    await fetch();
    expect(reads).toEqual([]);
  });

  it("applies a delete by id only to a record of the user's own: an unfiltered DELETE carries anyone's", async () => {
    db = openAppDb("rt-deletes");
    // Bob's record is still on this device from an earlier session; Alice is signed in now.
    await applyServerRows(db, "bob", [row("b1", 1, { user_id: "bob" })]);
    await applyServerRows(db, "alice", [row("g1", 2)]);
    const channel = fakeChannel();
    const errors: unknown[] = [];
    const live = followGenerations(
      { db, subscribe: channel.subscribe, catchUp: async () => undefined, onError: (_w, e) => errors.push(e) },
      "alice",
    );
    // Realtime sends every deleted generation's id to every subscriber: Bob's, a stranger's, Alice's.
    channel.onChange({ type: "delete", id: "b1" });
    channel.onChange({ type: "delete", id: "not-on-this-device" });
    await live.settled();
    expect(await ids()).toEqual(["b1", "g1"]);
    channel.onChange({ type: "delete", id: "g1" });
    await live.settled();
    expect([await ids(), errors]).toEqual([["b1"], []]);
    live.stop();
  });
});

describe("the channel and the connection", () => {
  it("has no channel offline, removes it when the connection goes and makes it again (with a catch-up) when it returns", async () => {
    db = openAppDb(`realtime-offline-${crypto.randomUUID()}`);
    let online = false;
    let opened = 0;
    let closed = 0;
    let status: (s: ChangeFeedStatus) => void = () => undefined;
    let catchUps = 0;
    const live = followGenerations(
      {
        db,
        subscribe: (_userId, _onChange, onStatus) => {
          opened++;
          status = onStatus;
          return () => void closed++;
        },
        catchUp: async () => void catchUps++,
        isOnline: () => online,
      },
      "alice",
    );
    expect(opened).toBe(0); // offline at start: no socket to retry
    online = true;
    live.wake({ on: "online" });
    expect(opened).toBe(1);
    status("SUBSCRIBED");
    await live.settled();
    // The connection's return runs one, and the channel's SUBSCRIBED another (realtime is only a hint).
    expect(catchUps).toBe(2);
    live.wake({ on: "offline" });
    expect(closed).toBe(1);
    live.wake({ on: "online" });
    expect(opened).toBe(2);
    status("SUBSCRIBED");
    await live.settled();
    expect(catchUps).toBe(4);
    live.stop();
    expect(closed).toBe(2);
  });

  it("catches up when the page is shown after a long while hidden, and only online", async () => {
    db = openAppDb(`realtime-visible-${crypto.randomUUID()}`);
    let online = true;
    let catchUps = 0;
    const live = followGenerations(
      { db, subscribe: () => () => undefined, catchUp: async () => void catchUps++, isOnline: () => online },
      "alice",
    );
    live.wake({ on: "visible", hiddenForMs: 5_000 });
    live.wake({ on: "visible", hiddenForMs: 45_000 });
    await live.settled();
    expect(catchUps).toBe(1);
    online = false;
    live.wake({ on: "visible", hiddenForMs: 45_000 });
    await live.settled();
    expect(catchUps).toBe(1);
    live.stop();
  });

  it("makes a failed catch-up again after a backoff until one completes; offline, the connection's return does", async () => {
    db = openAppDb(`realtime-retry-${crypto.randomUUID()}`);
    const clock = simClock();
    let online = true;
    let down = true;
    const server = serverOf([row("g1", 1), row("g2", 2)]);
    const refused = async () => err(appErrorOf("network_error", "the backend is restarting"));
    const tries: number[] = [];
    const live = followGenerations(
      {
        db,
        subscribe: () => () => undefined,
        catchUp: (uid) => {
          tries.push(clock.now());
          const styles = async () => ok([]);
          const collections = async () => ok({ collections: [], items: [] });
          const since = down ? refused : server.fetchSince;
          return catchUp(db, uid, since, server.fetchFlags, server.fetchByIds, styles, collections);
        },
        isOnline: () => online,
        clock,
        random: () => 0.5, // no jitter: 2 s, then 4 s
      },
      "alice",
    );
    await live.catchUp();
    expect(tries).toHaveLength(1);
    await clock.advance(1_999);
    expect(tries).toHaveLength(1);
    await clock.advance(1);
    await live.settled();
    expect(tries).toHaveLength(2);
    // The backend is back: the next try, 4 s later, brings the rows, and no other follows.
    down = false;
    await clock.advance(4_000);
    await live.settled();
    expect(tries).toHaveLength(3);
    expect(await ids()).toEqual(["g1", "g2"]);
    await clock.advance(120_000);
    expect(tries).toHaveLength(3);
    expect(clock.pending()).toBe(0);

    // Failing again offline: no timer; the connection's return catches up.
    down = true;
    await live.catchUp();
    await clock.advance(1_000);
    expect(clock.pending()).toBe(1);
    online = false;
    live.wake({ on: "offline" });
    expect(clock.pending()).toBe(0);
    down = false;
    online = true;
    live.wake({ on: "online" });
    await live.settled();
    expect(tries).toHaveLength(5);
    live.stop();
  });
});
