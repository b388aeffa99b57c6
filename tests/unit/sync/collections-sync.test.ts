// Collections between the device and the server (decision 157): the drain sends each kind through the
// backend calls to a stand-in of PostgREST that answers as the tables do (an add whose collection or image is
// gone is moot; a full collection is a listed conflict with the server's words), the catch-up reads both
// tables whole (paged) under the writes still waiting, realtime applies changes of the person's own, and a
// task queued to "Add new results to" a collection puts its image there when it is recorded.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { CollectionItemRow, CollectionRow } from "#shared/vocabulary/collections.ts";

/** The server's rows of the stand-in, and the requests it was sent. */
const server = {
  generations: new Set<string>(),
  collections: new Map<string, CollectionRow>(),
  items: new Map<string, CollectionItemRow>(),
  requests: [] as string[],
};
const itemKey = (r: Pick<CollectionItemRow, "collection_id" | "generation_id">) =>
  `${r.collection_id}/${r.generation_id}`;

type Step = { op: string; args: unknown[] };

/** What PostgREST answers a built query, from the stand-in's tables. */
function answer(table: string, steps: Step[]) {
  const op = steps.find((s) => ["upsert", "delete", "select"].includes(s.op))!;
  const arg = (name: string) => steps.filter((s) => s.op === name).map((s) => s.args);
  server.requests.push(`${table} ${op.op}`);
  if (op.op === "select") {
    const [[from, to]] = arg("range") as [[number, number]];
    const rows = table === "collections" ? [...server.collections.values()] : [...server.items.values()];
    return { data: rows.slice(from, to + 1), error: null, status: 200 };
  }
  if (op.op === "delete") {
    const eq = Object.fromEntries(arg("eq") as [string, string][]);
    const among = (arg("in")[0]?.[1] as string[] | undefined) ?? null;
    if (table === "collections") server.collections.delete(eq.id);
    for (const [k, i] of server.items) {
      if (i.collection_id === eq.collection_id && (!among || among.includes(i.generation_id))) server.items.delete(k);
    }
    return { data: null, error: null, status: 204 };
  }
  if (table === "collections") {
    const row = op.args[0] as CollectionRow;
    server.collections.set(row.id, { ...row, created_at: "2026-11-27T00:00:00Z", updated_at: "2026-11-27T00:00:00Z" });
    return { data: null, error: null, status: 201 };
  }
  const rows = op.args[0] as CollectionItemRow[];
  if (rows.some((r) => !server.collections.has(r.collection_id) || !server.generations.has(r.generation_id))) {
    return { data: null, error: { code: "23503", message: "violates foreign key constraint" }, status: 409 };
  }
  const fresh = rows.filter((r) => !server.items.has(itemKey(r)));
  if (fresh.length + server.items.size > 3) {
    return { data: null, error: { code: "P0001", message: "A collection can hold at most 3 images" }, status: 400 };
  }
  for (const r of fresh) server.items.set(itemKey(r), r);
  return { data: null, error: null, status: 201 };
}

/** A supabase-js query builder: every call is recorded, and awaiting it answers. */
function query(table: string) {
  const steps: Step[] = [];
  const builder: Record<string, unknown> = {
    then: (resolve: (v: unknown) => void, reject: (e: unknown) => void) => {
      try {
        resolve(answer(table, steps));
      } catch (e) {
        reject(e);
      }
    },
  };
  for (const op of ["upsert", "delete", "select", "eq", "in", "order", "range"]) {
    builder[op] = (...args: unknown[]) => (steps.push({ op, args }), builder);
  }
  return builder;
}

vi.mock("#src/api/client.ts", () => ({ supabase: () => ({ from: query }) }));

