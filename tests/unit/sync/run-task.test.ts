import { Blob as NodeBlob } from "node:buffer";
import { afterEach, describe, expect, it } from "vitest";
import { generateImage, type InvokeFn } from "#src/api/generate.ts";
import { openAppDb, type AppDb } from "#src/db/db.ts";
import { enqueueTasks, retryTask } from "#src/db/tasks.ts";
import { freshImageUrl, freshShown, lastMade, showingFresh, subscribeMade } from "#src/sync/fresh-images.ts";
import { MAX_ATTEMPTS, runTask, type RunTaskDeps } from "#src/sync/run-task.ts";
import { generationRow, limitsRecord, newTask } from "../../support/records.ts";

const NOW = Date.parse("2026-11-22T10:00:00.000Z");
let db: AppDb;
afterEach(async () => {
  await db?.delete();
});

const row = (id: string) => ({
  ...generationRow(id, "alice", { seed: 42, model: "procedural-v1", created_at: "2026-11-22T10:00:01.000Z" }),
  image_url: `https://backend.test/storage/v1/object/sign/generations/alice/${id}.png?token=x`,
});

const answer = (id: string, replayed = false) => ({
  data: {
    generation: row(id),
    quota: { remaining: 3, daily_limit: 5, reset_at: "2026-11-23T00:00:00.000Z" },
    replayed,
  },
  error: null,
});

/** What supabase-js answers for a non-2xx: a FunctionsHttpError holding the Response. */
const failure = (status: number, body: Record<string, unknown>) => ({
  data: null,
  error: Object.assign(new Error("Edge Function returned a non-2xx status code"), {
    name: "FunctionsHttpError",
    context: new Response(JSON.stringify({ error: body }), { status }),
  }),
});

async function setup(name: string, invoke: InvokeFn, overrides: Partial<RunTaskDeps> = {}) {
  db = openAppDb(name);
  await enqueueTasks(db, [newTask("t1", "alice")], null, NOW - 1000);
  const sent: Record<string, unknown>[] = [];
  const events: { name: string; metadata: Record<string, unknown> }[] = [];
  const deps: RunTaskDeps = {
    db,
    generate: (request) =>
      generateImage(request, async (fn, options) => {
        sent.push({ fn, ...options.body });
        return invoke(fn, options);
      }),
    fetchImage: async () => new NodeBlob([new Uint8Array([1, 2, 3])], { type: "image/png" }) as unknown as Blob,
    track: async (_userId, name, metadata) => void events.push({ name, metadata }),
    refreshSession: async () => false,
    isOnline: () => true,
    now: () => NOW,
    random: () => 0.5,
    ...overrides,
  };
  return { deps, sent, events };
}

