// The library's backend calls through the real supabase-js client against the local backend: a
// delete drained from the outbox removes the row and the stored image (Storage API), a stranger
// can delete neither, a publish drained from the outbox goes through publish-generation's checks, and
// the gallery's full-text search finds published rows only.
import "fake-indexeddb/auto";
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { setBackendClient } from "#src/api/client.ts";
import { getPublished, listPublished, loadPublishedImage } from "#src/api/gallery.ts";
import { deleteGeneration as deleteOnServer } from "#src/api/library.ts";
import { openAppDb } from "#src/db/db.ts";
import { toGenerationRecord } from "#src/db/generation-record.ts";
import { deleteGeneration, setPublished } from "#src/db/library.ts";
import { listConflicts, pendingOutboxCount } from "#src/db/queries.ts";
import { drainOutbox, pushDeps } from "#src/sync/push.ts";
import type { GenerationRow } from "#shared/vocabulary/rows.ts";
import { clientsFor, people, useBackend } from "../support/backend-suite.ts";
import { anonClient } from "../support/clients.ts";
import { png } from "../support/png.ts";

const BUCKET = "generations";
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

const backend = useBackend();
const { server: service } = clientsFor(backend);
const [owner, stranger] = people(backend, "owner", "stranger");

/** A generation as generate-image makes it: the object in the owner's folder and the row. */
async function makeGeneration(userId: string, prompt: string, isPublic = false): Promise<GenerationRow> {
  const id = randomUUID();
  const path = `${userId}/${id}.png`;
  const upload = await service.storage.from(BUCKET).upload(path, PNG, { contentType: "image/png" });
  if (upload.error) throw upload.error;
  const { data, error } = await service
    .from("generations")
    .insert({
      id,
      user_id: userId,
      prompt,
      style: "anime",
      provider: "builtin",
      model: "builtin-procedural-v1",
      image_path: path,
      is_public: isPublic,
    })
    .select("*")
    .single();
  if (error) throw error;
  return data as GenerationRow;
}

async function objectExists(path: string): Promise<boolean> {
  const { data } = await service.storage.from(BUCKET).download(path);
  return data !== null;
}

async function rowExists(id: string): Promise<boolean> {
  const { data } = await service.from("generations").select("id").eq("id", id);
  return (data ?? []).length === 1;
}