const { openAppDb } = await import("#src/db/db.ts");
const collections = await import("#src/db/collections.ts");
const { applyServerRows } = await import("#src/db/library.ts");
const { pendingEntries } = await import("#src/db/outbox.ts");
const { listConflicts } = await import("#src/db/queries.ts");
const { enqueueTasks } = await import("#src/db/tasks.ts");
const { ok } = await import("#src/lib/result.ts");
const { drainOutbox } = await import("#src/sync/push.ts");
const { pullCollections } = await import("#src/sync/pull.ts");
const { applyChange } = await import("#src/sync/realtime.ts");
const { claimOf, runTask } = await import("#src/sync/run-task.ts");
const { generationRow, newTask } = await import("../../support/records.ts");
type AppDb = import("#src/db/db.ts").AppDb;
type PushDeps = import("#src/sync/push.ts").PushDeps;
type RunTaskDeps = import("#src/sync/run-task.ts").RunTaskDeps;

const { addToCollection, deleteCollection, listCollections, removeFromCollection, saveCollection } = collections;

let db: AppDb;
afterEach(async () => {
  await db?.delete();
  server.generations.clear();
  server.collections.clear();
  server.items.clear();
  server.requests.length = 0;
});

const NOW = Date.parse("2026-11-27T12:00:00.000Z");

async function made(name: string, filter: { saved: boolean } | null = null) {
  const r = await saveCollection("alice", { name, filter }, undefined, db, NOW);
  if (!r.ok) throw new Error(r.message);
  return r.collection;
}

/** The person's images, on the device and the server. */
async function images(...ids: string[]) {
  await applyServerRows(
    db,
    "alice",
    ids.map((id) => generationRow(id, "alice")),
  );
  for (const id of ids) server.generations.add(id);
}

const drain = () =>
  drainOutbox(
    {
      db,
      refreshSession: async () => false,
      isOnline: () => true,
      now: () => NOW,
      random: () => 0.5,
    } as unknown as PushDeps,
    "alice",
  );

const row = (id: string, name: string, user_id = "alice"): CollectionRow => ({
  id,
  user_id,
  name,
  filter: null,
  created_at: "2026-11-26T10:00:00.000Z",
  updated_at: "2026-11-26T10:00:00.000Z",
});
const item = (collection_id: string, generation_id: string, user_id = "alice"): CollectionItemRow => ({
  collection_id,
  generation_id,
  user_id,
  added_at: "2026-11-26T10:00:00.000Z",
});
const itemsHeld = async () =>
  (await db.collectionItems.toArray()).map((i) => `${i.collectionId}/${i.generationId}`).sort();

describe("the drain", () => {
  it("sends saves, adds, removes and deletes in order, with the device's moment as added_at", async () => {
    db = openAppDb("coll-drain");
    await images("g1", "g2");
    const trips = await made("Trips");
    const other = await made("Other");
    await addToCollection("alice", trips.id, ["g1", "g2"], db, NOW);
    await removeFromCollection("alice", trips.id, ["g2"], db);
    await deleteCollection("alice", other.id, db);
    expect(await drain()).toMatchObject({ sent: 4, conflicts: 0, stopped: { reason: "empty" } });
    expect(server.requests).toEqual([
      "collections upsert",
      "collection_items upsert",
      "collection_items delete",
      "collections delete",
    ]);
    expect([...server.collections.values()].map((c) => [c.name, c.filter])).toEqual([["Trips", null]]);
    expect([...server.items.values()]).toEqual([
      { collection_id: trips.id, generation_id: "g1", user_id: "alice", added_at: new Date(NOW).toISOString() },
    ]);
  });

  it("counts an add whose collection or image is gone on the server as done, adding what is still there", async () => {
    db = openAppDb("coll-moot");
    await images("g1", "g2");
    const trips = await made("Trips");
    const gone = await made("Gone elsewhere");
    expect((await drain()).sent).toBe(2);
    server.collections.delete(gone.id);
    server.generations.delete("g2");
    await addToCollection("alice", gone.id, ["g1"], db, NOW);
    await addToCollection("alice", trips.id, ["g1", "g2"], db, NOW);
    expect(await drain()).toMatchObject({ sent: 2, conflicts: 0 });
    expect([...server.items.keys()]).toEqual([`${trips.id}/g1`]);
    expect(await pendingEntries(db, "alice")).toEqual([]);
  });

  it("lists a refusal for a limit as a conflict with the server's words", async () => {
    db = openAppDb("coll-full");
    await images("g1", "g2", "g3", "g4");
    const trips = await made("Trips");
    await addToCollection("alice", trips.id, ["g1", "g2", "g3", "g4"], db, NOW);
    expect(await drain()).toMatchObject({ sent: 1, conflicts: 1 });
    const [conflict] = await listConflicts("alice", db);
    expect([conflict.kind, conflict.conflict?.reason, conflict.conflict?.message]).toEqual([
      "collection.add",
      "rejected",
      "A collection can hold at most 3 images",
    ]);
  });
});

