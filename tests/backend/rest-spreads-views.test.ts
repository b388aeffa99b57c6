// Through the real supabase-js client, on PGlite and on PostgreSQL: spreads of to-many resources (each
// spread column an array over the related rows, as PostgREST v13 and later answer them), relationships
// through views (a view showing a foreign key's columns, or the columns it references, takes part in
// that relationship, with PostgREST's PGRST200 / PGRST201), and the response headers a browser may read
// of a REST answer. The tables and views are this file's own: a migration written next to copies of the
// product's migrations (MIGRATIONS_DIR); the views' tables sit in a schema the API does not expose.
import { expect, it } from "vitest";
import { clientsFor, describeOnBackends } from "../support/backend-suite.ts";
import { fixtureMigration } from "../support/fixture-migrations.ts";

/** This file's own migration, run after the product's. */
const FIXTURE = fixtureMigration("rest_spreads_views_fixture")`
create table public.sp_factories (id int primary key, name text not null);
create table public.sp_processes (
  id int primary key,
  name text not null,
  factory_id int not null references public.sp_factories (id),
  category int not null
);
create table public.sp_costs (process_id int primary key references public.sp_processes (id), cost numeric(8, 2));
create table public.sp_supervisors (id int primary key, name text not null);
create table public.sp_process_supervisor (
  process_id int references public.sp_processes (id),
  supervisor_id int references public.sp_supervisors (id),
  primary key (process_id, supervisor_id)
);
insert into public.sp_factories values (1, 'Factory A'), (2, 'Factory B'), (3, 'Factory C');
insert into public.sp_processes values (1, 'A1', 1, 1), (2, 'A2', 1, 2), (3, 'B1', 2, 1), (4, 'B2', 2, 1);
insert into public.sp_costs values (1, 150.00), (2, 200.00), (3, 180.00);
insert into public.sp_supervisors values (1, 'Mary'), (2, 'John'), (3, 'Peter');
insert into public.sp_process_supervisor values (1, 1), (2, 2), (3, 3), (3, 1), (4, 2);

-- Tables the API does not expose, shown through views of public.
create schema rv_private;
create table rv_private.factories (id int primary key, name text not null);
create table rv_private.processes (
  id int primary key,
  name text not null,
  factory_id int not null references rv_private.factories (id),
  backup_id int references rv_private.factories (id)
);
create table rv_private.supervisors (id int primary key, name text not null);
create table rv_private.process_supervisor (
  process_id int references rv_private.processes (id),
  supervisor_id int references rv_private.supervisors (id),
  primary key (process_id, supervisor_id)
);
insert into rv_private.factories values (1, 'North'), (2, 'South'), (20, 'Far');
insert into rv_private.processes values (1, 'cut', 1, 2), (2, 'fold', 1, null), (3, 'glue', 2, 1);
insert into rv_private.supervisors values (1, 'Mary'), (2, 'John');
insert into rv_private.process_supervisor values (1, 1), (3, 1), (3, 2);
create view public.rv_factories as select id, name from rv_private.factories;
-- A view of a view: its id still comes straight from the table's.
create view public.rv_near_factories as select * from public.rv_factories where id < 10;
-- Renamed columns keep their keys; the second foreign key's column is not shown.
create view public.rv_processes as select p.id, p.name as title, p.factory_id as factory from rv_private.processes p;
-- Shows both foreign keys to factories: embedding them is ambiguous.
create view public.rv_processes_both as select id, name, factory_id, backup_id from rv_private.processes;
-- Shows no key column as it is: no relationship.
create view public.rv_process_labels as select id, upper(name) as name, factory_id + 0 as factory_id
  from rv_private.processes;
create view public.rv_supervisors as select id, name from rv_private.supervisors;
create view public.rv_process_supervisor as select process_id, supervisor_id from rv_private.process_supervisor;
-- A table of public referencing a table behind a view.
create table public.rv_notes (id int primary key, factory_id int references rv_private.factories (id), body text);
insert into public.rv_notes values (1, 1, 'clean'), (2, 2, 'paint');

do $$
declare t text;
begin
  foreach t in array array['sp_factories', 'sp_processes', 'sp_costs', 'sp_supervisors', 'sp_process_supervisor',
                           'rv_factories', 'rv_near_factories', 'rv_processes', 'rv_processes_both',
                           'rv_process_labels', 'rv_supervisors', 'rv_process_supervisor', 'rv_notes'] loop
    execute format('grant select on public.%I to anon, authenticated, service_role', t);
  end loop;
end $$;
`;

