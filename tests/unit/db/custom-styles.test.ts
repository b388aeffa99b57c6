// Custom styles on the device (decision 152): writes go to Dexie and the outbox together, server rows land
// under the writes still waiting, the catch-up's whole list removes what the server no longer has, and the
// drain sends each entry as an upsert or a delete (a refusal below premium becomes a listed conflict).
import { afterEach, describe, expect, it } from "vitest";
import type { CustomStyleRow } from "#shared/vocabulary/custom-styles.ts";
import { openAppDb, type AppDb } from "#src/db/db.ts";
import {
  applyServerStyleDelete,
  applyServerStyles,
  deleteCustomStyle,
  listCustomStyles,
  reconcileStyles,
  saveCustomStyle,
  type CustomStyleDraft,
} from "#src/db/custom-styles.ts";
import { pendingEntries } from "#src/db/outbox.ts";
import { listConflicts } from "#src/db/queries.ts";
import type { CustomStyleRecord } from "#src/db/schema.ts";
import { appErrorOf } from "#src/api/errors.ts";
import { err, ok } from "#src/lib/result.ts";
import { drainOutbox, type PushDeps } from "#src/sync/push.ts";

let db: AppDb;
afterEach(async () => {
  await db?.delete();
});

const DRAFT: CustomStyleDraft = {
  name: " Moody film ",
  prompt: "35mm film, teal and orange",
  negativePrompt: "",
  baseStyle: "photorealistic",
  quality: "high",
  aspectRatio: "16:9",
  preview: null,
};

const rowOf = (id: string, over: Partial<CustomStyleRow> = {}): CustomStyleRow => ({
  id,
  user_id: "alice",
  name: "From the server",
  prompt: "ink wash",
  negative_prompt: "",
  base_style: "watercolor",
  quality: "standard",
  aspect_ratio: "1:1",
  preview: null,
  created_at: "2026-11-26T10:00:00.000Z",
  updated_at: "2026-11-26T10:00:00.000Z",
  ...over,
});

async function made(name = "Moody film"): Promise<CustomStyleRecord> {
  const r = await saveCustomStyle("alice", { ...DRAFT, name }, undefined, db);
  if (!r.ok) throw new Error(r.message);
  return r.style;
}

describe("custom styles on the device", () => {
  it("are made, renamed and deleted here at once, each with its outbox entry", async () => {
    db = openAppDb("styles-writes");
    const style = await made();
    expect(style.name).toBe("Moody film");
    const renamed = await saveCustomStyle("alice", { ...DRAFT, name: "Film" }, style.id, db);
    expect(renamed.ok && renamed.style.createdAt).toBe(style.createdAt);
    expect((await listCustomStyles("alice", db)).map((s) => s.name)).toEqual(["Film"]);
    expect(await deleteCustomStyle("alice", style.id, db)).toBe(true);
    expect(await listCustomStyles("alice", db)).toEqual([]);
    // The saves of a deleted style are dropped: only its delete is left to send.
    expect((await pendingEntries(db, "alice")).map((e) => [e.kind, e.payload])).toEqual([
      ["style.delete", { styleId: style.id }],
    ]);
  });

  it("refuse what the server would refuse, and a style another person holds", async () => {
    db = openAppDb("styles-invalid");
    expect(await saveCustomStyle("alice", { ...DRAFT, name: "  " }, undefined, db)).toEqual({
      ok: false,
      message: "Give the style a name",
    });
    expect(await saveCustomStyle("alice", { ...DRAFT, prompt: "w".repeat(201) }, undefined, db)).toMatchObject({
      ok: false,
    });
    expect(await saveCustomStyle("alice", { ...DRAFT, baseStyle: "nope" }, undefined, db)).toMatchObject({
      ok: false,
    });
    const bobs = await saveCustomStyle("bob", DRAFT, undefined, db);
    expect(bobs.ok && (await saveCustomStyle("alice", DRAFT, bobs.style.id, db))).toMatchObject({ ok: false });
    expect(bobs.ok && (await deleteCustomStyle("alice", bobs.style.id, db))).toBe(false);
    expect(await pendingEntries(db, "alice")).toEqual([]);
  });

  it("take server rows under the writes still waiting", async () => {
    db = openAppDb("styles-overlay");
    const mine = await made();
    await applyServerStyles(db, "alice", [
      rowOf(mine.id, { name: "Older copy" }),
      rowOf("s2"),
      rowOf("b1", { user_id: "bob" }),
    ]);
    expect((await listCustomStyles("alice", db)).map((s) => s.name)).toEqual(["From the server", "Moody film"]);
    expect(await db.customStyles.get("b1")).toBeUndefined();
    // A delete from elsewhere goes, unless this device is saving that style.
    expect(await applyServerStyleDelete(db, "alice", mine.id)).toBe(false);
    expect(await applyServerStyleDelete(db, "alice", "s2")).toBe(true);
    expect((await listCustomStyles("alice", db)).map((s) => s.id)).toEqual([mine.id]);
  });

  it("catch up with the server's whole list: what it no longer has goes, unless still being saved", async () => {
    db = openAppDb("styles-reconcile");
    await applyServerStyles(db, "alice", [rowOf("gone"), rowOf("kept")]);
    const pending = await made("Pending");
    await reconcileStyles(db, "alice", [rowOf("kept", { name: "Renamed elsewhere" }), rowOf("new")]);
    expect((await listCustomStyles("alice", db)).map((s) => [s.id, s.name])).toEqual([
      ["new", "From the server"],
      [pending.id, "Pending"],
      ["kept", "Renamed elsewhere"],
    ]);
  });

  it("are sent by the drain as upserts and deletes, and a refusal is a listed conflict", async () => {
    db = openAppDb("styles-drain");
    const sent: string[] = [];
    let refuse = false;
    const deps = {
      db,
      upsertStyle: (s: CustomStyleRecord) => {
        if (refuse)
          return Promise.resolve(err({ kind: "rejected" as const, error: appErrorOf("invalid_input", "rls") }));
        sent.push(`save ${s.name}`);
        return Promise.resolve(ok(null));
      },
      deleteStyle: (id: string) => {
        sent.push(`delete ${id}`);
        return Promise.resolve(ok(null));
      },
      refreshSession: () => Promise.resolve(false),
      isOnline: () => true,
      now: () => Date.now(),
      random: () => 0.5,
    } as unknown as PushDeps;
    const style = await made();
    await deleteCustomStyle("alice", (await made("Other")).id, db);
    expect((await drainOutbox(deps, "alice")).sent).toBe(2);
    expect(sent).toEqual(["save Moody film", expect.stringMatching(/^delete /)]);
    refuse = true;
    await saveCustomStyle("alice", { ...DRAFT, name: "Renamed" }, style.id, db);
    expect((await drainOutbox(deps, "alice")).conflicts).toBe(1);
    expect((await listConflicts("alice", db)).map((e) => e.kind)).toEqual(["style.save"]);
  });
});
