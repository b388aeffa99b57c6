// The PostgREST query language without a server: select lists, filters, logic trees, order, paging
// and the write lists, each refused with PostgREST's code when malformed.
import assert from "node:assert/strict";
import type { Condition } from "../../../supabase/local/rest/parse-filter.ts";
import { parse, parsed, refused } from "./fixtures.ts";

Deno.test("parses select lists with aliases, casts and json paths", () => {
  const q = parsed("select=id,label:prompt,width::text,kind:metadata->>kind,metadata->a->0");
  assert.deepEqual(q.select, [
    { kind: "field", field: { name: "id", path: [] }, alias: undefined, cast: undefined },
    { kind: "field", field: { name: "prompt", path: [] }, alias: "label", cast: undefined },
    { kind: "field", field: { name: "width", path: [] }, alias: undefined, cast: "text" },
    {
      kind: "field",
      field: { name: "metadata", path: [{ arrow: "->>", key: "kind" }] },
      alias: "kind",
      cast: undefined,
    },
    {
      kind: "field",
      field: {
        name: "metadata",
        path: [
          { arrow: "->", key: "a" },
          { arrow: "->", key: 0 },
        ],
      },
      alias: undefined,
      cast: undefined,
    },
  ]);
  assert.deepEqual(parsed("select=*").select, [{ kind: "star" }]);
  assert.equal(parsed("").select, null);
});

Deno.test("parses embedded resources: aliases, hints, join marks, spreads and their parameters", () => {
  const q = parsed(
    "select=id,writer:authors!posts_author_fkey!inner(name,profiles(bio)),...editors(ed:name)&writer.name=eq.Ann&writer.profiles.limit=2&writer.order=name.desc&order=writer(name).desc&writer.not.or=(a.eq.1)",
  );
  assert.deepEqual(q.select?.[1], {
    kind: "embed",
    target: "authors",
    alias: "writer",
    hint: "posts_author_fkey",
    join: "inner",
    spread: false,
    select: [
      { kind: "field", field: { name: "name", path: [] }, alias: undefined, cast: undefined },
      {
        kind: "embed",
        target: "profiles",
        spread: false,
        select: [{ kind: "field", field: { name: "bio", path: [] }, alias: undefined, cast: undefined }],
      },
    ],
  });
  assert.equal(q.select?.[2].kind === "embed" && q.select[2].spread, true);
  assert.equal(q.embedded.get("writer")?.where.length, 2);
  assert.equal(q.embedded.get("writer")?.order[0].dir, "desc");
  assert.equal(q.embedded.get("writer.profiles")?.limit, 2);
  assert.deepEqual(q.order[0], { field: { name: "name", path: [] }, relation: "writer", dir: "desc" });
});

Deno.test("refuses malformed embeds, too deep embedding, aggregates and casts that are not type names", () => {
  assert.equal(refused("select=id,owner(*"), "PGRST100");
  assert.equal(refused("select=id,owner!a!b(*)"), "PGRST100");
  assert.equal(refused("select=...x:owner(name)"), "PGRST100");
  assert.equal(refused(`select=${"a(".repeat(12)}id${")".repeat(12)}`), "PGRST100");
  assert.equal(refused("a.order=b(c)"), "PGRST100");
  assert.equal(refused("select=count()"), "PGRST123");
  assert.equal(refused("select=id::text;drop table x"), "PGRST100");
  assert.equal(refused("select=id,,prompt"), "PGRST100");
});

Deno.test("parses horizontal filters with not, quantifiers, in lists and fts configs", () => {
  const q = parsed(
    'width=gte.5&prompt=not.ilike.*cat*&id=in.(a,"b,c",d)&search=wfts(english).red cat&prompt=like(any).{a*,b*}&tags=cs.{x,y}&width=is.NULL',
  );
  const [gte, ilike, inList, fts, any, cs, is] = q.where as Array<Extract<Condition, { kind: "filter" }>>;
  assert.deepEqual([gte.op, gte.value, gte.negate], ["gte", "5", false]);
  assert.deepEqual([ilike.op, ilike.value, ilike.negate], ["ilike", "*cat*", true]);
  assert.deepEqual(inList.values, ["a", "b,c", "d"]);
  assert.deepEqual([fts.op, fts.config, fts.value], ["wfts", "english", "red cat"]);
  assert.deepEqual([any.quantifier, any.value], ["any", "{a*,b*}"]);
  assert.deepEqual([cs.op, cs.value], ["cs", "{x,y}"]);
  assert.equal(is.value, "null");
});

Deno.test("parses nested logic trees with quoted values and lists", () => {
  const q = parsed('or=(prompt.eq."a,b",and(width.gt.1,not.or(id.in.(1,2),prompt.is.null)))');
  const root = q.where[0];
  assert.equal(root.kind, "logic");
  if (root.kind !== "logic") return;
  assert.equal(root.op, "or");
  const [first, nested] = root.children;
  assert.deepEqual(first.kind === "filter" && first.value, "a,b");
  assert.ok(nested.kind === "logic" && nested.op === "and");
  const inner = nested.kind === "logic" ? nested.children[1] : null;
  assert.ok(inner?.kind === "logic" && inner.negate && inner.op === "or");
  assert.deepEqual(inner?.kind === "logic" && inner.children[0].kind === "filter" && inner.children[0].values, [
    "1",
    "2",
  ]);
});

Deno.test("refuses malformed filters, trees, order and paging", () => {
  for (
    const qs of [
      "or=(a.eq.1",
      "or=a.eq.1",
      "and=(a.eq.1))",
      "or=()",
      "or=(a.eq.1,)",
      "a=foo.1",
      "a=1",
      "a=in.1",
      'a=in.("x)',
      "a=is.maybe",
      "a=eq(some).{1}",
      "a=eq(any).1",
      "order=a.up",
      "order=a.asc.desc",
      "order=a.nullsfirst.nullslast.asc",
      "limit=-1",
      "limit=1e3",
      "offset=x",
      'columns="a"x',
      "owner.name=zz.x",
      "owner..name=eq.x",
    ]
  ) {
    assert.equal(refused(qs), "PGRST100", qs);
  }
});

Deno.test("parses order terms, paging and the write lists", () => {
  const q = parsed(
    'order=created_at.desc.nullslast,prompt,metadata->>k.asc&limit=10&offset=20&columns="a","b"&on_conflict=user_id',
  );
  assert.deepEqual(
    q.order.map((o) => [o.field.name, o.dir, o.nulls]),
    [
      ["created_at", "desc", "last"],
      ["prompt", undefined, undefined],
      ["metadata", "asc", undefined],
    ],
  );
  assert.deepEqual([q.limit, q.offset, q.columns, q.onConflict], [10, 20, ["a", "b"], ["user_id"]]);
  assert.equal(parsed("limit=99999999999999999999999").limit, Number.MAX_SAFE_INTEGER);
});

Deno.test("takes GET rpc arguments apart from filters", () => {
  const q = parsed("apikey=k");
  assert.deepEqual(q.where, []);
  const r = parse("p_style=anime&width=gt.3", (k) => k === "p_style");
  assert.ok(r.ok);
  if (r.ok) {
    assert.deepEqual(r.value.args, { p_style: "anime" });
    assert.equal(r.value.where.length, 1);
  }
});