describeOnBackends("to-many spreads and relationships through views on $title", FIXTURE, (b, { skip }) => {
  const { anon } = clientsFor(b);

  it.skipIf(skip)("spreads a one-to-many resource as one array per column, [] when none", async () => {
    const { data, error } = await anon
      .from("sp_factories")
      .select("factory:name, ...sp_processes(name, category)")
      .order("id")
      .order("id", { referencedTable: "sp_processes" });
    expect(error).toBeNull();
    expect(data).toEqual([
      { factory: "Factory A", name: ["A1", "A2"], category: [1, 2] },
      { factory: "Factory B", name: ["B1", "B2"], category: [1, 1] },
      { factory: "Factory C", name: [], category: [] },
    ]);

    const aliased = await anon
      .from("sp_factories")
      .select("factory:name, ...sp_processes(processes:name)")
      .order("id")
      .order("name", { referencedTable: "sp_processes", ascending: false });
    expect(aliased.data).toEqual([
      { factory: "Factory A", processes: ["A2", "A1"] },
      { factory: "Factory B", processes: ["B2", "B1"] },
      { factory: "Factory C", processes: [] },
    ]);

    // `*` spreads every column; an empty spread adds nothing.
    const star = await anon
      .from("sp_factories")
      .select("factory:name, ...sp_processes(*)")
      .eq("id", 2)
      .order("id", { referencedTable: "sp_processes" });
    expect(star.data).toEqual([
      { factory: "Factory B", id: [3, 4], name: ["B1", "B2"], factory_id: [2, 2], category: [1, 1] },
    ]);
    const empty = await anon.from("sp_factories").select("factory:name, ...sp_processes()").order("id");
    expect(empty.data).toEqual([{ factory: "Factory A" }, { factory: "Factory B" }, { factory: "Factory C" }]);
  });

  it.skipIf(skip)("orders every array alike by the spread's order, even by a column not selected", async () => {
    const { data, error } = await anon
      .from("sp_factories")
      .select("factory:name, ...sp_processes(name, id)")
      .lte("id", 2)
      .order("id")
      .order("category", { referencedTable: "sp_processes", ascending: false })
      .order("name", { referencedTable: "sp_processes", ascending: false });
    expect(error).toBeNull();
    expect(data).toEqual([
      { factory: "Factory A", name: ["A2", "A1"], id: [2, 1] },
      { factory: "Factory B", name: ["B2", "B1"], id: [4, 3] },
    ]);
  });

  it.skipIf(skip)("nests: a to-one spread flattens into the arrays, an embed becomes an array of values", async () => {
    const costs = await anon
      .from("sp_factories")
      .select("factory:name, ...sp_processes(process:name, ...sp_costs(cost))")
      .order("id")
      .order("id", { referencedTable: "sp_processes" });
    expect(costs.error).toBeNull();
    expect(costs.data).toEqual([
      { factory: "Factory A", process: ["A1", "A2"], cost: [150, 200] },
      { factory: "Factory B", process: ["B1", "B2"], cost: [180, null] },
      { factory: "Factory C", process: [], cost: [] },
    ]);

    const supervisors = await anon
      .from("sp_factories")
      .select("factory:name, ...sp_processes(process:name, sp_supervisors(name))")
      .eq("id", 2)
      .order("id", { referencedTable: "sp_processes" })
      .order("name", { referencedTable: "sp_processes.sp_supervisors" });
    expect(supervisors.error).toBeNull();
    expect(supervisors.data).toEqual([
      {
        factory: "Factory B",
        process: ["B1", "B2"],
        sp_supervisors: [[{ name: "Mary" }, { name: "Peter" }], [{ name: "John" }]],
      },
    ]);

    // A to-many spread inside a to-many spread: arrays of arrays.
    const nested = await anon
      .from("sp_factories")
      .select("factory:name, ...sp_processes(process:name, ...sp_supervisors(supervisor:name))")
      .eq("id", 1)
      .order("id", { referencedTable: "sp_processes" });
    expect(nested.data).toEqual([{ factory: "Factory A", process: ["A1", "A2"], supervisor: [["Mary"], ["John"]] }]);
  });

  it.skipIf(skip)("filters the spread rows, and !inner keeps only parents with some", async () => {
    const filtered = await anon
      .from("sp_factories")
      .select("factory:name, ...sp_processes(name)")
      .eq("sp_processes.category", 1)
      .order("id")
      .order("id", { referencedTable: "sp_processes" });
    expect(filtered.data).toEqual([
      { factory: "Factory A", name: ["A1"] },
      { factory: "Factory B", name: ["B1", "B2"] },
      { factory: "Factory C", name: [] },
    ]);
    const inner = await anon
      .from("sp_factories")
      .select("factory:name, ...sp_processes!inner(name)")
      .eq("sp_processes.category", 2)
      .order("id");
    expect(inner.data).toEqual([{ factory: "Factory A", name: ["A2"] }]);
  });

  it.skipIf(skip)("embeds through views both ways, through a view of a view, and by a view's column", async () => {
    const up = await anon.from("rv_processes").select("title, rv_factories(name)").order("id");
    expect(up.error).toBeNull();
    expect(up.data).toEqual([
      { title: "cut", rv_factories: { name: "North" } },
      { title: "fold", rv_factories: { name: "North" } },
      { title: "glue", rv_factories: { name: "South" } },
    ]);

    const down = await anon
      .from("rv_factories")
      .select("name, rv_processes(title)")
      .order("id")
      .order("id", { referencedTable: "rv_processes" });
    expect(down.data).toEqual([
      { name: "North", rv_processes: [{ title: "cut" }, { title: "fold" }] },
      { name: "South", rv_processes: [{ title: "glue" }] },
      { name: "Far", rv_processes: [] },
    ]);

    const viewOfView = await anon.from("rv_processes").select("title, rv_near_factories(name)").eq("id", 3);
    expect(viewOfView.data).toEqual([{ title: "glue", rv_near_factories: { name: "South" } }]);

    // The view's own column name serves as a hint.
    const hinted = await anon.from("rv_processes").select("title, plant:rv_factories!factory(name)").eq("id", 1);
    expect(hinted.data).toEqual([{ title: "cut", plant: { name: "North" } }]);

    // A table of the schema and a view of a table it references.
    const notes = await anon.from("rv_notes").select("body, rv_factories(name)").order("id");
    expect(notes.data).toEqual([
      { body: "clean", rv_factories: { name: "North" } },
      { body: "paint", rv_factories: { name: "South" } },
    ]);
    const back = await anon.from("rv_factories").select("name, rv_notes(body)").eq("id", 2);
    expect(back.data).toEqual([{ name: "South", rv_notes: [{ body: "paint" }] }]);
  });

  it.skipIf(skip)("finds many-to-many through a junction view, which has its table's primary key", async () => {
    const { data, error } = await anon
      .from("rv_processes")
      .select("title, rv_supervisors(name)")
      .order("id")
      .order("name", { referencedTable: "rv_supervisors" });
    expect(error).toBeNull();
    expect(data).toEqual([
      { title: "cut", rv_supervisors: [{ name: "Mary" }] },
      { title: "fold", rv_supervisors: [] },
      { title: "glue", rv_supervisors: [{ name: "John" }, { name: "Mary" }] },
    ]);
  });

  it.skipIf(skip)("answers PGRST200 for a view showing no key column and PGRST201 for two, as PostgREST", async () => {
    const none = await anon.from("rv_process_labels").select("name, rv_factories(name)");
    expect(none.status).toBe(400);
    expect(none.error).toMatchObject({
      code: "PGRST200",
      message: "Could not find a relationship between 'rv_process_labels' and 'rv_factories' in the schema cache",
    });
    // A view target is named by the view, never by the constraint.
    const byConstraint = await anon.from("rv_processes").select("title, processes_factory_id_fkey(name)");
    expect(byConstraint.error?.code).toBe("PGRST200");

    const both = await anon.from("rv_processes_both").select("name, rv_factories(name)");
    expect(both.status).toBe(300);
    expect(both.error).toMatchObject({
      code: "PGRST201",
      message:
        "Could not embed because more than one relationship was found for 'rv_processes_both' and 'rv_factories'",
      hint: "Try changing 'rv_factories' to one of the following: 'rv_factories!processes_backup_id_fkey', 'rv_factories!processes_factory_id_fkey'. Find the desired relationship in the 'details' key.",
      details: [
        {
          cardinality: "many-to-one",
          embedding: "rv_processes_both with rv_factories",
          relationship: "processes_backup_id_fkey using rv_processes_both(backup_id) and rv_factories(id)",
        },
        {
          cardinality: "many-to-one",
          embedding: "rv_processes_both with rv_factories",
          relationship: "processes_factory_id_fkey using rv_processes_both(factory_id) and rv_factories(id)",
        },
      ],
    });
    const chosen = await anon
      .from("rv_processes_both")
      .select("name, backup:rv_factories!processes_backup_id_fkey(name)")
      .order("id");
    expect(chosen.data).toEqual([
      { name: "cut", backup: { name: "South" } },
      { name: "fold", backup: null },
      { name: "glue", backup: { name: "North" } },
    ]);
  });

  it.skipIf(skip)(
    "counts an embedded resource's rows with a plain count field, as PostgreSQL reads alias.count",
    async () => {
      const many = await anon.from("sp_factories").select("name, sp_processes(count)").order("id");
      expect(many.error).toBeNull();
      expect(many.data).toEqual([
        { name: "Factory A", sp_processes: [{ count: 2 }] },
        { name: "Factory B", sp_processes: [{ count: 2 }] },
        { name: "Factory C", sp_processes: [{ count: 0 }] },
      ]);
      // Nested and to-one: each process's factory counts 1; an alias names it.
      const nested = await anon.from("sp_factories").select("name, sp_processes(sp_factories(n:count))").eq("id", 2);
      expect(nested.data).toEqual([
        { name: "Factory B", sp_processes: [{ sp_factories: { n: 1 } }, { sp_factories: { n: 1 } }] },
      ]);
      // At the top level the whole resource is counted, as PostgREST's query counts it.
      expect((await anon.from("sp_factories").select("count")).data).toEqual([{ count: 3 }]);
    },
  );

  it.skipIf(skip)("writes embedded resources as jsonb, with its key order and spacing, as PostgREST does", async () => {
    const res = await fetch(`${b.url}/rest/v1/sp_processes?select=name,sp_factories(name,id),sp_costs(cost)&id=eq.1`, {
      headers: { apikey: b.anonKey },
    });
    expect(await res.text()).toBe(
      '[{"name":"A1","sp_factories":{"id": 1, "name": "Factory A"},"sp_costs":{"cost": 150.00}}]',
    );
    const many = await fetch(
      `${b.url}/rest/v1/sp_factories?select=id,sp_processes(name,id)&id=eq.2&sp_processes.order=id`,
      {
        headers: { apikey: b.anonKey },
      },
    );
    expect(await many.text()).toBe('[{"id":2,"sp_processes":[{"id": 3, "name": "B1"}, {"id": 4, "name": "B2"}]}]');
  });

  it.skipIf(skip)("lets a browser read exactly the headers PostgREST exposes, never Content-Profile", async () => {
    const res = await fetch(`${b.url}/rest/v1/sp_factories?select=id`, {
      headers: { apikey: b.anonKey, origin: "http://localhost:5173", "accept-profile": "public" },
    });
    await res.body?.cancel();
    expect(res.status).toBe(200);
    expect(res.headers.get("content-profile")).toBe("public");
    expect(res.headers.get("access-control-expose-headers")).toBe(
      "Content-Encoding, Content-Location, Content-Range, Content-Type, Date, Location, Server, Transfer-Encoding, Range-Unit",
    );
  });
});
