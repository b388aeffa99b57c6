import { afterEach, describe, expect, it } from "vitest";
import { openAppDb, type AppDb } from "#src/db/db.ts";
import { enqueueTasks } from "#src/db/tasks.ts";
import { finishedUnit, notificationsWanted, oncePerUnit } from "#src/sync/queue/finished-work.ts";
import { newTask } from "../../../support/records.ts";

let db: AppDb;
afterEach(async () => {
  await db?.delete();
});

const settle = (id: string, status: "done" | "error") => db.tasks.update(id, { status });

describe("finished work", () => {
  it("announces a batch once its last task has settled, with what became of each", async () => {
    db = openAppDb("finished-batch");
    const batch = ["a", "b", "c"].map((id) => newTask(id, "alice", { batchId: "B", prompt: "three boats" }));
    await enqueueTasks(db, batch, null);
    await settle("a", "done");
    expect(await finishedUnit(db, "a")).toBeNull();
    await settle("b", "error");
    await settle("c", "done");
    const unit = await finishedUnit(db, "c");
    expect(unit).toMatchObject({
      key: "B",
      batch: true,
      done: 2,
      failed: 1,
      title: "Batch finished: 2 ready, 1 failed",
    });
    const once = oncePerUnit();
    expect(once(unit!)).toBe(true);
    expect(once((await finishedUnit(db, "b"))!)).toBe(false);
  });

  it("knows a batch is not over when the queue went on to one of its tasks, with no read", async () => {
    db = openAppDb("finished-following");
    const batch = ["a", "b"].map((id) => newTask(id, "alice", { batchId: "B" }));
    await enqueueTasks(db, batch, null);
    await settle("a", "done");
    await settle("b", "done");
    const a = (await db.tasks.get("a"))!;
    // Read as a whole, the batch is over; told the queue went on to one of its tasks, it is not asked.
    expect(await finishedUnit(db, a)).toMatchObject({ key: "B", done: 2 });
    expect(await finishedUnit(db, a, { batchId: "B" })).toBeNull();
    expect(await finishedUnit(db, a, { batchId: "other" })).toMatchObject({ key: "B", done: 2 });
  });

  it("announces a task queued alone when it settles", async () => {
    db = openAppDb("finished-single");
    await enqueueTasks(db, [newTask("t", "alice")], null);
    expect(await finishedUnit(db, "t")).toBeNull();
    await settle("t", "error");
    expect(await finishedUnit(db, "t")).toMatchObject({
      key: "t",
      batch: false,
      title: "Your image could not be generated",
    });
  });

  it("honours notifications_enabled (on by default)", async () => {
    db = openAppDb("finished-prefs");
    expect(await notificationsWanted(db, "alice")).toBe(true);
    await db.preferences.put({ userId: "alice", notificationsEnabled: false } as never);
    expect(await notificationsWanted(db, "alice")).toBe(false);
  });
});
