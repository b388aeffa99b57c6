// Schemas other than public through the real supabase-js client (`.schema(name)`), on PGlite and on
// PostgreSQL: the schemas in supabase/config.toml's `[api] schemas` are exposed; GET and HEAD choose one
// with Accept-Profile, writes and rpc POSTs with Content-Profile, as PostgREST reads them; reads, writes,
// rpc, embedding, errors and the OpenAPI root all answer for that schema, the response names it
// (Content-Profile), and the request's search_path starts with it. A schema not in the list is 406
// PGRST106 worded as PostgREST's. This file's schemas, tables and functions come from a migration written
// next to copies of the product's migrations (MIGRATIONS_DIR), and its exposed schemas from a copy of
// the project's config.toml (SUPABASE_CONFIG).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { clientsFor, describeOnBackends } from "../support/backend-suite.ts";
import { everyoneReads, fixtureMigration } from "../support/fixture-migrations.ts";

/** This file's schemas, tables and functions, migrated after the product's migrations. */
const FIXTURE = fixtureMigration("rest_profiles_fixture")`
create schema rp_extra;
create schema rp_hidden;
grant usage on schema rp_extra, rp_hidden to anon, authenticated, service_role;
create table public.rp_things (id int primary key, label text not null);
create table rp_extra.rp_things (id int primary key, label text not null, kind_id int);
create table rp_extra.rp_kinds (id int primary key, name text not null);
alter table rp_extra.rp_things add constraint rp_things_kind_fkey foreign key (kind_id) references rp_extra.rp_kinds (id);
create table rp_hidden.rp_secrets (id int primary key);
${everyoneReads(["public.rp_things", "rp_extra.rp_things", "rp_extra.rp_kinds", "rp_hidden.rp_secrets"], { serverWrites: true })}
insert into public.rp_things values (1, 'public one');
insert into rp_extra.rp_kinds values (1, 'round'), (2, 'square');
insert into rp_extra.rp_things values (1, 'extra one', 1), (2, 'extra two', 2);
create function rp_extra.rp_shout(rp_extra.rp_things) returns text
  language sql stable as $$ select upper($1.label) $$;
create function rp_extra.rp_double(n int) returns int language sql immutable as $$ select n * 2 $$;
-- Unqualified: which rp_things it counts is the request's search_path's choice.
create function rp_extra.rp_count_things() returns bigint language plpgsql stable as $$
begin
  return (select count(*) from rp_things);
end $$;
grant execute on all functions in schema rp_extra to anon, authenticated, service_role;
`;

/** The project's config.toml with one more exposed schema. */
function configWithSchema(dir: string): string {
  const file = join(dir, "config.toml");
  const toml = readFileSync("supabase/config.toml", "utf8").replace(
    /^schemas = .*$/m,
    'schemas = ["public", "rp_extra", "graphql_public"]',
  );
  writeFileSync(file, toml);
  return file;
}

/** A folder for the config.toml this file's backends read, removed after them. */
const CONFIG_DIR = mkdtempSync(join(tmpdir(), "pc-rest-profiles-"));
afterAll(() => rmSync(CONFIG_DIR, { recursive: true, force: true }));

