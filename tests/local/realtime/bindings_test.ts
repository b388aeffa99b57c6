// postgres_changes bindings as Supabase Realtime parses, checks and applies them: comma-joined filters
// (all must hold), `not.`, the operators like, ilike, is, match, imatch and isdistinct beside eq…in,
// and `select`; the join-time checks run on an in-memory PGlite.
import assert from "node:assert/strict";
import { openDb } from "../../../supabase/local/db.ts";
import { checkBinding } from "../../../supabase/local/realtime/binding-check.ts";
import {
  type Binding,
  type Filter,
  filterMatches,
  parseBinding,
  parseFilters,
  type RegexTest,
} from "../../../supabase/local/realtime/bindings.ts";
import { createCatalog } from "../../../supabase/local/realtime/catalog.ts";

Deno.test("filters: segments joined by commas outside parentheses and quotes; not. negates", () => {
  assert.deepEqual(parseFilters("id=gt.0,id=lt.100"), [
    { column: "id", op: "gt", values: ["0"], negate: false },
    { column: "id", op: "lt", values: ["100"], negate: false },
  ]);
  assert.deepEqual(parseFilters("status=not.in.(draft,archived)"), [
    { column: "status", op: "in", values: ["draft", "archived"], negate: true },
  ]);
  assert.deepEqual(parseFilters('name=eq."a,b",tag=in.("x,y", z)'), [
    { column: "name", op: "eq", values: ["a,b"], negate: false },
    { column: "tag", op: "in", values: ["x,y", "z"], negate: false },
  ]);
  assert.deepEqual(parseFilters("title=like.%foo%"), [{
    column: "title",
    op: "like",
    values: ["%foo%"],
    negate: false,
  }]);
  assert.deepEqual(parseFilters("   "), []);
  assert.equal(parseFilters("subject=foo.hey"), '["foo","hey"]');
  assert.equal(parseFilters("undefined"), '["undefined"]');
  assert.equal(parseFilters("a=eq.1,,b=eq.2"), "filter must not contain empty segments (check for extra commas)");
  assert.equal(parseFilters("a=in.1,2"), "`in` filter value must be wrapped by parentheses");
});

Deno.test("bindings: select is a list of names, refused as a string and on a wildcard table", () => {
  const b = parseBinding({ event: "INSERT", schema: "public", table: "t", select: ["body"] }, 7) as Binding;
  assert.deepEqual(b.select, ["body"]);
  assert.deepEqual(b.echo, { id: 7, event: "INSERT", schema: "public", table: "t" });
  assert.match(
    String(parseBinding({ event: "*", schema: "public", table: "t", select: "body" }, 1)),
    /expected a list/,
  );
  assert.match(
    String(parseBinding({ event: "*", schema: "public", select: ["body"] }, 1)),
    /not supported for wildcard subscriptions/,
  );
  assert.match(
    String(parseBinding({ event: "*", schema: "public", table: "t", filter: "x=foo.1" }, 1)),
    /^Error parsing/,
  );
});