describe("the catch-up", () => {
  it("reads both tables whole, page by page, under the writes still waiting", async () => {
    db = openAppDb("coll-catch-up");
    await images("g1", "g2");
    // Held here from an earlier pull: one since deleted elsewhere, one renamed, one whose item went.
    await collections.applyServerCollections(db, "alice", [row("c-gone", "Gone"), row("c-kept", "Kept")]);
    await collections.applyServerItems(db, "alice", [item("c-kept", "g1"), item("c-kept", "g2")]);
    const pending = await made("Made offline");
    await addToCollection("alice", pending.id, ["g1"], db, NOW);
    await removeFromCollection("alice", "c-kept", ["g1"], db);
    server.collections.set("c-kept", row("c-kept", "Renamed elsewhere"));
    server.collections.set("c-new", row("c-new", "Made elsewhere"));
    server.items.set("c-kept/g1", item("c-kept", "g1"));
    // 1,000 rows a page: a person's 1,000 items of another collection make a second page.
    for (let i = 0; i < 1000; i++) server.items.set(`c-new/x${i}`, item("c-new", `x${i}`));
    expect(await pullCollections(db, "alice")).toEqual({});
    expect(server.requests.filter((r) => r === "collection_items select")).toHaveLength(2);
    expect((await listCollections("alice", db)).map((c) => [c.id === pending.id ? "pending" : c.id, c.name])).toEqual([
      ["c-new", "Made elsewhere"],
      ["pending", "Made offline"],
      ["c-kept", "Renamed elsewhere"],
    ]);
    const held = await itemsHeld();
    // c-kept/g1 is being removed here and c-kept/g2 went elsewhere; the pending add stays.
    expect(held.filter((k) => !k.startsWith("c-new/"))).toEqual([`${pending.id}/g1`]);
    expect(held).toHaveLength(1001);
    // Nothing new on the server: the next catch-up writes nothing, so the live views are not read again.
    const putCollections = vi.spyOn(db.collections, "bulkPut");
    const putItems = vi.spyOn(db.collectionItems, "bulkPut");
    expect(await pullCollections(db, "alice")).toEqual({});
    expect([putCollections.mock.calls, putItems.mock.calls]).toEqual([[], []]);
    expect(await itemsHeld()).toEqual(held);
    // One renamed elsewhere is the one written.
    server.collections.set("c-new", { ...server.collections.get("c-new")!, name: "Renamed again" });
    expect(await pullCollections(db, "alice")).toEqual({});
    expect(putCollections.mock.calls.map(([rows]) => rows.map((r) => r.name))).toEqual([["Renamed again"]]);
    expect(putItems).not.toHaveBeenCalled();
  });

  it("does not bring back a collection this device is deleting, nor its items", async () => {
    db = openAppDb("coll-catch-up-delete");
    const doomed = await made("Doomed");
    server.collections.set(doomed.id, row(doomed.id, "Doomed"));
    server.items.set(`${doomed.id}/g1`, item(doomed.id, "g1"));
    await deleteCollection("alice", doomed.id, db);
    await pullCollections(db, "alice", async () =>
      ok({ collections: [...server.collections.values()], items: [...server.items.values()] }),
    );
    expect([await listCollections("alice", db), await itemsHeld()]).toEqual([[], []]);
  });
});

