// Many-to-many embedding through junction tables, through the real supabase-js client, on PGlite and on
// PostgreSQL: a table whose foreign keys to both sides are all part of its primary key joins them (with
// more columns in that key too); `!inner`, filters, order and limits apply to the far side; the junction
// is read under its own row-level security; two junctions between the same tables are PGRST201, worded
// as PostgREST's, and a hint naming the junction chooses one. The tables are this file's own: a
// migration written next to copies of the product's migrations (MIGRATIONS_DIR).
import { expect, it } from "vitest";
import { clientsFor, describeOnBackends } from "../support/backend-suite.ts";
import { fixtureMigration } from "../support/fixture-migrations.ts";

/** This file's own migration, run after the product's. */
const FIXTURE = fixtureMigration("rest_m2m_fixture")`
create table public.m2m_films (id int primary key, title text not null);
create table public.m2m_actors (id int primary key, name text not null);
create table public.m2m_roles (
  film_id int not null references public.m2m_films (id),
  actor_id int not null references public.m2m_actors (id),
  character text not null,
  visible boolean not null default true,
  primary key (film_id, actor_id)
);
-- Foreign keys to both sides, but not in the primary key: not a junction.
create table public.m2m_reviews (
  id int primary key,
  film_id int not null references public.m2m_films (id),
  actor_id int not null references public.m2m_actors (id)
);
-- A junction whose primary key has a column more than its two foreign keys.
create table public.m2m_studios (id int primary key, name text not null);
create table public.m2m_productions (
  id int not null,
  film_id int not null references public.m2m_films (id),
  studio_id int not null references public.m2m_studios (id),
  primary key (id, film_id, studio_id)
);
-- Two junctions between the same two tables.
create table public.m2m_festivals (id int primary key, name text not null);
create table public.m2m_screenings (
  festival_id int not null references public.m2m_festivals (id),
  film_id int not null references public.m2m_films (id),
  primary key (festival_id, film_id)
);
create table public.m2m_awards (
  festival_id int not null references public.m2m_festivals (id),
  film_id int not null references public.m2m_films (id),
  prize text not null,
  primary key (festival_id, film_id)
);
do $$
declare t text;
begin
  foreach t in array array['m2m_films', 'm2m_actors', 'm2m_roles', 'm2m_reviews', 'm2m_studios', 'm2m_productions',
                           'm2m_festivals', 'm2m_screenings', 'm2m_awards'] loop
    execute format('alter table public.%I enable row level security', t);
    execute format('grant select on public.%I to anon, authenticated', t);
    execute format('grant all on public.%I to service_role', t);
    if t <> 'm2m_roles' then
      execute format('create policy "everyone reads" on public.%I for select using (true)', t);
    end if;
  end loop;
end $$;
create policy "everyone reads the visible ones" on public.m2m_roles for select using (visible);
insert into public.m2m_films values (1, 'Alien'), (2, 'Brazil'), (3, 'Cube');
insert into public.m2m_actors values (1, 'Ann'), (2, 'Bob'), (3, 'Cy'), (4, 'Di');
insert into public.m2m_roles values
  (1, 1, 'Ripley', true), (1, 2, 'Dallas', true), (2, 2, 'Sam', true), (2, 3, 'Jill', true), (3, 4, 'Quentin', false);
insert into public.m2m_reviews values (1, 3, 1);
insert into public.m2m_studios values (1, 'North'), (2, 'South');
insert into public.m2m_productions values (1, 1, 1), (2, 2, 1), (3, 2, 2);
insert into public.m2m_festivals values (1, 'Cannes'), (2, 'Venice');
insert into public.m2m_screenings values (1, 1), (1, 2), (2, 3);
insert into public.m2m_awards values (1, 2, 'Palme');
`;

