// Computed fields and computed relationships through the real supabase-js client, on PGlite and on
// PostgreSQL. A function taking a table's row and returning a value is a field: selected, filtered and
// ordered when named, left out of `*`, on a table's rows, an rpc's and a write's. A function taking a
// row and returning rows of a table is a relationship embedded under the function's name: to-one when
// declared `rows 1`, to-many otherwise, with filters, order, limits and `!inner`; named after a table,
// it replaces the relationships detected with that table. The tables and functions are this file's
// own: a migration written next to copies of the product's migrations (MIGRATIONS_DIR).
import { expect, it } from "vitest";
import { clientsFor, describeOnBackends } from "../support/backend-suite.ts";
import { everyoneReads, fixtureMigration } from "../support/fixture-migrations.ts";

/** This file's own migration, run after the product's. */
const FIXTURE = fixtureMigration("rest_computed_fixture")`
create table public.cf_teams (id int primary key, name text not null);
-- No foreign keys: the relationships below are the functions'.
create table public.cf_people (
  id int primary key,
  first_name text not null,
  last_name text not null,
  team_id int,
  manager_id int,
  meta jsonb not null default '{}'
);
create table public.cf_tasks (
  id int primary key,
  title text not null,
  owner_id int not null references public.cf_people (id),
  reviewer_id int references public.cf_people (id)
);
create function public.cf_full_name(public.cf_people) returns text
  language sql stable as $$ select $1.first_name || ' ' || $1.last_name $$;
create function public.cf_tag(public.cf_people) returns jsonb
  language sql stable as $$ select jsonb_build_object('tag', lower($1.last_name), 'level', $1.id) $$;
create function public.cf_team(public.cf_people) returns setof public.cf_teams rows 1
  language sql stable as $$ select * from public.cf_teams where id = $1.team_id $$;
create function public.cf_members(public.cf_teams) returns setof public.cf_people
  language sql stable as $$ select * from public.cf_people where team_id = $1.id $$;
create function public.cf_manager(public.cf_people) returns setof public.cf_people rows 1
  language sql stable as $$ select * from public.cf_people where id = $1.manager_id $$;
-- Named after the table: replaces the two (ambiguous) foreign keys from cf_tasks to cf_people.
create function public.cf_people(public.cf_tasks) returns setof public.cf_people rows 1
  language sql stable as $$ select * from public.cf_people where id = $1.owner_id $$;
create function public.cf_everyone() returns setof public.cf_people
  language sql stable as $$ select * from public.cf_people order by id $$;
${everyoneReads(["public.cf_teams", "public.cf_people", "public.cf_tasks"])}
create policy "the server writes" on public.cf_people for all to service_role using (true) with check (true);
insert into public.cf_teams values (1, 'Red'), (2, 'Blue'), (3, 'Empty');
insert into public.cf_people values
  (1, 'Ann', 'Lee', 1, null, '{}'), (2, 'Bob', 'Ray', 1, 1, '{}'), (3, 'Cy', 'Moe', 2, 1, '{}'), (4, 'Di', 'Fox', null, 3, '{}');
insert into public.cf_tasks values (1, 'plan', 2, 1), (2, 'ship', 3, null);
`;

