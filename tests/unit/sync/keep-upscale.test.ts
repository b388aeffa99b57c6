// "Keep in library" on the device (decision 158): the kept upscale is a record, its bytes and one
// "upscale.keep" outbox entry carrying the file, written together; the drain sends it once the server may
// hear it; the original gone on the server makes it a listed conflict and takes the record away here.
import { Blob as NodeBlob } from "node:buffer";
import { afterEach, describe, expect, it } from "vitest";
import type { KeepUpscalePayload } from "#src/api/keep-upscale.ts";
import { appErrorOf } from "#src/api/errors.ts";
import { openAppDb, type AppDb } from "#src/db/db.ts";
import { toGenerationRecord } from "#src/db/generation-record.ts";
import { reconcileGenerations } from "#src/db/library.ts";
import { pendingEntries } from "#src/db/outbox.ts";
import { listConflicts } from "#src/db/queries.ts";
import { keepUpscale } from "#src/features/upscale/keep-upscale.ts";
import { err, ok } from "#src/lib/result.ts";
import { drainOutbox, type PushDeps } from "#src/sync/push.ts";
import { generationRow } from "../../support/records.ts";

const NOW = Date.parse("2026-11-27T01:00:00.000Z");
let db: AppDb;
afterEach(async () => {
  await db?.delete();
});

async function withOriginal() {
  db = openAppDb(`keep-${Math.random()}`);
  const original = toGenerationRecord(generationRow("orig", "alice", { width: 64, height: 48, seed: 7 }));
  await db.generations.put(original);
  return original;
}

/** The drain's dependencies, where only keep-upscale may be called. */
function deps(keep: PushDeps["keepUpscale"]): PushDeps {
  const never = () => Promise.reject(new Error("not this call"));
  return {
    db,
    updateFlags: never,
    publishGeneration: never,
    deleteGeneration: never,
    upsertPreferences: never,
    keepUpscale: keep,
    refreshSession: async () => false,
    isOnline: () => true,
    now: () => NOW,
    random: () => 0.5,
  };
}

/** Node's own Blob: IndexedDB (fake-indexeddb) clones it as a browser's does; jsdom's is not cloneable. */
const webp = () => new NodeBlob([new Uint8Array([1, 2, 3, 4])], { type: "image/webp" }) as unknown as Blob;

describe("keep in library", () => {
  it("writes the linked record, its bytes and one entry with the file at once, and the drain sends it", async () => {
    const original = await withOriginal();
    const id = await keepUpscale(db, original, { image: webp(), width: 128, height: 96 }, 2, NOW);

    const kept = await db.generations.get(id);
    expect(kept).toMatchObject({
      userId: "alice",
      prompt: original.prompt,
      seed: 7,
      width: 128,
      height: 96,
      imagePath: `alice/${id}.webp`,
      isPublic: 0,
      isSaved: 0,
      variation: { of: "orig", kind: "upscale-2x" },
    });
    expect((await db.images.get(id))?.image?.size).toBe(4);
    const [entry] = await pendingEntries(db, "alice");
    expect(entry.kind).toBe("upscale.keep");
    const payload = entry.payload as KeepUpscalePayload;
    expect([payload.generationId, payload.originalId, payload.scale, payload.image.size]).toEqual([id, "orig", 2, 4]);

    const sent: KeepUpscalePayload[] = [];
    const report = await drainOutbox(
      deps(async (p) => (sent.push(p), ok({ found: true }))),
      "alice",
    );
    expect(report).toEqual({ sent: 1, conflicts: 0, stopped: { reason: "empty" } });
    expect(sent.map((p) => [p.generationId, p.originalId, p.scale, p.image.type])).toEqual([
      [id, "orig", 2, "image/webp"],
    ]);
    expect(await db.generations.get(id)).toBeDefined();
    expect(await pendingEntries(db, "alice")).toEqual([]);
  });

  it("an original gone on the server makes it a listed conflict, and the kept record and bytes go", async () => {
    const original = await withOriginal();
    const id = await keepUpscale(db, original, { image: webp(), width: 256, height: 192 }, 4, NOW);
    expect((await db.generations.get(id))?.variation?.kind).toBe("upscale-4x");
    const report = await drainOutbox(
      deps(async () => ok({ found: false })),
      "alice",
    );
    expect(report.conflicts).toBe(1);
    expect(await db.generations.get(id)).toBeUndefined();
    expect(await db.images.get(id)).toBeUndefined();
    expect((await listConflicts("alice", db)).map((c) => [c.kind, c.conflict?.reason])).toEqual([
      ["upscale.keep", "gone"],
    ]);
  });

  it("a server failure keeps the entry and the record for a later drain", async () => {
    const original = await withOriginal();
    const id = await keepUpscale(db, original, { image: webp(), width: 128, height: 96 }, 2, NOW);
    const failing = deps(async () => err({ kind: "transient", error: appErrorOf("server_error") }));
    const report = await drainOutbox(failing, "alice");
    expect(report.stopped.reason).toBe("backoff");
    expect(await db.generations.get(id)).toBeDefined();
    expect(await pendingEntries(db, "alice")).toHaveLength(1);
  });

  it("a pull's reconcile leaves a kept upscale the server has not stored yet, and removes it once it is no entry", async () => {
    const original = await withOriginal();
    const id = await keepUpscale(db, original, { image: webp(), width: 128, height: 96 }, 2, NOW);
    const server = new Map([["orig", { isSaved: false, isPublic: false }]]);
    const later = "2026-11-27T02:00:00.000Z";
    expect(await reconcileGenerations(db, "alice", server, later)).toMatchObject({ removed: 0 });
    expect(await db.generations.get(id)).toBeDefined();
    await db.outbox.clear();
    expect(await reconcileGenerations(db, "alice", server, later)).toMatchObject({ removed: 1 });
    expect(await db.generations.get(id)).toBeUndefined();
  });
});
