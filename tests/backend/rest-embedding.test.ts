// Resource embedding through the real supabase-js client, on PGlite and on PostgreSQL: to-one, to-many
// and one-to-one relationships from foreign keys, hints, aliases, spreads, `!inner`, filters, order and
// limits of embedded resources, ordering by a to-one resource, PostgREST's PGRST200 / PGRST201 / PGRST108
// errors, and row-level security applying to embedded tables. Then the Prefer and Accept details that go
// with them: upsert statuses, rpc counts and max-affected, and text/csv. The tables are this file's own: a
// migration written next to copies of the product's migrations (MIGRATIONS_DIR), so the product's
// schema stays untouched.
import { expect, it } from "vitest";
import { clientsFor, describeOnBackends } from "../support/backend-suite.ts";
import { keyHeaders } from "../support/clients.ts";
import { fixtureMigration } from "../support/fixture-migrations.ts";

/** This file's own migration, run after the product's. */
const FIXTURE = fixtureMigration("rest_embedding_fixture")`
create table public.emb_authors (id int primary key, name text not null);
create table public.emb_posts (
  id int primary key,
  title text not null,
  author_id int not null constraint emb_posts_author_fkey references public.emb_authors (id),
  editor_id int constraint emb_posts_editor_fkey references public.emb_authors (id)
);
create table public.emb_comments (
  id int primary key,
  post_id int not null references public.emb_posts (id),
  body text not null,
  visible boolean not null
);
create table public.emb_profiles (author_id int primary key references public.emb_authors (id), bio text not null);
alter table public.emb_authors enable row level security;
alter table public.emb_posts enable row level security;
alter table public.emb_comments enable row level security;
alter table public.emb_profiles enable row level security;
create policy "read" on public.emb_authors for select using (true);
create policy "read" on public.emb_posts for select using (true);
create policy "read visible" on public.emb_comments for select using (visible);
create policy "read" on public.emb_profiles for select using (true);
grant select on public.emb_authors, public.emb_posts, public.emb_comments, public.emb_profiles to anon, authenticated;
grant all on public.emb_authors, public.emb_posts, public.emb_comments, public.emb_profiles to service_role;
insert into public.emb_authors values (1, 'Ann'), (2, 'Bob'), (3, 'Cy');
insert into public.emb_posts values (1, 'p1', 1, 2), (2, 'p2', 1, null), (3, 'p3', 2, 1);
insert into public.emb_comments values
  (1, 1, 'c1', true), (2, 1, 'c2', false), (3, 1, 'c3', true), (4, 3, 'c4', true);
insert into public.emb_profiles values (1, 'ann bio');
create function public.emb_posts_of(author int) returns setof public.emb_posts
  language sql stable as $$ select * from public.emb_posts where author_id = author order by id $$;
create function public.emb_retitle(suffix text) returns setof public.emb_posts
  language sql volatile as $$ update public.emb_posts set title = title || suffix returning * $$;
create function public.emb_post_count() returns int
  language sql stable as $$ select count(*)::int from public.emb_posts $$;
create function public.emb_first_post() returns public.emb_posts
  language sql stable as $$ select * from public.emb_posts order by id limit 1 $$;
-- Planner statistics that are stale on purpose: 100 rows analysed, then half of them deleted.
create table public.emb_many (id int primary key);
grant select on public.emb_many to anon, authenticated;
insert into public.emb_many select generate_series(1, 100);
analyze public.emb_many;
delete from public.emb_many where id > 50;
create table public.emb_tags (name text primary key, uses int not null);
alter table public.emb_tags enable row level security;
grant all on public.emb_tags to service_role;
`;

