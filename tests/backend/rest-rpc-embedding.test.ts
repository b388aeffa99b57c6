// Embedding on rpc results, through the real supabase-js client, on PGlite and on PostgreSQL: a function
// returning a table's rows (as a set, or one row of that table's type) reads like the table, so its
// relationships embed, to-one and to-many, with `!inner`, filters, order and limits, after a write too;
// a function returning rows of no table has no relationships (PGRST200). The tables and functions are
// this file's own: a migration written next to copies of the product's migrations (MIGRATIONS_DIR).
import { expect, it } from "vitest";
import { clientsFor, describeOnBackends } from "../support/backend-suite.ts";
import { fixtureMigration } from "../support/fixture-migrations.ts";

/** This file's own migration, run after the product's. */
const FIXTURE = fixtureMigration("rest_rpc_embedding_fixture")`
create table public.rpcemb_authors (id int primary key, name text not null);
create table public.rpcemb_books (
  id int primary key,
  title text not null,
  author_id int not null references public.rpcemb_authors (id)
);
alter table public.rpcemb_authors enable row level security;
alter table public.rpcemb_books enable row level security;
create policy "everyone reads" on public.rpcemb_authors for select using (true);
create policy "everyone reads" on public.rpcemb_books for select using (true);
create policy "the server writes" on public.rpcemb_books for insert to service_role with check (true);
grant select on public.rpcemb_authors, public.rpcemb_books to anon, authenticated;
grant all on public.rpcemb_authors, public.rpcemb_books to service_role;
insert into public.rpcemb_authors values (1, 'Ann'), (2, 'Bob'), (3, 'Cy');
insert into public.rpcemb_books values (1, 'a1', 1), (2, 'a2', 1), (3, 'b1', 2);
create function public.rpcemb_books_of(author int) returns setof public.rpcemb_books
  language sql stable as $$ select * from public.rpcemb_books where author_id = author order by id $$;
create function public.rpcemb_all_authors() returns setof public.rpcemb_authors
  language sql stable as $$ select * from public.rpcemb_authors order by id $$;
create function public.rpcemb_newest_book() returns public.rpcemb_books
  language sql stable as $$ select * from public.rpcemb_books order by id desc limit 1 $$;
create function public.rpcemb_add_book(book_id int, book_title text, book_author int) returns setof public.rpcemb_books
  language sql volatile as $$
    insert into public.rpcemb_books values (book_id, book_title, book_author) returning *
  $$;
create function public.rpcemb_pairs() returns table (id int, author_id int)
  language sql stable as $$ select id, author_id from public.rpcemb_books $$;
grant execute on function public.rpcemb_add_book(int, text, int) to service_role;
revoke execute on function public.rpcemb_add_book(int, text, int) from public, anon, authenticated;
`;

describeOnBackends("embedding on rpc results on $title", FIXTURE, (b, { skip }) => {
  const { anon, server: service } = clientsFor(b);

  it.skipIf(skip)("embeds the to-one side of a set-returning function's rows, by POST and by GET", async () => {
    const posted = await anon.rpc("rpcemb_books_of", { author: 1 }).select("title, writer:rpcemb_authors(name)");
    expect(posted.error).toBeNull();
    expect(posted.data).toEqual([
      { title: "a1", writer: { name: "Ann" } },
      { title: "a2", writer: { name: "Ann" } },
    ]);
    const got = await anon
      .rpc("rpcemb_books_of", { author: 2 }, { get: true })
      .select("id, ...rpcemb_authors(author:name)");
    expect(got.error).toBeNull();
    expect(got.data).toEqual([{ id: 3, author: "Bob" }]);
  });

  it.skipIf(skip)("embeds the to-many side with filters, order, limits and !inner", async () => {
    const all = await anon
      .rpc("rpcemb_all_authors")
      .select("name, rpcemb_books(title)")
      .order("title", { referencedTable: "rpcemb_books", ascending: false })
      .limit(1, { referencedTable: "rpcemb_books" });
    expect(all.error).toBeNull();
    expect(all.data).toEqual([
      { name: "Ann", rpcemb_books: [{ title: "a2" }] },
      { name: "Bob", rpcemb_books: [{ title: "b1" }] },
      { name: "Cy", rpcemb_books: [] },
    ]);

    const inner = await anon
      .rpc("rpcemb_all_authors", {}, { count: "exact" })
      .select("name, rpcemb_books!inner(title)")
      .eq("rpcemb_books.title", "b1");
    expect(inner.error).toBeNull();
    expect(inner.data).toEqual([{ name: "Bob", rpcemb_books: [{ title: "b1" }] }]);
    expect(inner.count).toBe(1);
  });

  it.skipIf(skip)("embeds on a function returning one row of a table's type, answered as an object", async () => {
    const { data, error } = await anon.rpc("rpcemb_newest_book").select("title, rpcemb_authors(name)");
    expect(error).toBeNull();
    expect(data).toEqual({ title: "b1", rpcemb_authors: { name: "Bob" } });
  });

  it.skipIf(skip)("embeds on the rows a volatile function wrote, in the same call", async () => {
    const { data, error, status } = await service
      .rpc("rpcemb_add_book", { book_id: 9, book_title: "c1", book_author: 3 })
      .select("id, rpcemb_authors(name)");
    expect(error).toBeNull();
    expect(status).toBe(200);
    expect(data).toEqual([{ id: 9, rpcemb_authors: { name: "Cy" } }]);
  });

  it.skipIf(skip)("refuses embedding on rows of no table with PGRST200", async () => {
    const { error, status } = await anon.rpc("rpcemb_pairs").select("id, rpcemb_authors(name)");
    expect(status).toBe(400);
    expect(error?.code).toBe("PGRST200");
  });
});
