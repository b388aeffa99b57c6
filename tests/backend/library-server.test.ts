// The library's server side through the real supabase-js client against the local backend, on PGlite
// and on PostgreSQL: only generate-image makes generations (a client's upload into the bucket and its
// insert into generations are refused, however fast it tries), and a person can still publish, save
// and delete what the server made, including the stored image, which a visitor then cannot load.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import { castFor, describeOnBackends } from "../support/backend-suite.ts";
import { BUILTIN_ONLY } from "../support/backend.ts";
import { newUser, type NewUser, publish } from "../support/clients.ts";

const BUCKET = "generations";
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const RLS_MESSAGE = "new row violates row-level security policy";

/** A published-looking row as an attacker would forge it, pointing at their own upload. */
function forgedRow(userId: string) {
  const id = randomUUID();
  return {
    id,
    user_id: userId,
    prompt: "anything at all",
    provider: "builtin",
    model: "builtin-procedural-v1",
    image_path: `${userId}/${id}.png`,
    is_public: true,
  };
}

describeOnBackends(
  "the library's server side on $title",
  { prefix: "pc_library", env: BUILTIN_ONLY },
  (backend, { skip }) => {
    const { owner, stranger, anon, server } = castFor(backend);

    async function generate(user: NewUser, prompt: string): Promise<{ id: string; image_path: string }> {
      const { data, error } = await user.client.functions.invoke("generate-image", {
        body: { request_id: randomUUID(), prompt, style: "watercolor", quality: "standard", aspect_ratio: "1:1" },
      });
      expect(error).toBeNull();
      return data.generation;
    }

    const objectsOf = async (userId: string) =>
      ((await server.storage.from(BUCKET).list(userId, { limit: 1000 })).data ?? []).map((o) => o.name);

    it.skipIf(skip)("refuses a client's upload into its own folder of the bucket, and stores nothing", async () => {
      const store = owner.client.storage.from(BUCKET);
      const path = `${owner.id}/${randomUUID()}.png`;
      const multipart = await store.upload(path, new Blob([PNG], { type: "image/png" }));
      expect(multipart.error).toMatchObject({ status: 400, statusCode: "403", message: RLS_MESSAGE });
      const raw = await store.upload(path, Buffer.from(PNG), { contentType: "image/png" });
      expect(raw.error).toMatchObject({ statusCode: "403", message: RLS_MESSAGE });
      const upsert = await store.upload(path, new Blob([PNG], { type: "image/png" }), { upsert: true });
      expect(upsert.error).toMatchObject({ statusCode: "403" });
      expect(await objectsOf(owner.id)).not.toContain(path.split("/")[1]);
      expect(existsSync(join(backend.dataDir, "storage", BUCKET, path))).toBe(false);
    });

    it.skipIf(skip)("refuses a client's replacement of an image the server stored", async () => {
      const made = await generate(owner, "a quiet harbour at dawn");
      const before = await owner.client.storage.from(BUCKET).download(made.image_path);
      const update = await owner.client.storage
        .from(BUCKET)
        .update(made.image_path, new Blob([PNG], { type: "image/png" }));
      expect(update.error).not.toBeNull();
      const after = await owner.client.storage.from(BUCKET).download(made.image_path);
      expect(Buffer.from(await after.data!.arrayBuffer())).toEqual(Buffer.from(await before.data!.arrayBuffer()));
    });

    it.skipIf(skip)("refuses a client's insert into generations with 42501, published or not", async () => {
      for (const row of [forgedRow(owner.id), { ...forgedRow(owner.id), is_public: false }]) {
        const { error, status } = await owner.client.from("generations").insert(row);
        expect(status).toBe(403);
        expect(error?.code).toBe("42501");
      }
      const { error: byAnon } = await anon.from("generations").insert(forgedRow(owner.id));
      expect(byAnon?.code).toBe("42501");
    });

    it.skipIf(skip)("refuses all of 50 uploads and 50 published rows a new user fires within a second", async () => {
      const attacker = await newUser(backend, "flood");
      const started = Date.now();
      const attempts = await Promise.all(
        Array.from({ length: 50 }, async () => {
          const row = forgedRow(attacker.id);
          const up = await attacker.client.storage
            .from(BUCKET)
            .upload(row.image_path, new Blob([PNG], { type: "image/png" }));
          const ins = await attacker.client.from("generations").insert(row);
          return { upload: up.error, insert: ins.error };
        }),
      );
      const elapsedMs = Date.now() - started;
      console.info(`50 upload + insert attempts answered in ${elapsedMs} ms`);
      for (const a of attempts) {
        expect(a.upload).toMatchObject({ statusCode: "403", message: RLS_MESSAGE });
        expect(a.insert?.code).toBe("42501");
      }
      const { count } = await server
        .from("generations")
        .select("id", { count: "exact", head: true })
        .eq("user_id", attacker.id);
      expect(count).toBe(0);
      expect(await objectsOf(attacker.id)).toEqual([]);
      const { data: gallery } = await anon.from("generations").select("id").eq("user_id", attacker.id);
      expect(gallery).toEqual([]);
    });

    it.skipIf(skip)(
      "lets the owner publish (through the server), save, read and delete what the server made",
      async () => {
        const made = await generate(owner, "a lantern in the fog");
        const mine = owner.client.from("generations");
        const patched = await mine.update({ is_public: true }).eq("id", made.id);
        expect(patched.error?.code, "an owner's patch cannot publish").toBe("42501");
        await publish(owner, made.id);
        const flags = await mine.update({ is_saved: true }).eq("id", made.id).select("is_public, is_saved");
        expect(flags).toMatchObject({ error: null, data: [{ is_public: true, is_saved: true }] });
        const { data: visible } = await anon.from("generations").select("id").eq("id", made.id);
        expect(visible).toEqual([{ id: made.id }]);
        const edit = await owner.client.from("generations").update({ prompt: "rewritten" }).eq("id", made.id);
        expect(edit.error?.code).toBe("42501");
        const gone = await owner.client.from("generations").delete().eq("id", made.id).select("id");
        expect(gone).toMatchObject({ error: null, data: [{ id: made.id }] });
      },
    );

    it.skipIf(skip)(
      "deletes a published generation row then its image: the visitor loses the image, the file is gone",
      async () => {
        const made = await generate(owner, "a red kite over the dunes");
        await publish(owner, made.id);
        const seen = await anon.storage.from(BUCKET).download(made.image_path);
        expect(seen.error).toBeNull();
        const signed = await server.storage.from(BUCKET).createSignedUrl(made.image_path, 600);

        // The order the client uses: the row first (the gallery drops it at once), then the object,
        // which the owner may still remove because the delete policy follows the folder, not the row.
        const row = await owner.client.from("generations").delete().eq("id", made.id).eq("user_id", owner.id);
        expect(row.error).toBeNull();
        expect((await anon.storage.from(BUCKET).download(made.image_path)).error).toMatchObject({ statusCode: "404" });
        expect((await stranger.client.storage.from(BUCKET).remove([made.image_path])).data).toEqual([]);

        const removed = await owner.client.storage.from(BUCKET).remove([made.image_path]);
        expect(removed.error).toBeNull();
        expect(removed.data!.map((o) => o.name)).toEqual([made.image_path]);
        expect((await owner.client.storage.from(BUCKET).download(made.image_path)).error).toMatchObject({
          statusCode: "404",
        });
        expect((await fetch(signed.data!.signedUrl)).status).not.toBe(200);
        expect(existsSync(join(backend.dataDir, "storage", BUCKET, made.image_path))).toBe(false);

        // Both steps are idempotent, so an outbox entry replayed after a lost answer changes nothing.
        const again = await owner.client.storage.from(BUCKET).remove([made.image_path]);
        expect(again).toMatchObject({ error: null, data: [] });
        const rowAgain = await owner.client.from("generations").delete().eq("id", made.id);
        expect(rowAgain.error).toBeNull();
      },
      60_000,
    );

    it.skipIf(skip)("keeps a stranger from removing the owner's image or row", async () => {
      const made = await generate(owner, "a paper boat on a canal");
      expect((await stranger.client.storage.from(BUCKET).remove([made.image_path])).data).toEqual([]);
      expect((await stranger.client.from("generations").delete().eq("id", made.id).select("id")).data).toEqual([]);
      expect((await owner.client.storage.from(BUCKET).download(made.image_path)).error).toBeNull();
      expect((await owner.client.from("generations").select("id").eq("id", made.id)).data).toEqual([{ id: made.id }]);
    });
  },
);