describeOnBackends("resource embedding on $title", FIXTURE, (b, { skip }) => {
  const { anon, server: service } = clientsFor(b);

  it.skipIf(skip)("embeds to-many through a hinted foreign key, to-one with aliases, and one-to-one", async () => {
    const many = await anon
      .from("emb_authors")
      .select("id, name, emb_posts!emb_posts_author_fkey(id, title)")
      .order("id");
    expect(many.error).toBeNull();
    expect(many.data).toEqual([
      {
        id: 1,
        name: "Ann",
        emb_posts: [
          { id: 1, title: "p1" },
          { id: 2, title: "p2" },
        ],
      },
      { id: 2, name: "Bob", emb_posts: [{ id: 3, title: "p3" }] },
      { id: 3, name: "Cy", emb_posts: [] },
    ]);

    const one = await anon
      .from("emb_posts")
      .select("id, writer:emb_authors!author_id(name), editor:emb_authors!emb_posts_editor_fkey(name)")
      .order("id");
    expect(one.error).toBeNull();
    expect(one.data).toEqual([
      { id: 1, writer: { name: "Ann" }, editor: { name: "Bob" } },
      { id: 2, writer: { name: "Ann" }, editor: null },
      { id: 3, writer: { name: "Bob" }, editor: { name: "Ann" } },
    ]);

    // A foreign key column of the origin names the relationship too.
    const byColumn = await anon.from("emb_posts").select("id, author_id(name)").eq("id", 3);
    expect(byColumn.data).toEqual([{ id: 3, author_id: { name: "Bob" } }]);

    const profile = await anon.from("emb_authors").select("id, emb_profiles(bio)").order("id").limit(2);
    expect(profile.data).toEqual([
      { id: 1, emb_profiles: { bio: "ann bio" } },
      { id: 2, emb_profiles: null },
    ]);
  });

  it.skipIf(skip)("applies row-level security to embedded tables: each is read as the caller's role", async () => {
    const asAnon = await anon.from("emb_posts").select("id, emb_comments(body)").eq("id", 1).single();
    expect(asAnon.data).toEqual({ id: 1, emb_comments: [{ body: "c1" }, { body: "c3" }] });
    const asService = await service.from("emb_posts").select("id, emb_comments(body)").eq("id", 1).single();
    expect(asService.data).toEqual({ id: 1, emb_comments: [{ body: "c1" }, { body: "c2" }, { body: "c3" }] });
  });

  it.skipIf(skip)("filters, orders and limits embedded resources; !inner filters the parents", async () => {
    const filtered = await anon
      .from("emb_posts")
      .select("id, emb_comments(body)")
      .eq("emb_comments.body", "c4")
      .order("id");
    expect(filtered.data).toEqual([
      { id: 1, emb_comments: [] },
      { id: 2, emb_comments: [] },
      { id: 3, emb_comments: [{ body: "c4" }] },
    ]);

    const inner = await anon
      .from("emb_posts")
      .select("id, emb_comments!inner(body)", { count: "exact" })
      .eq("emb_comments.body", "c4");
    expect(inner.error).toBeNull();
    expect(inner.data).toEqual([{ id: 3, emb_comments: [{ body: "c4" }] }]);
    expect(inner.count).toBe(1);

    const paged = await service
      .from("emb_posts")
      .select("id, emb_comments(id)")
      .eq("id", 1)
      .order("id", { referencedTable: "emb_comments", ascending: false })
      .limit(2, { referencedTable: "emb_comments" });
    expect(paged.data).toEqual([{ id: 1, emb_comments: [{ id: 3 }, { id: 2 }] }]);

    const left = await anon.from("emb_authors").select("id, emb_profiles!left(bio)").eq("id", 2);
    expect(left.data).toEqual([{ id: 2, emb_profiles: null }]);
  });

  it.skipIf(skip)("spreads a to-one resource's columns into the row, and orders by a to-one resource", async () => {
    const spread = await anon.from("emb_posts").select("id, ...emb_authors!author_id(author_name:name)").order("id");
    expect(spread.error).toBeNull();
    expect(spread.data).toEqual([
      { id: 1, author_name: "Ann" },
      { id: 2, author_name: "Ann" },
      { id: 3, author_name: "Bob" },
    ]);

    const ordered = await anon
      .from("emb_posts")
      .select("id, writer:emb_authors!author_id(name)")
      .order("writer(name)", { ascending: false })
      .order("id");
    expect(ordered.error).toBeNull();
    expect(ordered.data?.map((r) => r.id)).toEqual([3, 1, 2]);
  });

  it.skipIf(skip)("answers PGRST201 for an ambiguous relationship, worded as PostgREST's", async () => {
    const { error, status } = await anon.from("emb_authors").select("id, emb_posts(id)");
    expect(status).toBe(300);
    expect(error).toEqual({
      code: "PGRST201",
      message: "Could not embed because more than one relationship was found for 'emb_authors' and 'emb_posts'",
      details: [
        {
          cardinality: "one-to-many",
          embedding: "emb_authors with emb_posts",
          relationship: "emb_posts_author_fkey using emb_authors(id) and emb_posts(author_id)",
        },
        {
          cardinality: "one-to-many",
          embedding: "emb_authors with emb_posts",
          relationship: "emb_posts_editor_fkey using emb_authors(id) and emb_posts(editor_id)",
        },
      ],
      hint:
        "Try changing 'emb_posts' to one of the following: 'emb_posts!emb_posts_author_fkey', " +
        "'emb_posts!emb_posts_editor_fkey'. Find the desired relationship in the 'details' key.",
    });
  });

  it.skipIf(skip)(
    "answers PGRST200 for no relationship and PGRST108 for a filter on a resource not embedded",
    async () => {
      const none = await anon.from("emb_comments").select("id, emb_profiles(*)");
      expect(none.status).toBe(400);
      expect(none.error).toMatchObject({
        code: "PGRST200",
        message: "Could not find a relationship between 'emb_comments' and 'emb_profiles' in the schema cache",
        details:
          "Searched for a foreign key relationship between 'emb_comments' and 'emb_profiles' in the schema 'public', but no matches were found.",
      });
      const hinted = await anon.from("emb_posts").select("id, emb_authors!nope(*)");
      expect(hinted.error?.code).toBe("PGRST200");
      expect(hinted.error?.details).toContain("using the hint 'nope'");

      const notEmbedded = await anon.from("emb_posts").select("id").eq("emb_comments.body", "c1");
      expect(notEmbedded.status).toBe(400);
      expect(notEmbedded.error).toMatchObject({
        code: "PGRST108",
        message: "'emb_comments' is not an embedded resource in this request",
      });

      const toMany = await anon.from("emb_authors").select("id, ...emb_profiles(bio)").eq("id", 1);
      expect(toMany.data).toEqual([{ id: 1, bio: "ann bio" }]);
    },
  );

  it.skipIf(skip)("answers 201 when an upsert inserts and 200 when it only merges duplicates", async () => {
    const first = await service.from("emb_tags").upsert({ name: "cat", uses: 1 });
    expect(first.status).toBe(201);
    const merged = await service.from("emb_tags").upsert({ name: "cat", uses: 2 }).select();
    expect(merged.status).toBe(200);
    expect(merged.data).toEqual([{ name: "cat", uses: 2 }]);
    const mixed = await service.from("emb_tags").upsert([
      { name: "cat", uses: 3 },
      { name: "dog", uses: 1 },
    ]);
    expect(mixed.status).toBe(201);
    const ignored = await service.from("emb_tags").upsert({ name: "cat", uses: 9 }, { ignoreDuplicates: true });
    expect(ignored.status).toBe(201);
    const plain = await service.from("emb_tags").insert({ name: "eel", uses: 1 });
    expect(plain.status).toBe(201);
  });

  it.skipIf(skip)("counts rpc rows in Content-Range and answers 206 for a partial page", async () => {
    const all = await anon.rpc("emb_posts_of", { author: 1 }, { count: "exact" });
    expect(all.error).toBeNull();
    expect(all.count).toBe(2);
    expect(all.status).toBe(200);
    const page = await anon.rpc("emb_posts_of", { author: 1 }, { count: "exact" }).select("id").limit(1);
    expect(page.count).toBe(2);
    expect(page.status).toBe(206);
    expect(page.data).toEqual([{ id: 1 }]);
    const head = await anon.rpc("emb_posts_of", { author: 1 }, { count: "exact", head: true, get: true });
    expect(head.count).toBe(2);
    // A scalar or single-row function is one row, counted as one (not "*", which supabase-js reads as NaN).
    const scalar = await anon.rpc("emb_post_count", {}, { count: "exact" });
    expect(scalar).toMatchObject({ data: 3, count: 1, status: 200 });
    const single = await anon.rpc("emb_first_post", {}, { count: "exact" });
    expect(single).toMatchObject({ data: { id: 1, title: "p1" }, count: 1, status: 200 });
  });

  it.skipIf(skip)("refuses an rpc call that affects more rows than max-affected, and rolls it back", async () => {
    // supabase-js's maxAffected() is typed for PostgREST 13+ clients only; it sends these two preferences.
    const res = await fetch(`${b.url}/rest/v1/rpc/emb_retitle`, {
      method: "POST",
      headers: {
        ...keyHeaders(b.serviceRoleKey),
        "content-type": "application/json",
        prefer: "handling=strict, max-affected=2",
      },
      body: JSON.stringify({ suffix: "!" }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      code: "PGRST124",
      message: "Query result exceeds max-affected preference constraint",
      details: "The query affects 3 rows",
      hint: null,
    });
    const { data } = await service.from("emb_posts").select("title").order("id");
    expect(data).toEqual([{ title: "p1" }, { title: "p2" }, { title: "p3" }]);
  });

  it.skipIf(skip)("answers text/csv as PostgREST builds it", async () => {
    const csv = await anon.from("emb_posts").select("id, title, editor_id").order("id").csv();
    expect(csv.error).toBeNull();
    expect(csv.data).toBe("id,title,editor_id\n1,p1,2\n2,p2,\n3,p3,1");
    const empty = await anon.from("emb_posts").select("id").eq("id", 99).csv();
    expect(empty.data).toBe("\n");
    const rpc = await anon.rpc("emb_posts_of", { author: 2 }).select("id, title").csv();
    expect(rpc.data).toBe("id,title\n3,p3");
  });

  it.skipIf(skip)(
    "answers count=planned with the planner's estimate (206 when partial) and estimated exactly under max rows",
    async () => {
      const planned = await anon.from("emb_many").select("id", { count: "planned" });
      expect(planned.error).toBeNull();
      expect(planned.data).toHaveLength(50);
      expect(planned.count).toBe(100);
      expect(planned.status).toBe(206);
      const estimated = await anon.from("emb_many").select("id", { count: "estimated" });
      expect(estimated).toMatchObject({ count: 50, status: 200 });
      const filtered = await anon.from("emb_many").select("id", { count: "planned", head: true }).eq("id", 7);
      expect(filtered.count).toBe(1);
    },
  );
});
