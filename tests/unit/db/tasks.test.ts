import { Blob as NodeBlob } from "node:buffer";
import { afterEach, describe, expect, it } from "vitest";
import { Dexie } from "dexie";
import { openAppDb, type AppDb } from "#src/db/db.ts";
import { listPromptHistory, listTasks } from "#src/db/queries.ts";
import { defineSchema, type GenerationRecord } from "#src/db/schema.ts";
import {
  enqueueTasks,
  markDone,
  markFailed,
  markDrawn,
  markRunning,
  markWaiting,
  recoverInterrupted,
  releaseWaits,
  retryTask,
  runningRecord,
} from "#src/db/tasks.ts";
import { limitsRecord, newTask } from "../../support/records.ts";

let db: AppDb;
afterEach(async () => {
  await db?.delete();
});

const task = (id: string, userId = "alice") => newTask(id, userId);

const generation = (id: string): GenerationRecord => ({
  id,
  userId: "alice",
  prompt: "a red fox",
  negativePrompt: "",
  style: "anime",
  quality: "standard",
  aspectRatio: "1:1",
  width: 1024,
  height: 1024,
  seed: 7,
  provider: "builtin",
  model: "procedural",
  imagePath: `alice/${id}.png`,
  isPublic: 0,
  isSaved: 0,
  createdAt: "2026-11-22T10:00:00.000Z",
});

// jsdom's Blob cannot cross fake-indexeddb's structured clone; the browser's (like Node's) can.
const png = () => new NodeBlob([new Uint8Array([137, 80, 78, 71])], { type: "image/png" }) as unknown as Blob;