describeOnBackends(
  "schemas and profiles on $title",
  { prefix: "rest_profiles", fixture: FIXTURE, env: { SUPABASE_CONFIG: configWithSchema(CONFIG_DIR) } },
  (b, { skip }) => {
    const { anon, server: service } = clientsFor(b);

    const raw = (path: string, headers: Record<string, string> = {}) =>
      fetch(`${b.url}/rest/v1${path}`, { headers: { apikey: b.anonKey, ...headers } });

    it.skipIf(skip)("reads the table of the schema a profile names, and public without one", async () => {
      const extra = await anon.schema("rp_extra").from("rp_things").select("id, label").order("id");
      expect(extra.error).toBeNull();
      expect(extra.data).toEqual([
        { id: 1, label: "extra one" },
        { id: 2, label: "extra two" },
      ]);
      const plain = await anon.from("rp_things").select("id, label");
      expect(plain.data).toEqual([{ id: 1, label: "public one" }]);

      // The answer names its schema: always, since several schemas are exposed.
      expect((await raw("/rp_things?select=id", { "accept-profile": "rp_extra" })).headers.get("content-profile")).toBe(
        "rp_extra",
      );
      expect((await raw("/rp_things?select=id")).headers.get("content-profile")).toBe("public");
    });

    it.skipIf(skip)("writes in the schema Content-Profile names", async () => {
      const db = service.schema("rp_extra");
      const inserted = await db.from("rp_things").insert({ id: 3, label: "extra three" }).select("id, label").single();
      expect(inserted.error).toBeNull();
      expect(inserted.data).toEqual({ id: 3, label: "extra three" });
      const updated = await db.from("rp_things").update({ label: "extra 3" }).eq("id", 3).select("label");
      expect(updated.data).toEqual([{ label: "extra 3" }]);
      const deleted = await db.from("rp_things").delete().eq("id", 3).select("id");
      expect(deleted.data).toEqual([{ id: 3 }]);
      // public's table of the same name was never touched.
      expect((await service.from("rp_things").select("id")).data).toEqual([{ id: 1 }]);
    });

    it.skipIf(skip)("calls the schema's functions, embeds and computes inside it, on its search_path", async () => {
      const db = anon.schema("rp_extra");
      expect((await db.rpc("rp_double", { n: 21 })).data).toBe(42);
      expect((await db.rpc("rp_double", { n: 4 }, { get: true })).data).toBe(8);
      // An unqualified name in the function body resolves in the request's schema first.
      expect((await db.rpc("rp_count_things")).data).toBe(2);

      const embedded = await db.from("rp_things").select("label, rp_kinds(name), loud:rp_shout").order("id");
      expect(embedded.error).toBeNull();
      expect(embedded.data).toEqual([
        { label: "extra one", rp_kinds: { name: "round" }, loud: "EXTRA ONE" },
        { label: "extra two", rp_kinds: { name: "square" }, loud: "EXTRA TWO" },
      ]);
    });

    it.skipIf(skip)("words its errors with the schema, and refuses a schema not exposed with PGRST106", async () => {
      const db = anon.schema("rp_extra");
      const table = await db.from("rp_nope").select("*");
      expect(table.status).toBe(404);
      expect(table.error).toMatchObject({
        code: "PGRST205",
        message: "Could not find the table 'rp_extra.rp_nope' in the schema cache",
      });
      const fn = await db.rpc("rp_nope");
      expect(fn.error).toMatchObject({
        code: "PGRST202",
        message: "Could not find the function rp_extra.rp_nope without parameters in the schema cache",
      });
      const rel = await anon.from("rp_things").select("id, rp_kinds(name)");
      expect(rel.error).toMatchObject({
        code: "PGRST200",
        details:
          "Searched for a foreign key relationship between 'rp_things' and 'rp_kinds' in the schema 'public', but no matches were found.",
      });

      const hidden = await anon.schema("rp_hidden").from("rp_secrets").select("*");
      expect(hidden.status).toBe(406);
      expect(hidden.error).toEqual({
        code: "PGRST106",
        details: null,
        hint: "Only the following schemas are exposed: public, rp_extra, graphql_public",
        message: "Invalid schema: rp_hidden",
      });
      const hiddenWrite = await service.schema("rp_hidden").from("rp_secrets").insert({ id: 1 });
      expect(hiddenWrite.status).toBe(406);
      expect(hiddenWrite.error?.code).toBe("PGRST106");
    });

    it.skipIf(skip)("describes the chosen schema at the root", async () => {
      const res = await raw("/", { "accept-profile": "rp_extra" });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-profile")).toBe("rp_extra");
      const doc = (await res.json()) as { paths: Record<string, unknown>; definitions: Record<string, unknown> };
      expect(Object.keys(doc.definitions).sort()).toEqual(["rp_kinds", "rp_things"]);
      expect(doc.paths).toHaveProperty("/rpc/rp_double");
    });
  },
);