describe("realtime", () => {
  it("applies changes of the person's own, under the writes still waiting", async () => {
    db = openAppDb("coll-realtime");
    const mine = await made("Mine");
    await applyChange(db, "alice", { type: "collection.upsert", row: row("c1", "From elsewhere") });
    await applyChange(db, "alice", { type: "collection.upsert", row: row("b1", "Bob's", "bob") });
    await applyChange(db, "alice", { type: "collection.upsert", row: row(mine.id, "Older copy") });
    expect((await listCollections("alice", db)).map((c) => c.name)).toEqual(["From elsewhere", "Mine"]);
    await applyChange(db, "alice", { type: "item.upsert", row: item("c1", "g1") });
    await applyChange(db, "alice", { type: "item.upsert", row: item("c1", "b9", "bob") });
    expect(await itemsHeld()).toEqual(["c1/g1"]);
    // Deletes arrive for anyone's rows as their keys: applied only to the person's own.
    await db.collectionItems.put({ collectionId: "b1", generationId: "b9", userId: "bob", addedAt: "" });
    await applyChange(db, "alice", { type: "item.delete", collectionId: "b1", generationId: "b9" });
    await applyChange(db, "alice", { type: "item.delete", collectionId: "c1", generationId: "g1" });
    expect(await itemsHeld()).toEqual(["b1/b9"]);
    await applyChange(db, "alice", { type: "collection.delete", id: mine.id });
    await applyChange(db, "alice", { type: "item.upsert", row: item("c1", "g2") });
    await applyChange(db, "alice", { type: "collection.delete", id: "c1" });
    expect((await listCollections("alice", db)).map((c) => c.name)).toEqual(["Mine"]);
    expect(await itemsHeld()).toEqual(["b1/b9"]);
  });

  it("keeps an image this device is adding when its removal elsewhere arrives", async () => {
    db = openAppDb("coll-realtime-pending");
    await images("g1");
    const mine = await made("Mine");
    await addToCollection("alice", mine.id, ["g1"], db, NOW);
    await applyChange(db, "alice", { type: "item.delete", collectionId: mine.id, generationId: "g1" });
    expect(await itemsHeld()).toEqual([`${mine.id}/g1`]);
  });
});

describe("'Add new results to'", () => {
  const answerFor = (id: string) => ({
    generation: { ...generationRow(id, "alice"), image_url: `https://backend.test/${id}.png` },
    quota: { remaining: 3, daily_limit: 5, reset_at: "2026-11-28T00:00:00.000Z" },
    replayed: false,
  });
  const runDeps = (): RunTaskDeps => ({
    db,
    generate: async (request) => ok(answerFor(request.requestId)),
    fetchImage: async () => Promise.reject(new Error("offline")),
    track: async () => undefined,
    refreshSession: async () => false,
    isOnline: () => true,
    now: () => NOW,
    random: () => 0.5,
  });

  it("puts a task's image into its collection when it is recorded, and skips a collection deleted meanwhile", async () => {
    db = openAppDb("coll-results");
    const trips = await made("Trips");
    const gone = await made("Gone");
    await enqueueTasks(
      db,
      [newTask("t1", "alice", { collectionId: trips.id }), newTask("t2", "alice", { collectionId: gone.id })],
      null,
      NOW,
    );
    await deleteCollection("alice", gone.id, db);
    // The queue claims its next task in the transaction that stores an answer: t2 is sent from t1's.
    const deps = runDeps();
    // As the queue claims it there (queue-runner.ts, take): read in that transaction, written as running.
    const next = async () => {
      const claim = claimOf(deps, await db.tasks.get("t2"), await db.limits.get("alice"));
      if (claim.kind !== "claimed") return undefined;
      await db.tasks.put(claim.task);
      return claim;
    };
    const first = await runTask(deps, "t1", { next });
    expect(first).toMatchObject({ status: "done", generationId: "t1", next: { task: { id: "t2" } } });
    const second = first.status === "done" ? await first.next?.sending : undefined;
    expect(second).toMatchObject({ status: "done", generationId: "t2" });
    expect(await itemsHeld()).toEqual([`${trips.id}/t1`]);
    expect((await db.generations.get("t2"))?.id).toBe("t2");
    expect((await pendingEntries(db, "alice")).map((e) => e.kind)).toEqual([
      "collection.save",
      "collection.delete",
      "collection.add",
    ]);
  });
});
