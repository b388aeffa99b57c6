// Overloaded functions through the real supabase-js client, on PGlite and on PostgreSQL: rpc chooses the
// overload by the argument names given (required ones exactly, optional ones freely), a single unnamed
// parameter takes the whole body, and the failures are PostgREST's: PGRST202 (no overload, with its
// details and fuzzy hint) and PGRST203 (several, listed in PostgREST's order). The functions are this
// file's own: a migration written next to copies of the product's migrations (MIGRATIONS_DIR).
import { expect, it } from "vitest";
import { clientsFor, describeOnBackends } from "../support/backend-suite.ts";
import { fixtureMigration } from "../support/fixture-migrations.ts";

/** This file's own migration, run after the product's. */
const FIXTURE = fixtureMigration("rest_rpc_overloads_fixture")`
create function public.ovl_area(w int, h int) returns text language sql immutable as $$ select 'rect ' || w * h $$;
create function public.ovl_area(r int) returns text language sql immutable as $$ select 'square ' || r * r $$;
create function public.ovl_greet(who text, greeting text default 'hello') returns text
  language sql immutable as $$ select greeting || ' ' || who $$;
-- Declared text first: PGRST203 still lists integer first, in PostgREST's order.
create function public.ovl_same(a text) returns text language sql immutable as $$ select 'text' $$;
create function public.ovl_same(a int) returns text language sql immutable as $$ select 'int' $$;
create function public.ovl_optional() returns text language sql immutable as $$ select 'none' $$;
create function public.ovl_optional(x text default 'd') returns text language sql immutable as $$ select x $$;
create function public.ovl_echo(jsonb) returns jsonb language sql immutable as $$ select $1 $$;
create function public.ovl_raw(text) returns text language sql immutable as $$ select $1 $$;
create function public.ovl_unnamed_int(int) returns int language sql immutable as $$ select $1 $$;
create function public.ovl_series(n int) returns table (v int) language sql immutable as $$
  select generate_series(1, n) $$;
`;

const AMBIGUOUS_HINT =
  "Try renaming the parameters or the function itself in the database so function overloading can be resolved";

describeOnBackends("rpc overload resolution on $title", FIXTURE, (b, { skip }) => {
  const { anon } = clientsFor(b);

  it.skipIf(skip)("chooses the overload whose parameters the argument names match, by POST and GET", async () => {
    expect((await anon.rpc("ovl_area", { w: 2, h: 3 })).data).toBe("rect 6");
    expect((await anon.rpc("ovl_area", { r: 4 })).data).toBe("square 16");
    expect((await anon.rpc("ovl_area", { r: 5 }, { get: true })).data).toBe("square 25");
    // Optional parameters may be left out or given.
    expect((await anon.rpc("ovl_greet", { who: "Ann" })).data).toBe("hello Ann");
    expect((await anon.rpc("ovl_greet", { who: "Ann", greeting: "hi" }, { get: true })).data).toBe("hi Ann");
    // In a GET, a parameter whose value starts with an operator filters the rows instead.
    const rows = await anon.rpc("ovl_series", { n: 4 }, { get: true }).gt("v", 2);
    expect(rows.error).toBeNull();
    expect(rows.data).toEqual([{ v: 3 }, { v: 4 }]);
  });

  it.skipIf(skip)("passes the whole body to a single unnamed json or text parameter", async () => {
    expect((await anon.rpc("ovl_echo", { any: [1, { two: 2 }] })).data).toEqual({ any: [1, { two: 2 }] });
    // An unnamed text parameter is reached with the key "" and receives the body's text.
    const raw = await anon.rpc("ovl_raw", { "": "x" });
    expect(raw.error).toBeNull();
    expect(JSON.parse(raw.data as string)).toEqual({ "": "x" });
  });

  it.skipIf(skip)("answers PGRST203 for overloads the names cannot tell apart, in PostgREST's order", async () => {
    const same = await anon.rpc("ovl_same", { a: "x" });
    expect(same.status).toBe(300);
    expect(same.error).toEqual({
      code: "PGRST203",
      details: null,
      hint: AMBIGUOUS_HINT,
      message:
        "Could not choose the best candidate function between: public.ovl_same(a => integer), public.ovl_same(a => text)",
    });
    const optional = await anon.rpc("ovl_optional");
    expect(optional.status).toBe(300);
    expect(optional.error).toMatchObject({
      code: "PGRST203",
      message:
        "Could not choose the best candidate function between: public.ovl_optional(), public.ovl_optional(x => text)",
    });
    expect((await anon.rpc("ovl_optional", { x: "given" })).data).toBe("given");
  });

  it.skipIf(skip)("answers PGRST202 with PostgREST's details and a hint from the closest parameters", async () => {
    const posted = await anon.rpc("ovl_area", { w: 1, z: 2 });
    expect(posted.status).toBe(404);
    expect(posted.error).toEqual({
      code: "PGRST202",
      message: "Could not find the function public.ovl_area(w, z) in the schema cache",
      details:
        "Searched for the function public.ovl_area with parameters w, z or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.",
      hint: "Perhaps you meant to call the function public.ovl_area(h, w)",
    });
    const got = await anon.rpc("ovl_greet", { greeting: "hi" }, { get: true });
    expect(got.error).toEqual({
      code: "PGRST202",
      message: "Could not find the function public.ovl_greet(greeting) in the schema cache",
      details:
        "Searched for the function public.ovl_greet with parameter greeting, but no matches were found in the schema cache.",
      hint: "Perhaps you meant to call the function public.ovl_greet(greeting, who)",
    });
  });

  it.skipIf(skip)(
    "answers PGRST202 for an unknown name, hinting only a close one, and for uncallable functions",
    async () => {
      const near = await anon.rpc("ovl_areas", { w: 1 });
      expect(near.error).toMatchObject({
        code: "PGRST202",
        message: "Could not find the function public.ovl_areas(w) in the schema cache",
        hint: "Perhaps you meant to call the function public.ovl_area",
      });
      const far = await anon.rpc("ovl_nothing_like_it");
      expect(far.error).toEqual({
        code: "PGRST202",
        message: "Could not find the function public.ovl_nothing_like_it without parameters in the schema cache",
        details:
          "Searched for the function public.ovl_nothing_like_it without parameters or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.",
        hint: null,
      });
      // A single unnamed parameter of another type cannot be called at all: PostgREST leaves it out.
      const unnamed = await anon.rpc("ovl_unnamed_int", { "": 1 });
      expect(unnamed.status).toBe(404);
      expect(unnamed.error).toMatchObject({
        code: "PGRST202",
        message: "Could not find the function public.ovl_unnamed_int() in the schema cache",
        details:
          "Searched for the function public.ovl_unnamed_int with parameter  or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.",
      });
    },
  );
});