describe("library on the local backend", () => {
  it("a stranger can delete neither the row nor the image", async () => {
    const g = await makeGeneration(owner.id, "a quiet harbour at noon");
    setBackendClient(stranger.client);
    expect(await deleteOnServer(g.id)).toEqual({ ok: true, value: { rowDeleted: false } });
    // Naming the owner's image path is refused outright: it is not in the stranger's folder.
    const byPath = await deleteOnServer(g.id, g.image_path);
    expect(byPath.ok ? null : [byPath.error.kind, byPath.error.error.code]).toEqual(["rejected", "invalid_input"]);
    expect(await rowExists(g.id)).toBe(true);
    expect(await objectExists(g.image_path)).toBe(true);
  });

  it("a delete drained from the outbox removes the row and the stored image, and a replay is harmless", async () => {
    const g = await makeGeneration(owner.id, "a paper boat on a pond", true);
    const db = openAppDb(`backend-library-${g.id}`);
    try {
      await db.generations.put(toGenerationRecord(g));
      expect(await deleteGeneration(owner.id, g.id, db)).toBe(true);
      setBackendClient(owner.client);
      const report = await drainOutbox(pushDeps(db), owner.id);
      expect(report).toEqual({ sent: 1, conflicts: 0, stopped: { reason: "empty" } });
      expect(await pendingOutboxCount(owner.id, db)).toBe(0);
      expect(await rowExists(g.id)).toBe(false);
      expect(await objectExists(g.image_path)).toBe(false);
      // The same delete again (an interrupted drain re-sends it) succeeds and changes nothing.
      expect(await deleteOnServer(g.id, g.image_path)).toEqual({ ok: true, value: { rowDeleted: false } });
    } finally {
      await db.delete();
    }
  });

  it("a publish drained from the outbox goes through publish-generation; its refusal is one conflict, the row unpublished here", async () => {
    const [passes, held] = await Promise.all(
      ["a teal kite over a bay", "a teal boat at anchor"].map((prompt) => makeGeneration(owner.id, prompt)),
    );
    // Real pictures, so the image check reads them; the second's kept scores are explicit (as if flagged before).
    const picture = png(64, 64, (x, y) => [x * 4, y * 4, 128]);
    for (const g of [passes, held]) {
      const put = await service.storage.from(BUCKET).update(g.image_path, picture, { contentType: "image/png" });
      if (put.error) throw put.error;
    }
    const explicit = { Drawing: 0.02, Hentai: 0.08, Neutral: 0.05, Porn: 0.8, Sexy: 0.05 };
    await service.from("generations").update({ moderation_scores: explicit }).eq("id", held.id);
    const db = openAppDb(`backend-library-publish-${passes.id}`);
    try {
      await db.generations.bulkPut([toGenerationRecord(passes), toGenerationRecord(held)]);
      expect(await setPublished(owner.id, passes.id, true, db)).toBe(true);
      expect(await setPublished(owner.id, held.id, true, db)).toBe(true);
      setBackendClient(owner.client);
      expect(await drainOutbox(pushDeps(db), owner.id)).toEqual({
        sent: 1,
        conflicts: 1,
        stopped: { reason: "empty" },
      });
      const { data } = await service.from("generations").select("id,is_public,flagged_at,moderation_scores");
      const byId = new Map((data ?? []).map((r) => [r.id, r]));
      expect(byId.get(passes.id)).toMatchObject({ is_public: true, flagged_at: null });
      expect(Object.keys(byId.get(passes.id)!.moderation_scores).sort()).toEqual([
        "Drawing",
        "Hentai",
        "Neutral",
        "Porn",
        "Sexy",
      ]);
      expect(byId.get(held.id)).toMatchObject({ is_public: false });
      expect(byId.get(held.id)!.flagged_at).not.toBeNull();
      expect((await db.generations.get(held.id))?.isPublic).toBe(0);
      expect((await db.generations.get(passes.id))?.isPublic).toBe(1);
      const [conflict] = await listConflicts(owner.id, db);
      expect(conflict.conflict).toMatchObject({ reason: "rejected", code: "nsfw_content" });
      expect(conflict.conflict?.message).toMatch(/image check/);
      // Nothing is left to send: the refusal is final.
      expect(await drainOutbox(pushDeps(db), owner.id)).toEqual({
        sent: 0,
        conflicts: 0,
        stopped: { reason: "empty" },
      });
    } finally {
      await db.delete();
    }
  });

  it("a delete whose row went before its image (a cut request) removes the image when sent again", async () => {
    const g = await makeGeneration(owner.id, "a kite over dunes", true);
    await service.from("generations").delete().eq("id", g.id);
    expect(await objectExists(g.image_path)).toBe(true);
    setBackendClient(owner.client);
    expect(await deleteOnServer(g.id, g.image_path)).toEqual({ ok: true, value: { rowDeleted: false } });
    expect(await objectExists(g.image_path)).toBe(false);
  });

  it("the gallery finds a published row by a prompt word, not an unpublished one, and its image loads", async () => {
    const published = await makeGeneration(owner.id, "A crimson lighthouse above stormy waves", true);
    const hidden = await makeGeneration(owner.id, "A crimson lantern in a private garden", false);
    setBackendClient(anonClient(backend));

    const page = await listPublished({ q: "crimson", limit: 10 });
    if (!page.ok) throw new Error(page.error.detail);
    expect(page.value.rows.map((r) => r.id)).toEqual([published.id]);
    const image = await loadPublishedImage(page.value.rows[0].image_path);
    expect(image.ok && [...new Uint8Array(await image.value.arrayBuffer())]).toEqual([...PNG]);
    // Stemmed words match too ("lighthouses" → lighthouse), and a word of the hidden row finds nothing.
    const stemmed = await listPublished({ q: "lighthouses", limit: 10 });
    expect(stemmed.ok && stemmed.value.rows.map((r) => r.id)).toEqual([published.id]);
    const none = await listPublished({ q: "lantern", limit: 10 });
    expect(none.ok && none.value.rows).toEqual([]);
    expect(await getPublished(hidden.id)).toEqual({ ok: true, value: null });
    const one = await getPublished(published.id);
    expect(one.ok && one.value?.id).toBe(published.id);
  });

  it("the gallery pages newest first with a cursor, never repeating or skipping a row", async () => {
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await makeGeneration(owner.id, `pagination marker tile ${i}`, true)).id);
    setBackendClient(anonClient(backend));
    const seen: string[] = [];
    let before: string | undefined;
    for (;;) {
      const page = await listPublished({ q: "pagination marker", before, limit: 2 });
      if (!page.ok) throw new Error(page.error.detail);
      seen.push(...page.value.rows.map((r) => r.id));
      if (!page.value.next) break;
      before = page.value.next;
    }
    expect(seen).toEqual([...made].reverse());
  });
});