Deno.test("operators: as Postgres evaluates them; a NULL passes nothing but is and isdistinct", async () => {
  const regex: RegexTest = (value, pattern, insensitive) =>
    Promise.resolve(new RegExp(pattern, insensitive ? "i" : "").test(value));
  const holds = (text: string, record: Record<string, unknown>, type = "text") =>
    filterMatches((parseFilters(text) as Filter[])[0], record, type, regex);
  assert.equal(await holds("t=like.ab%", { t: "abc" }), true);
  assert.equal(await holds("t=like.a_c", { t: "abc" }), true);
  assert.equal(await holds("t=like.A%", { t: "abc" }), false);
  assert.equal(await holds("t=ilike.A%", { t: "abc" }), true);
  assert.equal(await holds("t=like.100\\%", { t: "100%" }), true);
  assert.equal(await holds("t=like.a.c", { t: "abc" }), false);
  assert.equal(await holds("t=not.like.ab%", { t: "abc" }), false);
  assert.equal(await holds("t=match.^a", { t: "abc" }), true);
  assert.equal(await holds("t=imatch.^A", { t: "abc" }), true);
  assert.equal(await holds("t=is.null", { t: null }), true);
  assert.equal(await holds("t=not.is.null", { t: null }), false);
  assert.equal(await holds("b=is.true", { b: true }, "bool"), true);
  assert.equal(await holds("b=is.false", { b: null }, "bool"), false);
  assert.equal(await holds("b=is.unknown", { b: null }, "bool"), true);
  assert.equal(await holds("n=isdistinct.5", { n: null }, "int4"), true);
  assert.equal(await holds("n=isdistinct.5", { n: 5 }, "int4"), false);
  assert.equal(await holds("n=not.isdistinct.5", { n: 5 }, "int4"), true);
  // NULL = 5 is NULL, and so is NOT (NULL = 5): neither passes.
  assert.equal(await holds("n=eq.5", { n: null }, "int4"), false);
  assert.equal(await holds("n=not.eq.5", { n: null }, "int4"), false);
  assert.equal(await holds("n=not.eq.5", { n: 6 }, "int4"), true);
  assert.equal(await holds("n=not.in.(1,2)", { n: 3 }, "int4"), true);
  assert.equal(await holds("n=gte.10", { n: 9.5 }, "numeric"), false);
});

Deno.test("join-time checks for the subscriber's role, with hosted's sentences", async () => {
  const db = await openDb({});
  await db.exec(`
    create role anon; create role authenticated; create role service_role;
    create table public.notes (id int primary key, body text, done boolean, secret text, n int);
    grant select (id, body, done, n) on public.notes to authenticated;
    grant select on public.notes to service_role;
  `);
  const deps = { db, catalog: createCatalog(db), published: new Set(["public.notes"]) };
  const check = (role: string, fields: Record<string, unknown>) =>
    checkBinding(
      parseBinding({ event: "INSERT", schema: "public", table: "notes", ...fields }, 1) as Binding,
      role,
      deps,
    );
  const exception = (role: string, fields: Record<string, unknown>) =>
    check(role, fields).then((m) => m?.split("Exception: ")[1] ?? m);
  assert.equal(
    await check("authenticated", { filter: "body=like.a%,done=is.true,n=not.in.(1,2),body=imatch.^x" }),
    null,
  );
  assert.equal(await check("authenticated", { select: ["body"] }), null);
  assert.equal(await exception("authenticated", { filter: "secret=eq.x" }), "invalid column for filter secret");
  assert.equal(await check("service_role", { filter: "secret=eq.x" }), null);
  assert.equal(await exception("authenticated", { select: ["secret"] }), "invalid column for select secret");
  assert.match(
    String(await exception("authenticated", { filter: "n=eq.abc" })),
    /invalid input syntax for type integer/,
  );
  assert.equal(
    await exception("authenticated", { filter: "body=is.true" }),
    "is true filter requires a boolean column, got text",
  );
  assert.equal(
    await exception("authenticated", { filter: "body=is.maybe" }),
    "invalid value for is filter: must be null, true, false, or unknown",
  );
  assert.equal(
    await exception("authenticated", { filter: "n=like.1%" }),
    "operator like requires a text-compatible column type, got integer",
  );
  assert.match(
    String(await exception("authenticated", { filter: "body=match.(" })),
    /^invalid regular expression for match filter/,
  );
  const many = Array.from({ length: 101 }, (_, i) => i).join(",");
  assert.equal(
    await exception("authenticated", { filter: `n=in.(${many})` }),
    "too many values for `in` filter. Maximum 100",
  );
  const refused = await check("authenticated", { filter: "n=eq.abc" });
  assert.ok(
    refused?.startsWith(
      'Unable to subscribe to changes with given parameters. An exception happened so please check your connect parameters: [event: "INSERT", schema: "public", table: "notes", filters: [{"n", "eq", "abc", false}], select: nil]. Exception: ',
    ),
    refused ?? "",
  );
  assert.match(String(await check("authenticated", { table: "other" })), /Please check Realtime is enabled/);
  await db.close();
});
