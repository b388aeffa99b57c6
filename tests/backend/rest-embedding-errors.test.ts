// How embedding fails, through the real supabase-js client, on PGlite and on PostgreSQL, as PostgREST's
// SQL makes it fail: two embeds of the same name at one level are 42712 (PostgREST names each embed's
// join after it), never an object silently keeping only one; an unknown column of an embedded table is
// named by PostgREST's alias for it (`<table>_<depth>`). The tables are this file's own: a migration
// written next to copies of the product's migrations (MIGRATIONS_DIR).
import { expect, it } from "vitest";
import { clientsFor, describeOnBackends } from "../support/backend-suite.ts";
import { fixtureMigration } from "../support/fixture-migrations.ts";

/** This file's own migration, run after the product's. */
const FIXTURE = fixtureMigration("rest_embedding_errors_fixture")`
create table public.ee_people (name text primary key);
create table public.ee_pairs (
  id int primary key,
  first_person text not null references public.ee_people (name),
  second_person text not null references public.ee_people (name)
);
grant select on public.ee_people, public.ee_pairs to anon;
insert into public.ee_people values ('ann'), ('bob');
insert into public.ee_pairs values (1, 'ann', 'bob');
`;

describeOnBackends("embedding errors on $title", FIXTURE, (b, { skip }) => {
  const { anon } = clientsFor(b);

  it.skipIf(skip)("refuses two embeds of one name at one level with 42712, and serves them aliased", async () => {
    const twice = await anon.from("ee_pairs").select("ee_people!first_person(*), ee_people!second_person(*)");
    expect(twice.status).toBe(400);
    expect(twice.error).toEqual({
      code: "42712",
      details: null,
      hint: null,
      message: 'table name "ee_pairs_ee_people_1" specified more than once',
    });
    const aliased = await anon
      .from("ee_pairs")
      .select("first:ee_people!first_person(name), second:ee_people!second_person(name)");
    expect(aliased.error).toBeNull();
    expect(aliased.data).toEqual([{ first: { name: "ann" }, second: { name: "bob" } }]);
  });

  it.skipIf(skip)("names an embedded table's unknown column by PostgREST's alias for it", async () => {
    const { error, status } = await anon.from("ee_pairs").select("id, ee_people!first_person(nope)");
    expect(status).toBe(400);
    expect(error).toMatchObject({ code: "42703", message: "column ee_people_1.nope does not exist" });
  });
});