describe("runTask", () => {
  it("sends the request id and stores the row, the image and the quota on success", async () => {
    const { deps, sent, events } = await setup("run-ok", async () => answer("t1"));
    const outcome = await runTask(deps, "t1");
    expect(outcome).toMatchObject({ status: "done", generationId: "t1", replayed: false });
    // The task settles with the row; the image is kept right after, off the queue's path.
    expect(outcome.status === "done" && (await outcome.image)).toBe("kept");
    expect(sent).toEqual([
      expect.objectContaining({ fn: "generate-image", request_id: "t1", prompt: "a red fox", aspect_ratio: "1:1" }),
    ]);
    const stored = await db.generations.get("t1");
    expect(stored).toMatchObject({ id: "t1", seed: 42, imagePath: "alice/t1.png" });
    expect((await db.images.get("t1"))?.image?.size).toBe(3);
    expect(await db.tasks.get("t1")).toMatchObject({ status: "done", attempts: 1 });
    expect(await db.limits.get("alice")).toMatchObject({ remaining: 3, dailyLimit: 5, generationsToday: 2 });
    expect(events).toEqual([{ name: "queue_task_success", metadata: { provider: "builtin", taskId: "t1" } }]);
  });

  it("settles a made image whose bytes this device refused, keeping the row and saying so", async () => {
    const { deps } = await setup("run-save-failed", async () => answer("t1"));
    db.images.hook("creating", () => {
      throw new Error("QuotaExceededError");
    });
    const outcome = await runTask(deps, "t1");
    expect(outcome).toMatchObject({ status: "done", generationId: "t1" });
    expect(outcome.status === "done" && (await outcome.image)).toBe("refused");
    expect(await db.generations.get("t1")).toMatchObject({ id: "t1" });
    expect(await db.images.get("t1")).toBeUndefined();
    expect(await db.tasks.get("t1")).toMatchObject({ status: "done" });
  });

  it("settles the task before the image is fetched, and shows the answer's URL until the bytes are kept", async () => {
    let release!: () => void;
    const fetched = new Promise<void>((r) => (release = r));
    const { deps } = await setup("run-early", async () => answer("t1"), {
      fetchImage: async () => {
        await fetched;
        return new NodeBlob([new Uint8Array([1, 2, 3])], { type: "image/png" }) as unknown as Blob;
      },
    });
    const outcome = await runTask(deps, "t1");
    expect(await db.tasks.get("t1")).toMatchObject({ status: "done" });
    expect(await db.generations.get("t1")).toMatchObject({ id: "t1" });
    expect(await db.images.get("t1")).toBeUndefined();
    expect(freshImageUrl("t1", NOW)).toBe(row("t1").image_url);
    expect(lastMade()).toMatchObject({ userId: "alice", record: { id: "t1" }, until: NOW + 5_000 });
    release();
    expect(outcome.status === "done" && (await outcome.image)).toBe("kept");
    expect((await db.images.get("t1"))?.image?.size).toBe(3);
  });

  it("fetches a made image's bytes once a view showing it from the answer's URL has drawn it", async () => {
    const order: string[] = [];
    const { deps } = await setup("run-after-shown", async () => answer("t1"), {
      fetchImage: async () => {
        order.push("fetched");
        return new NodeBlob([new Uint8Array([1, 2, 3])], { type: "image/png" }) as unknown as Blob;
      },
    });
    // The preview takes the announcement and starts drawing the image before the answer is stored.
    const stop = subscribeMade(() => showingFresh(lastMade()!.record.id));
    let outcome: Awaited<ReturnType<typeof runTask>>;
    try {
      outcome = await runTask(deps, "t1");
    } finally {
      stop();
    }
    await new Promise((r) => setTimeout(r, 20));
    expect(order).toEqual([]);
    expect(await db.images.get("t1")).toBeUndefined();
    order.push("drawn");
    freshShown("t1");
    expect(outcome.status === "done" && (await outcome.image)).toBe("kept");
    expect(order).toEqual(["drawn", "fetched"]);
  });

  it("announces the answer's generation to this context's views as the answer arrives", async () => {
    const { deps } = await setup("run-announce", async () => answer("t1"));
    const storedWhenAnnounced: unknown[] = [];
    const stop = subscribeMade(() => {
      // A Dexie read does not settle synchronously; what matters is that the listener ran before runTask
      // returned and saw the answer's record.
      storedWhenAnnounced.push(lastMade()?.record.id);
    });
    const answered: string[] = [];
    try {
      await runTask(deps, "t1", { answered: (id) => answered.push(id) });
    } finally {
      stop();
    }
    expect(storedWhenAnnounced).toEqual(["t1"]);
    expect(answered).toEqual(["t1"]);
  });

  it("keeps nothing for a generation deleted before its image arrived, and says a failed download", async () => {
    let release!: () => void;
    const fetched = new Promise<void>((r) => (release = r));
    const { deps } = await setup("run-deleted-early", async () => answer("t1"), {
      fetchImage: async () => {
        await fetched;
        return new NodeBlob([new Uint8Array([1])], { type: "image/png" }) as unknown as Blob;
      },
    });
    const outcome = await runTask(deps, "t1");
    await db.generations.delete("t1");
    release();
    expect(outcome.status === "done" && (await outcome.image)).toBe("gone");
    expect(await db.images.get("t1")).toBeUndefined();

    await db.tasks.update("t1", { status: "queued" });
    const failing = await runTask({ ...deps, fetchImage: async () => Promise.reject(new Error("reset")) }, "t1");
    expect(failing.status === "done" && (await failing.image)).toBe("unfetched");
    expect(await db.generations.get("t1")).toMatchObject({ id: "t1" });
  });

  it("treats the server's replay of a request that already reached it as the success", async () => {
    const { deps } = await setup("run-replay", async () => answer("t1", true));
    await db.tasks.update("t1", { attempts: 1 });
    expect(await runTask(deps, "t1")).toMatchObject({ status: "done", replayed: true });
    expect(await db.generations.count()).toBe(1);
  });

  it("settles a late retry of an image the person deleted since as done, keeping nothing of it", async () => {
    const { deps } = await setup("run-deleted", async () => ({
      data: {
        deleted: { id: "t1" },
        quota: { remaining: 4, daily_limit: 5, reset_at: "2026-11-23T00:00:00.000Z" },
        replayed: true,
      },
      error: null,
    }));
    expect(await runTask(deps, "t1")).toMatchObject({ status: "done", generationId: "t1", replayed: true });
    expect(await db.generations.get("t1")).toBeUndefined();
    expect(await db.images.get("t1")).toBeUndefined();
    expect(await db.tasks.get("t1")).toMatchObject({ status: "done" });
    expect(await db.limits.get("alice")).toMatchObject({ remaining: 4 });
  });

  it("waits for the connection when offline, without sending", async () => {
    const { deps, sent } = await setup("run-offline", async () => answer("t1"), { isOnline: () => false });
    expect(await runTask(deps, "t1")).toMatchObject({ status: "waiting", wait: { reason: "offline" } });
    expect(sent).toEqual([]);
    expect((await db.tasks.get("t1"))?.status).toBe("queued");
  });

  it("waits for the connection when the send fails and the device went offline", async () => {
    let online = true;
    const { deps } = await setup(
      "run-dropped",
      async () => {
        online = false;
        throw new TypeError("Failed to fetch");
      },
      { isOnline: () => online },
    );
    expect(await runTask(deps, "t1")).toMatchObject({ status: "waiting", wait: { reason: "offline" } });
  });

  it("backs off a rate-limited send for at least the server's retry_after", async () => {
    const { deps } = await setup("run-rate", async () =>
      failure(429, { code: "rate_limit", message: "slow", retry_after: 30 }),
    );
    const outcome = await runTask(deps, "t1");
    expect(outcome).toMatchObject({
      status: "waiting",
      wait: { reason: "backoff", until: new Date(NOW + 30_000).toISOString() },
    });
  });

  it("gives up on server errors after the last attempt and reports the failure", async () => {
    const { deps, events } = await setup("run-cap", async () =>
      failure(500, { code: "server_error", message: "boom" }),
    );
    await db.tasks.update("t1", { attempts: MAX_ATTEMPTS - 1 });
    expect(await runTask(deps, "t1")).toMatchObject({ status: "error", error: { code: "server_error" } });
    expect((await db.tasks.get("t1"))?.error).toEqual({
      code: "server_error",
      message: "Our servers are experiencing issues. Please try again in a moment.",
    });
    expect(events).toEqual([{ name: "queue_task_fail", metadata: { provider: null, taskId: "t1" } }]);
  });

  it("fails a task refused for the daily limit at once, unless the person chose to hold it", async () => {
    const refuse = async () => failure(429, { code: "daily_limit", message: "limit", retry_after: 3600 });
    const { deps, events } = await setup("run-daily", refuse);
    expect(await runTask(deps, "t1")).toMatchObject({ status: "error", error: { code: "daily_limit" } });
    expect(await db.tasks.get("t1")).toMatchObject({ status: "error", error: { code: "daily_limit" } });
    expect(events.map((e) => e.name)).toEqual(["queue_task_fail"]);
    await db.delete();

    const held = await setup("run-daily-held", refuse);
    await db.tasks.update("t1", { wait: { reason: "quota", until: new Date(NOW - 1).toISOString() } });
    expect(await runTask(held.deps, "t1")).toMatchObject({
      status: "waiting",
      wait: { reason: "quota", until: new Date(NOW + 3_600_000).toISOString() },
    });
  });

  const spent = limitsRecord("alice", { remaining: 0, checkedAt: new Date(NOW).toISOString() });

  it("sends nothing beyond today's known quota: the task fails with the daily limit", async () => {
    const { deps, sent } = await setup("run-spent", async () => answer("t1"));
    await db.limits.put(spent);
    expect(await runTask(deps, "t1")).toMatchObject({ status: "error", error: { code: "daily_limit" } });
    expect(sent).toEqual([]);
    expect(await db.tasks.get("t1")).toMatchObject({ status: "error" });
  });

  it("sends a task sent before even with today's quota known spent: its row may be on the server", async () => {
    // The first send reached the server and made the row, but its answer was lost (a tab closed mid-send);
    // meanwhile the device learnt the day is spent. Only the server can tell the free replay.
    const { deps, sent } = await setup("run-spent-sent", async () => answer("t1"));
    await db.tasks.update("t1", { attempts: 1, sent: true });
    await db.limits.put(spent);
    expect(await runTask(deps, "t1")).toMatchObject({ status: "done", generationId: "t1" });
    expect(sent.map((b) => b.request_id)).toEqual(["t1"]);

    // A retry forgets the attempts, not that it was sent: the person's Retry reaches the server too.
    await db.tasks.update("t1", { status: "error", error: { code: "daily_limit", message: "limit" } });
    await retryTask(db, "t1");
    expect(await db.tasks.get("t1")).toMatchObject({ status: "queued", attempts: 0, sent: true });
  });

  it("holds a task for the reset only when the person chose it, without sending it", async () => {
    const { deps, sent } = await setup("run-hold", async () => answer("t1"));
    await db.limits.put(spent);
    // Chosen while the reset had already passed on this clock but the figures were not re-read yet.
    await db.tasks.update("t1", { wait: { reason: "quota", until: new Date(NOW - 1).toISOString() } });
    expect(await runTask(deps, "t1")).toMatchObject({
      status: "waiting",
      wait: { reason: "quota", until: "2026-11-23T00:00:00.000Z" },
    });
    expect(sent).toEqual([]);
  });

  it("renews an expired session once and re-sends; without one it waits for a sign-in", async () => {
    const expired = async () => failure(401, { code: "auth_required", message: "JWT expired" });
    const renewed = await setup("run-auth-renewed", expired, { refreshSession: async () => true });
    expect(await runTask(renewed.deps, "t1")).toMatchObject({ status: "waiting", wait: { reason: "backoff" } });
    await db.delete();
    const lapsed = await setup("run-auth-lapsed", expired);
    expect(await runTask(lapsed.deps, "t1")).toMatchObject({ status: "waiting", wait: { reason: "auth" } });
    expect((await db.tasks.get("t1"))?.status).toBe("queued");
  });

  it("fails a refused prompt with the catalogue's message", async () => {
    const { deps, events } = await setup("run-nsfw", async () => failure(422, { code: "nsfw_content", message: "no" }));
    expect(await runTask(deps, "t1")).toMatchObject({ status: "error", error: { code: "nsfw_content" } });
    expect((await db.tasks.get("t1"))?.error?.message).toBe(
      "Your prompt contains restricted content. Please modify it.",
    );
    expect(events.map((e) => e.name)).toEqual(["queue_task_fail"]);
  });

  it("a refused prompt fails once and is never sent again: its task is failed, not waiting", async () => {
    const { deps, sent } = await setup("run-nsfw-final", async () =>
      failure(422, { code: "nsfw_content", message: "Your prompt contains restricted content. Please modify it." }),
    );
    expect(await runTask(deps, "t1")).toMatchObject({ status: "error", error: { code: "nsfw_content" } });
    const failed = await db.tasks.get("t1");
    expect(failed).toMatchObject({ status: "error", attempts: 1 });
    expect(failed?.wait).toBeUndefined();
    // Whatever asks again later (the queue's next look, a reconnect, an hour on), nothing is sent.
    for (const later of [0, 60_000, 3_600_000]) {
      expect(await runTask({ ...deps, now: () => NOW + later }, "t1")).toEqual({ status: "skipped", taskId: "t1" });
    }
    expect(sent).toHaveLength(1);
  });

  it("skips a task removed before it was sent", async () => {
    const { deps, sent } = await setup("run-removed", async () => answer("t1"));
    await db.tasks.delete("t1");
    expect(await runTask(deps, "t1")).toEqual({ status: "skipped", taskId: "t1" });
    expect(sent).toEqual([]);
  });
});
