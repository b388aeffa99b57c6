// delete-account through the real local backend with supabase-js, as the account page calls it: a
// person who made images with generate-image (built-in engine) and recorded preferences, events and
// vitals deletes their account; then they cannot sign in, no row of any table and no stored object of
// theirs remains, and another person's data is untouched. Also GoTrue's admin delete, which only the
// service role may call. On PGlite and on real Postgres.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import { FunctionsHttpError } from "@supabase/supabase-js";
import { beforeAll, expect, it } from "vitest";
import { clientsFor, describeOnBackends, people } from "../support/backend-suite.ts";
import { BUILTIN_ONLY } from "../support/backend.ts";
import { anonClient, newUser, type NewUser, publish } from "../support/clients.ts";
import { PERSONAL_TABLES } from "../support/personal-tables.ts";

const BUCKET = "generations";
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 4, 5, 6]);

describeOnBackends(
  "delete-account on $title",
  { prefix: "pc_delete_account", env: BUILTIN_ONLY },
  (backend, { skip }) => {
    const { server } = clientsFor(backend);
    const [leaving, staying] = people(backend, "leaving", "staying");
    let stayingImage: { id: string; image_path: string };
    let answer: Record<string, unknown>;

    async function generate(user: NewUser, prompt: string) {
      const { data, error } = await user.client.functions.invoke("generate-image", {
        body: { request_id: randomUUID(), prompt, style: "anime", quality: "standard", aspect_ratio: "1:1" },
      });
      expect(error).toBeNull();
      return data.generation as { id: string; image_path: string };
    }

    async function rowsOf(userId: string): Promise<Record<string, number>> {
      const out: Record<string, number> = {};
      for (const table of PERSONAL_TABLES) {
        const { count, error } = await server
          .from(table)
          .select("*", { count: "exact", head: true })
          .eq("user_id", userId);
        expect(error, table).toBeNull();
        out[table] = count ?? -1;
      }
      return out;
    }

    beforeAll(async () => {
      if (skip) return;

      const made = [await generate(leaving, "a fox in the snow"), await generate(leaving, "a city of glass")];
      await publish(leaving, made[0].id);
      // An image a client uploaded in a sub-folder before uploads became the server's alone.
      const legacy = await server.storage
        .from(BUCKET)
        .upload(`${leaving.id}/album/legacy.png`, new Blob([PNG], { type: "image/png" }));
      expect(legacy.error).toBeNull();
      await leaving.client.from("user_preferences").update({ default_style: "anime" }).eq("user_id", leaving.id);
      expect((await leaving.client.from("app_events").insert({ name: "account.viewed" })).error).toBeNull();
      expect((await leaving.client.from("web_vitals").insert({ name: "LCP", value: 1800 })).error).toBeNull();
      // A reservation of a generation that never finished: server-only, and still the person's row.
      const held = await server.rpc("quota_reserve", { p_user_id: leaving.id, p_request_id: randomUUID() });
      expect(held.error).toBeNull();
      // A style of their own, and a plan bought through the Stripe stand-in (a customer and a subscription).
      const style = { id: randomUUID(), user_id: leaving.id, name: "Moody film", prompt: "35mm film" };
      expect((await server.from("custom_styles").insert(style)).error).toBeNull();
      // A collection of their own holding one of their images, added as the app adds it.
      const collection = { id: randomUUID(), user_id: leaving.id, name: "Foxes", filter: null };
      expect((await leaving.client.from("collections").upsert(collection, { onConflict: "id" })).error).toBeNull();
      const item = { collection_id: collection.id, generation_id: made[1].id, user_id: leaving.id };
      const added = await leaving.client
        .from("collection_items")
        .upsert([item], { onConflict: "collection_id,generation_id", ignoreDuplicates: true });
      expect(added.error).toBeNull();
      const started = await leaving.client.functions.invoke("billing", {
        body: { action: "checkout", plan: "creator" },
      });
      expect(started.error).toBeNull();
      const card = new URLSearchParams({ number: "4242 4242 4242 4242", exp: "12 / 34", cvc: "123" });
      await (await fetch(`${started.data.url}/pay`, { method: "POST", body: card, redirect: "manual" })).text();
      expect((await leaving.client.functions.invoke("billing", { body: { action: "sync" } })).error).toBeNull();

      stayingImage = await generate(staying, "a windmill at noon");
      await publish(staying, stayingImage.id);
      expect((await staying.client.from("app_events").insert({ name: "account.viewed" })).error).toBeNull();

      const before = await rowsOf(leaving.id);
      expect(
        Object.values(before).every((n) => n >= 1),
        JSON.stringify(before),
      ).toBe(true);

      const { data, error } = await leaving.client.functions.invoke("delete-account");
      expect(error).toBeNull();
      answer = data;
    }, 120_000);

    it.skipIf(skip)("answers that the account and its three images are gone", () => {
      expect(answer).toEqual({ deleted: true, user_id: leaving.id, images_removed: 3, already_deleted: false });
    });

    it.skipIf(skip)("makes signing in fail with invalid credentials", async () => {
      const { data, error } = await anonClient(backend).auth.signInWithPassword({
        email: leaving.email,
        password: leaving.password,
      });
      expect(data.session).toBeNull();
      expect(error).toMatchObject({ status: 400, code: "invalid_credentials" });
    });

    it.skipIf(skip)("leaves no row of the person in any table", async () => {
      expect(await rowsOf(leaving.id)).toEqual(Object.fromEntries(PERSONAL_TABLES.map((t) => [t, 0])));
    });

    it.skipIf(skip)("leaves no stored object under the person's folder", async () => {
      const top = await server.storage.from(BUCKET).list(leaving.id, { limit: 1000 });
      expect(top).toMatchObject({ error: null, data: [] });
      const album = await server.storage.from(BUCKET).list(`${leaving.id}/album`);
      expect(album.data).toEqual([]);
      expect(existsSync(join(backend.dataDir, "storage", BUCKET, leaving.id))).toBe(false);
    });

    it.skipIf(skip)("leaves another person's rows, images and published item intact", async () => {
      const rows = await rowsOf(staying.id);
      expect(rows).toMatchObject({ generations: 1, user_preferences: 1, user_daily_limits: 1, app_events: 1 });
      const own = await staying.client.storage.from(BUCKET).download(stayingImage.image_path);
      expect(own.error).toBeNull();
      const visitor = await anonClient(backend).storage.from(BUCKET).download(stayingImage.image_path);
      expect(visitor.error).toBeNull();
      const signIn = await anonClient(backend).auth.signInWithPassword({
        email: staying.email,
        password: staying.password,
      });
      expect(signIn.error).toBeNull();
    });

    it.skipIf(skip)("answers a repeated request with the same success", async () => {
      const { data, error } = await leaving.client.functions.invoke("delete-account");
      expect(error).toBeNull();
      expect(data).toEqual({ deleted: true, user_id: leaving.id, images_removed: 0, already_deleted: true });
    });

    it.skipIf(skip)("refuses a caller who is not signed in, with auth_required", async () => {
      const { data, error } = await anonClient(backend).functions.invoke("delete-account");
      expect(data).toBeNull();
      expect(error).toBeInstanceOf(FunctionsHttpError);
      const res = (error as FunctionsHttpError).context as Response;
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({
        error: { code: "auth_required", message: "Please sign in to delete your account", retryable: false },
      });
    });

    it.skipIf(skip)("lets only the service role delete a user through the admin API", async () => {
      const target = await newUser(backend, "target");
      const url = `${backend.url}/auth/v1/admin/users/${target.id}`;
      const userToken = (await staying.client.auth.getSession()).data.session!.access_token;
      for (const token of [userToken, backend.anonKey]) {
        const res = await fetch(url, {
          method: "DELETE",
          headers: { apikey: backend.anonKey, Authorization: `Bearer ${token}` },
        });
        expect(res.status).toBe(403);
        expect(await res.json()).toMatchObject({ code: "not_admin" });
      }
      const noToken = await fetch(url, { method: "DELETE", headers: { apikey: backend.anonKey } });
      expect(noToken.status).toBe(401);
      expect((await rowsOf(target.id)).user_preferences).toBe(1);

      const deleted = await server.auth.admin.deleteUser(target.id);
      expect(deleted.error).toBeNull();
      expect((await rowsOf(target.id)).user_preferences).toBe(0);
      const again = await server.auth.admin.deleteUser(target.id);
      expect(again.error).toMatchObject({ status: 404, code: "user_not_found" });
      const signIn = await anonClient(backend).auth.signInWithPassword({
        email: target.email,
        password: target.password,
      });
      expect(signIn.error).toMatchObject({ code: "invalid_credentials" });
    });
  },
);
