// Only the server makes generations (migration 20261122000100_restrict_generation_writes): what a client
// keeps and what it lost, as anon, owner, stranger and service role; and what goes when an account goes.
import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import { describeDb, sqlState, type TestUser, usersOf } from "../support/db.ts";
import { PERSONAL_TABLES } from "../support/personal-tables.ts";
import { generationFor, insertAs, rowCount } from "./fixtures.ts";

describeDb("writes of generations after the server-only migration", (ctx) => {
  const [owner, stranger] = usersOf(ctx, 2);

  const storeImage = (name: string) =>
    ctx.db.run(
      "service",
      `insert into storage.objects (bucket_id, name, metadata) values ('generations', $1, '{"mimetype":"image/png"}')`,
      [name],
    );
  // Read as the Storage API reads for a download: with `storage.operation` set, as the bucket's policy asks.
  const imageVisible = async (actor: "anon" | TestUser, name: string) =>
    ctx.db.as(actor, async (tx) => {
      await tx.query("select set_config('storage.operation', 'storage.object.get_authenticated', true)");
      const rows = await tx.query("select 1 from storage.objects where bucket_id = 'generations' and name = $1", [
        name,
      ]);
      return rows.length === 1;
    });

  it("leaves clients the read, update and delete policies on generations, and no insert", async () => {
    const policies = await ctx.db.query<{ cmd: string }>(
      "select cmd from pg_policies where schemaname = 'public' and tablename = 'generations' order by cmd",
    );
    expect(policies.map((p) => p.cmd)).toEqual(["DELETE", "SELECT", "UPDATE"]);
    const [grants] = await ctx.db.query(
      `select has_table_privilege('authenticated', 'public.generations', 'INSERT') as table_insert,
              has_any_column_privilege('authenticated', 'public.generations', 'INSERT') as column_insert,
              has_table_privilege('anon', 'public.generations', 'INSERT') as anon_insert,
              has_column_privilege('authenticated', 'public.generations', 'is_public', 'UPDATE') as publish,
              has_table_privilege('authenticated', 'public.generations', 'DELETE') as remove,
              has_table_privilege('service_role', 'public.generations', 'INSERT') as server_insert`,
    );
    expect(grants).toEqual({
      table_insert: false,
      column_insert: false,
      anon_insert: false,
      publish: true,
      remove: true,
      server_insert: true,
    });
  });

  it("leaves clients the read and owner-delete policies on the bucket, and no upload or replace", async () => {
    const policies = await ctx.db.query<{ cmd: string }>(
      `select cmd from pg_policies where schemaname = 'storage' and tablename = 'objects'
         and (coalesce(qual, '') || coalesce(with_check, '')) like '%generations%' order by cmd`,
    );
    expect(policies.map((p) => p.cmd)).toEqual(["DELETE", "SELECT"]);
  });

  it("refuses 50 published rows a new user tries to insert at once, and stores none", async () => {
    const fresh = await ctx.db.createUser();
    const rows = Array.from({ length: 50 }, () => generationFor(fresh, { is_public: true }));
    const states = await Promise.all(rows.map((r) => sqlState(insertAs(ctx.db, fresh, "generations", r))));
    expect(new Set(states)).toEqual(new Set(["42501"]));
    expect(await rowCount(ctx.db, "generations", fresh.id)).toBe(0);
  });

  it("still lets the owner save, unpublish and delete a row the server made and published", async () => {
    const row = generationFor(owner);
    await insertAs(ctx.db, "service", "generations", row);
    await ctx.db.run("service", "update public.generations set is_public = true where id = $1", [row.id]);
    const changed = await ctx.db.run(
      owner,
      "update public.generations set is_public = false, is_saved = true where id = $1 returning is_public, is_saved",
      [row.id],
    );
    expect(changed).toEqual([{ is_public: false, is_saved: true }]);
    expect(await ctx.db.run(stranger, "delete from public.generations where id = $1 returning id", [row.id])).toEqual(
      [],
    );
    expect(await ctx.db.run(owner, "delete from public.generations where id = $1 returning id", [row.id])).toEqual([
      { id: row.id },
    ]);
  });

  it("lets the owner remove a published image after its row is gone, and the visitor loses it with the row", async () => {
    const row = generationFor(owner, { is_public: true });
    await storeImage(row.image_path);
    await insertAs(ctx.db, "service", "generations", row);
    expect(await imageVisible("anon", row.image_path)).toBe(true);

    await ctx.db.run(owner, "delete from public.generations where id = $1", [row.id]);
    expect(await imageVisible("anon", row.image_path)).toBe(false);
    // Without its row the image is handed to nobody, its owner included; the owner can still remove it.
    expect(await imageVisible(owner, row.image_path)).toBe(false);
    expect(
      await ctx.db.run(stranger, "delete from storage.objects where name = $1 returning name", [row.image_path]),
    ).toEqual([]);
    expect(
      await ctx.db.run(owner, "delete from storage.objects where name = $1 returning name", [row.image_path]),
    ).toEqual([{ name: row.image_path }]);
    expect(await ctx.db.query("select 1 from storage.objects where name = $1", [row.image_path])).toEqual([]);
  });

  it("takes every row of a person with their auth user, and leaves others' rows alone", async () => {
    const leaving = await ctx.db.createUser();
    const leavingImage = generationFor(leaving);
    await insertAs(ctx.db, "service", "generations", leavingImage);
    await insertAs(ctx.db, "service", "generations", generationFor(stranger));
    await insertAs(ctx.db, "service", "quota_reservations", { request_id: randomUUID(), user_id: leaving.id });
    await insertAs(ctx.db, leaving, "app_events", { user_id: leaving.id, name: "page.viewed" });
    await insertAs(ctx.db, leaving, "web_vitals", { user_id: leaving.id, name: "LCP", value: 1200 });
    await insertAs(ctx.db, "service", "custom_styles", {
      id: randomUUID(),
      user_id: leaving.id,
      name: "Moody film",
      prompt: "35mm film",
    });
    const collectionId = randomUUID();
    await insertAs(ctx.db, leaving, "collections", { id: collectionId, user_id: leaving.id, name: "Foxes" });
    await insertAs(ctx.db, leaving, "collection_items", {
      collection_id: collectionId,
      generation_id: leavingImage.id,
      user_id: leaving.id,
    });
    await insertAs(ctx.db, "service", "billing_customers", { user_id: leaving.id, stripe_customer_id: "cus_leaving" });
    await insertAs(ctx.db, "service", "subscriptions", {
      user_id: leaving.id,
      status: "active",
      plan: "creator",
      tier: "pro",
      synced_at: new Date().toISOString(),
    });
    const countsOf = async (id: string) => {
      const out: Record<string, number> = {};
      for (const t of PERSONAL_TABLES) {
        const [{ n }] = await ctx.db.query<{ n: number }>(
          `select count(*)::int as n from public.${t} where user_id = $1`,
          [id],
        );
        out[t] = n;
      }
      return out;
    };
    expect(Object.values(await countsOf(leaving.id)).every((n) => n >= 1)).toBe(true);
    const strangerBefore = await countsOf(stranger.id);

    await ctx.db.query("delete from auth.users where id = $1", [leaving.id]);
    expect(Object.values(await countsOf(leaving.id))).toEqual(PERSONAL_TABLES.map(() => 0));
    expect(await countsOf(stranger.id)).toEqual(strangerBefore);
  });
});