describe("tasks", () => {
  it("queues a batch in order and records its prompt in the same transaction", async () => {
    db = openAppDb("tasks-enqueue");
    await enqueueTasks(db, [task("t1"), task("t2"), task("t3")], {
      prompt: "a red fox",
      style: "anime",
      quality: "standard",
    });
    const tasks = await listTasks("alice", db);
    expect(tasks.map((t) => [t.id, t.status, t.attempts])).toEqual([
      ["t1", "queued", 0],
      ["t2", "queued", 0],
      ["t3", "queued", 0],
    ]);
    expect((await listPromptHistory("alice", db)).map((p) => p.prompt)).toEqual(["a red fox"]);
  });

  it("writes nothing when the batch cannot be stored", async () => {
    db = openAppDb("tasks-atomic");
    await enqueueTasks(db, [task("t1")], null);
    await expect(
      enqueueTasks(db, [task("t2"), task("t1")], { prompt: "never", style: "anime", quality: "standard" }),
    ).rejects.toThrow();
    expect((await listTasks("alice", db)).map((t) => t.id)).toEqual(["t1"]);
    expect(await listPromptHistory("alice", db)).toEqual([]);
  });

  it("lets a plan pick its tasks from the limits its own transaction reads; a plan of none writes nothing", async () => {
    db = openAppDb("tasks-plan");
    const limits = limitsRecord("alice", { dailyLimit: 10, remaining: 0, resetAt: "2026-11-26T00:00:00.000Z" });
    await db.limits.put(limits);
    const seen: (number | undefined)[] = [];
    const prompt = { prompt: "a red fox", style: "anime", quality: "standard" as const };
    const refused = await enqueueTasks(
      db,
      { userId: "alice", pick: (l) => (seen.push(l?.remaining), l && l.remaining > 0 ? [task("t1")] : []) },
      prompt,
    );
    expect(refused).toEqual([]);
    expect(await listTasks("alice", db)).toEqual([]);
    expect(await listPromptHistory("alice", db)).toEqual([]);

    await db.limits.put({ ...limits, generationsToday: 0, remaining: 10 });
    const queued = await enqueueTasks(
      db,
      { userId: "alice", pick: (l) => (seen.push(l?.remaining), l && l.remaining > 0 ? [task("t1")] : []) },
      prompt,
    );
    expect(queued).toEqual(["t1"]);
    expect(seen).toEqual([0, 10]);
    expect((await listTasks("alice", db)).map((t) => t.id)).toEqual(["t1"]);
    expect((await listPromptHistory("alice", db)).map((p) => p.prompt)).toEqual(["a red fox"]);
  });

  it("hands its claim the queued tasks oldest first, the new among them, and writes what it claims as running", async () => {
    db = openAppDb("tasks-enqueue-claim");
    const NOW = Date.parse("2026-11-26T10:00:00.000Z");
    await enqueueTasks(db, [task("old"), task("bob's", "bob")], null, NOW - 60_000);
    await db.limits.put(limitsRecord("alice", { remaining: 7 }));
    let seen: { ids: string[]; remaining?: number } | undefined;
    // Claims the two oldest, as the queue does within a concurrency of two.
    const ids = await enqueueTasks(db, [task("n1"), task("n2")], null, NOW, (queued, limits) => {
      seen = { ids: queued.map((t) => t.id), remaining: limits?.remaining };
      return queued.slice(0, 2).map((t) => runningRecord(t, NOW));
    });
    expect(ids).toEqual(["n1", "n2"]);
    expect(seen).toEqual({ ids: ["old", "n1", "n2"], remaining: 7 });
    expect((await listTasks("alice", db)).map((t) => [t.id, t.status, t.attempts, t.sent ?? false])).toEqual([
      ["old", "running", 1, true],
      ["n1", "running", 1, true],
      ["n2", "queued", 0, false],
    ]);
    expect((await db.tasks.get("bob's"))?.status).toBe("queued");
  });

  it("claims a queued task once and counts the attempt", async () => {
    db = openAppDb("tasks-claim");
    await enqueueTasks(db, [task("t1")], null);
    await markWaiting(db, "t1", { reason: "offline" });
    const running = await markRunning(db, "t1");
    expect(running).toMatchObject({ status: "running", attempts: 1 });
    expect(running?.wait).toBeUndefined();
    expect(await markRunning(db, "t1")).toBeUndefined();
    expect(await markRunning(db, "missing")).toBeUndefined();
    // Given the record a transaction read, it claims that record without reading it again, and only a queued one.
    await enqueueTasks(db, [task("t2")], null);
    const read = (await db.tasks.get("t2"))!;
    expect(await markRunning(db, { ...read, status: "running" })).toBeUndefined();
    expect(await markRunning(db, read)).toMatchObject({ id: "t2", status: "running", attempts: 1, sent: true });
    expect(await db.tasks.get("t2")).toMatchObject({ status: "running", attempts: 1 });
  });

  it("marks only a running task drawn, and a task that runs again is not drawn", async () => {
    db = openAppDb("tasks-drawn");
    await enqueueTasks(db, [task("t1"), task("t2")], null);
    await markDrawn(db, "t2");
    expect((await db.tasks.get("t2"))?.drawnAt).toBeUndefined();
    await markRunning(db, "t1");
    await markDrawn(db, "t1", Date.parse("2026-11-26T00:00:00.000Z"));
    expect((await db.tasks.get("t1"))?.drawnAt).toBe("2026-11-26T00:00:00.000Z");
    // Its answer was a failure after drawn: queued again, then claimed again.
    await markWaiting(db, "t1", { reason: "backoff", until: new Date(0).toISOString() });
    expect((await markRunning(db, "t1"))?.drawnAt).toBeUndefined();
    expect((await db.tasks.get("t1"))?.drawnAt).toBeUndefined();
  });

  it("stores the generation with its image and finishes the task together", async () => {
    db = openAppDb("tasks-done");
    await enqueueTasks(db, [task("t1")], null);
    await markRunning(db, "t1");
    await markDone(db, "t1", generation("t1"), null, Date.now(), { image: png() });
    expect(await db.generations.get("t1")).toMatchObject({ id: "t1", prompt: "a red fox" });
    const stored = await db.images.get("t1");
    expect(stored).toMatchObject({ id: "t1", userId: "alice" });
    expect(new Uint8Array(await stored!.image!.arrayBuffer())).toEqual(new Uint8Array([137, 80, 78, 71]));
    expect(stored!.thumbnail).toBeUndefined();
    expect(await db.tasks.get("t1")).toMatchObject({
      status: "done",
      provider: "builtin",
      resultUrl: "/storage/v1/object/authenticated/generations/alice/t1.png",
      params: { width: 1024, height: 1024, model: "procedural" },
    });
    expect((await listTasks("alice", db)).map((t) => [t.id, t.status])).toEqual([["t1", "done"]]);
  });

  it("rolls the task back with the row when the write fails", async () => {
    db = openAppDb("tasks-done-atomic");
    await enqueueTasks(db, [task("t1")], null);
    await markRunning(db, "t1");
    const broken = { ...generation("t1"), id: undefined as unknown as string };
    await expect(markDone(db, "t1", broken, null)).rejects.toThrow();
    expect(await db.tasks.get("t1")).toMatchObject({ status: "running" });
  });

  it("recovers interrupted sends and re-queues a failed task for retry with the same id", async () => {
    db = openAppDb("tasks-recover");
    await enqueueTasks(db, [task("t1"), task("t2"), task("t3", "bob")], null);
    await markRunning(db, "t1");
    await markRunning(db, "t3");
    await markRunning(db, "t2");
    await markFailed(db, "t2", { code: "nsfw_content", message: "Refused" });
    expect(await recoverInterrupted(db, "alice")).toBe(1);
    expect((await db.tasks.get("t1"))?.status).toBe("queued");
    expect((await db.tasks.get("t3"))?.status).toBe("running");
    await retryTask(db, "t2");
    const retried = await db.tasks.get("t2");
    expect(retried).toMatchObject({ id: "t2", status: "queued", attempts: 0 });
    expect(retried?.error).toBeUndefined();
  });

  it("lifts only the waits of the given reason", async () => {
    db = openAppDb("tasks-release");
    await enqueueTasks(db, [task("t1"), task("t2")], null);
    await markWaiting(db, "t1", { reason: "auth" });
    await markWaiting(db, "t2", { reason: "quota", until: "2026-11-23T00:00:00.000Z" });
    await releaseWaits(db, "alice", "auth");
    expect((await db.tasks.get("t1"))?.wait).toBeUndefined();
    expect((await db.tasks.get("t2"))?.wait?.reason).toBe("quota");
  });

  it("gives a version 5 database's tasks their params, a done one its model and resultUrl, and generations NSFWContent false", async () => {
    const name = "tasks-upgrade-6";
    const old = new Dexie(name);
    defineSchema(old, 5);
    const { params: _dropped, ...v5 } = newTask("t1", "alice", { aspectRatio: "16:9" });
    const at = "2026-11-22T10:00:00.000Z";
    await old.table("tasks").bulkPut([
      { ...v5, status: "done", attempts: 1, createdAt: at, updatedAt: at },
      { ...v5, id: "t2", status: "queued", attempts: 0, createdAt: at, updatedAt: at },
    ]);
    await old.table("generations").put(generation("t1"));
    old.close();
    db = openAppDb(name);
    expect(await db.tasks.get("t1")).toMatchObject({
      params: { width: 1536, height: 1024, model: "procedural" },
      resultUrl: "/storage/v1/object/authenticated/generations/alice/t1.png",
    });
    expect((await db.generations.get("t1"))?.NSFWContent).toBe(false);
    const queued = await db.tasks.get("t2");
    expect(queued?.params).toEqual({ width: 1536, height: 1024 });
    expect(queued?.resultUrl).toBeUndefined();
  });
});