describeOnBackends("computed fields and relationships on $title", FIXTURE, (b, { skip }) => {
  const { anon, server: service } = clientsFor(b);

  it.skipIf(skip)("selects, filters and orders by a computed field, which * leaves out", async () => {
    const named = await anon
      .from("cf_people")
      .select("id, name:cf_full_name, tag:cf_tag->>tag")
      .ilike("cf_full_name", "*e*")
      .order("cf_full_name", { ascending: false });
    expect(named.error).toBeNull();
    expect(named.data).toEqual([
      { id: 3, name: "Cy Moe", tag: "moe" },
      { id: 1, name: "Ann Lee", tag: "lee" },
    ]);

    const star = await anon.from("cf_people").select("*").eq("cf_full_name", "Di Fox");
    expect(star.data).toEqual([{ id: 4, first_name: "Di", last_name: "Fox", team_id: null, manager_id: 3, meta: {} }]);

    const json = await anon.from("cf_people").select("id").gt("cf_tag->level", 2).order("id");
    expect(json.data).toEqual([{ id: 3 }, { id: 4 }]);

    const unknown = await anon.from("cf_people").select("id, cf_nope");
    expect(unknown.status).toBe(400);
    expect(unknown.error?.code).toBe("42703");
  });

  it.skipIf(skip)("reads computed fields on an rpc's rows and on the rows a write returns", async () => {
    const rpc = await anon.rpc("cf_everyone").select("cf_full_name").eq("id", 2);
    expect(rpc.error).toBeNull();
    expect(rpc.data).toEqual([{ cf_full_name: "Bob Ray" }]);

    const inserted = await service
      .from("cf_people")
      .insert({ id: 9, first_name: "Eve", last_name: "Kim", team_id: 2 })
      .select("id, cf_full_name, cf_team(name)")
      .single();
    expect(inserted.error).toBeNull();
    expect(inserted.data).toEqual({ id: 9, cf_full_name: "Eve Kim", cf_team: { name: "Blue" } });
    const deleted = await service.from("cf_people").delete().eq("cf_full_name", "Eve Kim").select("id");
    expect(deleted.data).toEqual([{ id: 9 }]);
  });

  it.skipIf(skip)("embeds a computed relationship: to-one with rows 1, to-many otherwise, self too", async () => {
    const toOne = await anon
      .from("cf_people")
      .select("first_name, cf_team(name), boss:cf_manager(first_name)")
      .order("id");
    expect(toOne.error).toBeNull();
    expect(toOne.data).toEqual([
      { first_name: "Ann", cf_team: { name: "Red" }, boss: null },
      { first_name: "Bob", cf_team: { name: "Red" }, boss: { first_name: "Ann" } },
      { first_name: "Cy", cf_team: { name: "Blue" }, boss: { first_name: "Ann" } },
      { first_name: "Di", cf_team: null, boss: { first_name: "Cy" } },
    ]);

    const toMany = await anon
      .from("cf_teams")
      .select("name, cf_members(first_name)")
      .order("id")
      .order("first_name", { referencedTable: "cf_members", ascending: false })
      .limit(1, { referencedTable: "cf_members" });
    expect(toMany.data).toEqual([
      { name: "Red", cf_members: [{ first_name: "Bob" }] },
      { name: "Blue", cf_members: [{ first_name: "Cy" }] },
      { name: "Empty", cf_members: [] },
    ]);

    const inner = await anon
      .from("cf_teams")
      .select("name, cf_members!inner(first_name)")
      .eq("cf_members.first_name", "Cy");
    expect(inner.data).toEqual([{ name: "Blue", cf_members: [{ first_name: "Cy" }] }]);

    const spread = await anon
      .from("cf_people")
      .select("first_name, ...cf_team(team:name)")
      .order("cf_team(name)")
      .order("id")
      .not("team_id", "is", null);
    expect(spread.error).toBeNull();
    expect(spread.data).toEqual([
      { first_name: "Cy", team: "Blue" },
      { first_name: "Ann", team: "Red" },
      { first_name: "Bob", team: "Red" },
    ]);
  });

  it.skipIf(skip)("a computed relationship named after a table replaces the ambiguous foreign keys", async () => {
    const { data, error } = await anon.from("cf_tasks").select("title, cf_people(first_name)").order("id");
    expect(error).toBeNull();
    expect(data).toEqual([
      { title: "plan", cf_people: { first_name: "Bob" } },
      { title: "ship", cf_people: { first_name: "Cy" } },
    ]);
    // From the other side the foreign keys still stand, and stay ambiguous.
    const other = await anon.from("cf_people").select("id, cf_tasks(title)");
    expect(other.status).toBe(300);
    expect(other.error?.code).toBe("PGRST201");
  });
});