describeOnBackends("many-to-many embedding on $title", FIXTURE, (b, { skip }) => {
  const { anon, server: service } = clientsFor(b);

  it.skipIf(skip)("embeds both sides of a junction table as arrays, reading only the far side's columns", async () => {
    const actors = await service.from("m2m_actors").select("name, m2m_films(title)").order("id");
    expect(actors.error).toBeNull();
    expect(actors.data).toEqual([
      { name: "Ann", m2m_films: [{ title: "Alien" }] },
      { name: "Bob", m2m_films: [{ title: "Alien" }, { title: "Brazil" }] },
      { name: "Cy", m2m_films: [{ title: "Brazil" }] },
      { name: "Di", m2m_films: [{ title: "Cube" }] },
    ]);

    const films = await service.from("m2m_films").select("title, cast:m2m_actors(*)").eq("id", 1).single();
    expect(films.error).toBeNull();
    expect(films.data).toEqual({
      title: "Alien",
      cast: [
        { id: 1, name: "Ann" },
        { id: 2, name: "Bob" },
      ],
    });

    // The junction itself stays embeddable, one-to-many, with the far side nested in it.
    const nested = await service
      .from("m2m_actors")
      .select("name, m2m_roles(character, m2m_films(title))")
      .eq("id", 1)
      .single();
    expect(nested.data).toEqual({ name: "Ann", m2m_roles: [{ character: "Ripley", m2m_films: { title: "Alien" } }] });
  });

  it.skipIf(skip)("detects a junction whose primary key has more columns than its two foreign keys", async () => {
    const { data, error } = await anon.from("m2m_studios").select("name, m2m_films(id)").order("id");
    expect(error).toBeNull();
    expect(data).toEqual([
      { name: "North", m2m_films: [{ id: 1 }, { id: 2 }] },
      { name: "South", m2m_films: [{ id: 2 }] },
    ]);
  });

  it.skipIf(skip)("filters, orders and limits the far side; !inner keeps only parents with a match", async () => {
    const filtered = await service
      .from("m2m_films")
      .select("id, m2m_actors(name)")
      .eq("m2m_actors.name", "Bob")
      .order("id");
    expect(filtered.data).toEqual([
      { id: 1, m2m_actors: [{ name: "Bob" }] },
      { id: 2, m2m_actors: [{ name: "Bob" }] },
      { id: 3, m2m_actors: [] },
    ]);

    const inner = await service
      .from("m2m_films")
      .select("id, m2m_actors!inner(name)", { count: "exact" })
      .eq("m2m_actors.name", "Cy");
    expect(inner.error).toBeNull();
    expect(inner.data).toEqual([{ id: 2, m2m_actors: [{ name: "Cy" }] }]);
    expect(inner.count).toBe(1);

    const paged = await service
      .from("m2m_films")
      .select("id, m2m_actors(id)")
      .in("id", [1, 2])
      .order("id")
      .order("id", { referencedTable: "m2m_actors", ascending: false })
      .limit(1, { referencedTable: "m2m_actors" });
    expect(paged.data).toEqual([
      { id: 1, m2m_actors: [{ id: 2 }] },
      { id: 2, m2m_actors: [{ id: 3 }] },
    ]);
  });

  it.skipIf(skip)("reads the junction as the caller: a row its policy hides links nothing", async () => {
    const asAnon = await anon.from("m2m_films").select("id, m2m_actors(name)").eq("id", 3).single();
    expect(asAnon.data).toEqual({ id: 3, m2m_actors: [] });
    const asService = await service.from("m2m_films").select("id, m2m_actors(name)").eq("id", 3).single();
    expect(asService.data).toEqual({ id: 3, m2m_actors: [{ name: "Di" }] });
  });

  it.skipIf(skip)(
    "answers PGRST201 for two junctions, worded as PostgREST's, and a junction hint chooses",
    async () => {
      const { error, status } = await anon.from("m2m_festivals").select("name, m2m_films(title)");
      expect(status).toBe(300);
      expect(error).toEqual({
        code: "PGRST201",
        message: "Could not embed because more than one relationship was found for 'm2m_festivals' and 'm2m_films'",
        details: [
          {
            cardinality: "many-to-many",
            embedding: "m2m_festivals with m2m_films",
            relationship:
              "m2m_awards using m2m_awards_festival_id_fkey(festival_id) and m2m_awards_film_id_fkey(film_id)",
          },
          {
            cardinality: "many-to-many",
            embedding: "m2m_festivals with m2m_films",
            relationship:
              "m2m_screenings using m2m_screenings_festival_id_fkey(festival_id) and m2m_screenings_film_id_fkey(film_id)",
          },
        ],
        hint:
          "Try changing 'm2m_films' to one of the following: 'm2m_films!m2m_awards', 'm2m_films!m2m_screenings'. " +
          "Find the desired relationship in the 'details' key.",
      });

      const hinted = await anon
        .from("m2m_festivals")
        .select("name, shown:m2m_films!m2m_screenings(title), won:m2m_films!m2m_awards(title)")
        .order("id");
      expect(hinted.error).toBeNull();
      expect(hinted.data).toEqual([
        { name: "Cannes", shown: [{ title: "Alien" }, { title: "Brazil" }], won: [{ title: "Brazil" }] },
        { name: "Venice", shown: [{ title: "Cube" }], won: [] },
      ]);
    },
  );

  it.skipIf(skip)(
    "spreads a many-to-many resource into arrays, and refuses a hint that names no junction",
    async () => {
      // PostgREST v13 and later: each spread column is an array over the far side's rows ([] for none).
      const spread = await anon
        .from("m2m_actors")
        .select("name, ...m2m_films(title)")
        .order("id")
        .order("title", { referencedTable: "m2m_films", ascending: false });
      expect(spread.error).toBeNull();
      expect(spread.data).toEqual([
        { name: "Ann", title: ["Alien"] },
        { name: "Bob", title: ["Brazil", "Alien"] },
        { name: "Cy", title: ["Brazil"] },
        { name: "Di", title: [] },
      ]);
      const wrongHint = await anon.from("m2m_actors").select("name, m2m_films!m2m_reviews(title)");
      expect(wrongHint.status).toBe(400);
      expect(wrongHint.error).toMatchObject({
        code: "PGRST200",
        details:
          "Searched for a foreign key relationship between 'm2m_actors' and 'm2m_films' using the hint 'm2m_reviews' in the schema 'public', but no matches were found.",
      });
    },
  );
});
