import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import { type Actor, describeDb, sqlState, usersOf } from "../support/db.ts";
import { generationFor, insertAs } from "./fixtures.ts";

describeDb("storage of generated images", (ctx) => {
  const [owner, stranger] = usersOf(ctx, 2);

  const upload = (actor: Actor, name: string, bucket = "generations") =>
    ctx.db.run(
      actor,
      'insert into storage.objects (bucket_id, name, metadata) values ($1, $2, \'{"mimetype":"image/png"}\')',
      [bucket, name],
    );
  /**
   * Whether `actor` sees the object, with `storage.operation` set as the Storage API sets it for a request
   * (hosted storage-api and the local one alike); null runs plain SQL, with no operation set.
   */
  const readable = async (actor: Actor, name: string, operation: string | null = "storage.object.get_authenticated") =>
    ctx.db.as(actor, async (tx) => {
      if (operation !== null) await tx.query("select set_config('storage.operation', $1, true)", [operation]);
      const rows = await tx.query("select name from storage.objects where bucket_id = 'generations' and name = $1", [
        name,
      ]);
      return rows.length === 1;
    });

  it("is a private bucket", async () => {
    const [bucket] = await ctx.db.query("select public from storage.buckets where id = 'generations'");
    expect(bucket).toEqual({ public: false });
  });

  it("refuses every client upload, even into the owner's own folder: only the server stores images", async () => {
    const own = `${owner.id}/${randomUUID()}.png`;
    expect(await sqlState(upload(owner, own))).toBe("42501");
    expect(await sqlState(upload(owner, `${stranger.id}/${randomUUID()}.png`))).toBe("42501");
    expect(await sqlState(upload(owner, `${randomUUID()}.png`))).toBe("42501");
    expect(await sqlState(upload("anon", `${owner.id}/${randomUUID()}.png`))).toBe("42501");
    expect(await ctx.db.query("select 1 from storage.objects where name = $1", [own])).toEqual([]);
    await upload("service", own);
    expect(await readable(owner, own, null)).toBe(true);
  });

  it("shows an unpublished image to its owner only", async () => {
    const row = generationFor(owner);
    const name = row.image_path;
    await upload("service", name);
    await insertAs(ctx.db, "service", "generations", row);
    expect(await readable(owner, name)).toBe(true);
    expect(await readable(stranger, name)).toBe(false);
    expect(await readable("anon", name)).toBe(false);
  });

  it("shows the image of a published generation to anyone, and hides it again when unpublished", async () => {
    const row = generationFor(owner);
    await upload("service", row.image_path);
    await insertAs(ctx.db, "service", "generations", row);
    expect(await readable("anon", row.image_path)).toBe(false);

    await ctx.db.run("service", "update public.generations set is_public = true where id = $1", [row.id]);
    expect(await readable("anon", row.image_path)).toBe(true);
    expect(await readable(stranger, row.image_path)).toBe(true);

    await ctx.db.run(owner, "update public.generations set is_public = false where id = $1", [row.id]);
    expect(await readable("anon", row.image_path)).toBe(false);
  });

  it("cannot be tricked into exposing an image by a stranger's published row", async () => {
    const name = `${owner.id}/${randomUUID()}.png`;
    await upload("service", name);
    const theft = generationFor(stranger, { image_path: name, is_public: true });
    expect(await sqlState(insertAs(ctx.db, stranger, "generations", theft))).toBe("42501");
    // Nor can the server be made to store such a row: the path is bound to the row's owner.
    expect(await sqlState(insertAs(ctx.db, "service", "generations", theft))).toBe("23514");
    expect(await readable("anon", name)).toBe(false);
    expect(await readable(stranger, name)).toBe(false);
  });

  it("lets only the owner delete an image, and nobody replace one", async () => {
    const name = `${owner.id}/${randomUUID()}.png`;
    await upload("service", name);
    const strangerUpdate = await ctx.db.run(
      stranger,
      "update storage.objects set metadata = '{}' where name = $1 returning id",
      [name],
    );
    expect(strangerUpdate).toHaveLength(0);
    const strangerDelete = await ctx.db.run(stranger, "delete from storage.objects where name = $1 returning id", [
      name,
    ]);
    expect(strangerDelete).toHaveLength(0);
    const anonDelete = await ctx.db.run("anon", "delete from storage.objects where name = $1 returning id", [name]);
    expect(anonDelete).toHaveLength(0);

    // No update policy is left for clients: the owner can neither move nor replace their image.
    const moved = await ctx.db.run(owner, "update storage.objects set name = $2 where name = $1 returning id", [
      name,
      `${stranger.id}/moved.png`,
    ]);
    expect(moved).toHaveLength(0);
    const replaced = await ctx.db.run(
      owner,
      "update storage.objects set metadata = '{\"size\":1}' where name = $1 returning id",
      [name],
    );
    expect(replaced).toHaveLength(0);
    const deleted = await ctx.db.run(owner, "delete from storage.objects where name = $1 returning id", [name]);
    expect(deleted).toHaveLength(1);
  });

  it("lets a visitor view a published image but never sign or list it; the owner signs it", async () => {
    const row = generationFor(owner, { is_public: true });
    await upload("service", row.image_path);
    await insertAs(ctx.db, "service", "generations", row);
    const viewing = [
      "storage.object.get_authenticated",
      "object.head_authenticated_info",
      "object.get_authenticated_info",
      "storage.object.info_authenticated",
      "storage.render.image_authenticated",
    ];
    for (const visitor of ["anon", stranger] as const) {
      for (const op of viewing) expect(await readable(visitor, row.image_path, op), op).toBe(true);
      for (const op of [
        "storage.object.sign",
        "storage.object.sign_many",
        "storage.object.list",
        "storage.object.copy",
        "storage.object.move",
        "storage.render.image_sign",
        "storage.object.get_signed",
        "some.future.operation",
        "",
        null,
      ]) {
        expect(await readable(visitor, row.image_path, op), String(op)).toBe(false);
      }
    }
    for (const op of [...viewing, "storage.object.sign", "storage.object.sign_many", "storage.object.list", null]) {
      expect(await readable(owner, row.image_path, op), String(op)).toBe(true);
    }
  });

  it("hands an image whose row is gone to nobody, but leaves listing and removing it to the owner", async () => {
    const row = generationFor(owner, { is_public: true });
    await upload("service", row.image_path);
    await insertAs(ctx.db, "service", "generations", row);
    await ctx.db.run(owner, "delete from public.generations where id = $1", [row.id]);
    for (const op of [
      "storage.object.get_authenticated",
      "object.head_authenticated_info",
      "storage.render.image_authenticated",
      "storage.object.sign",
      "storage.object.sign_many",
      "storage.object.copy",
    ]) {
      expect(await readable(owner, row.image_path, op), op).toBe(false);
      expect(await readable("anon", row.image_path, op), op).toBe(false);
    }
    for (const op of ["storage.object.list", "storage.object.delete", "storage.object.delete_many", null]) {
      expect(await readable(owner, row.image_path, op), String(op)).toBe(true);
    }
    const removed = await ctx.db.as(owner, async (tx) => {
      await tx.query("select set_config('storage.operation', 'storage.object.delete', true)");
      return await tx.query("delete from storage.objects where name = $1 returning id", [row.image_path]);
    });
    expect(removed).toHaveLength(1);
  });

  it("grants nothing in other buckets", async () => {
    await ctx.db.query(
      "insert into storage.buckets (id, name) values ('elsewhere', 'elsewhere') on conflict do nothing",
    );
    expect(await sqlState(upload(owner, `${owner.id}/x.png`, "elsewhere"))).toBe("42501");
  });
});
