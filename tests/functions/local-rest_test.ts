// The local backend's PostgREST language without a server: query-string parsing, header negotiation,
// overload choice for rpc, and the SQL built from them (names checked and quoted, values bound).
import assert from "node:assert/strict";
import { buildDelete, buildInsert, buildRead, buildUpdate, tableFrom } from "../../supabase/local/rest/build-sql.ts";
import type { Column, RpcFunction, Table } from "../../supabase/local/rest/catalogue.ts";
import { statusForSqlState } from "../../supabase/local/rest/errors.ts";
import { negotiate, parsePrefer } from "../../supabase/local/rest/negotiate.ts";
import type { Condition } from "../../supabase/local/rest/parse-filter.ts";
import { parseQuery } from "../../supabase/local/rest/parse-query.ts";
import { chooseFunction } from "../../supabase/local/rest/rpc.ts";

const parse = (qs: string, isArg?: (k: string) => boolean) => parseQuery(new URLSearchParams(qs), isArg);

function parsed(qs: string) {
  const r = parse(qs);
  if (!r.ok) throw new Error(`expected ${qs} to parse: ${JSON.stringify(r.error)}`);
  return r.value;
}

function refused(qs: string): string {
  const r = parse(qs);
  assert.equal(r.ok, false, `expected ${qs} to be refused`);
  return r.ok ? "" : r.error.code;
}

const col = (name: string, type: string, base = type, category = "S", extra: Partial<Column> = {}): Column => ({
  name,
  type,
  base,
  category,
  generated: false,
  identity: false,
  default: null,
  ...extra,
});

const columns = [
  col("id", "uuid", "uuid", "U", { default: "gen_random_uuid()" }),
  col("prompt", "text"),
  col("width", "integer", "int4", "N"),
  col("metadata", "jsonb", "jsonb", "U"),
  col("search", "tsvector", "tsvector", "U"),
  col("tags", "text[]", "_text", "A"),
];
const table: Table = { name: "items", columns, byName: new Map(columns.map((c) => [c.name, c])), primaryKey: ["id"] };
const readOpts = { count: false, stripNulls: false, single: false, maxRows: 1000 };

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

Deno.test("refuses embedding, aggregates and casts that are not type names", () => {
  assert.equal(refused("select=id,owner(*)"), "PGRST100");
  assert.equal(refused("select=...owner(name)"), "PGRST100");
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
  for (const qs of [
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
    "owner.name=eq.x",
  ]) {
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

Deno.test("builds reads that quote names and bind every value", () => {
  const hostile = "x'); drop table items; --";
  const q = parsed(
    `select=id,label:prompt&prompt=eq.${encodeURIComponent(
      hostile,
    )}&or=(width.gt.5,metadata->>k.ilike.*a*)&order=width.desc.nullsfirst&limit=5&offset=2`,
  );
  const r = buildRead(table, tableFrom(table), q, { ...readOpts, count: true });
  assert.ok(r.ok);
  if (!r.ok) return;
  assert.ok(!r.value.text.includes(hostile));
  assert.ok(r.value.params.includes(hostile));
  assert.ok(r.value.params.includes("%a%"), "like wildcards * become %");
  assert.ok(
    r.value.text.includes(
      'from public."items" as _t where _t."prompt" = $1 and (_t."width" > $2 or (_t."metadata"->>$3::text) ilike $4)',
    ),
  );
  assert.deepEqual(r.value.params.slice(0, 4), [hostile, "5", "k", "%a%"]);
  assert.match(r.value.text, /order by _t\."width" desc nulls first limit \$\d+ offset \$\d+/);
  assert.match(r.value.text, /\(select count\(\*\) from public\."items" as _t where /);
});

Deno.test("binds an in list as one array literal whatever its length or content", () => {
  const r = buildRead(table, tableFrom(table), parsed('prompt=in.(a,"b\\"c",d\\e,"{x}")'), readOpts);
  assert.ok(r.ok);
  if (!r.ok) return;
  assert.ok(r.value.text.includes('where _t."prompt" = any($1)'));
  assert.equal(r.value.params[0], '{"a","b\\"c","d\\\\e","{x}"}');
  const many = Array.from({ length: 70_000 }, (_, i) => i).join(",");
  const big = buildRead(table, tableFrom(table), parsed(`width=in.(${many})`), readOpts);
  assert.ok(big.ok && big.value.params.length === 2);
});

Deno.test("casts the extracted json value, not the key", () => {
  const r = buildRead(table, tableFrom(table), parsed("select=n:metadata->>n::int"), readOpts);
  assert.ok(r.ok && r.value.text.includes('select (_t."metadata"->>$1::text)::int as "n" from'));
});

Deno.test("checks every column before building", () => {
  for (const qs of ["select=nope", "nope=eq.1", "order=nope", "or=(nope.eq.1)", 'select="id"x']) {
    const q = parse(qs);
    if (!q.ok) continue;
    const r = buildRead(table, tableFrom(table), q.value, readOpts);
    assert.equal(r.ok, false, qs);
    if (!r.ok) assert.equal(r.error.code, "42703", qs);
  }
  const path = buildRead(table, tableFrom(table), parsed("select=prompt->>a"), readOpts);
  assert.equal(!path.ok && path.error.code, "PGRST100");
});

Deno.test("builds writes: minimal writes return no columns, missing=default uses column defaults", () => {
  const q = parsed("select=id");
  const minimal = buildInsert(
    table,
    q,
    { rowsJson: '[{"prompt":"a"}]', columns: ["id", "prompt"] },
    {
      representation: false,
      stripNulls: false,
      single: false,
      missingDefault: true,
      conflict: { mode: "merge", columns: null },
    },
  );
  assert.ok(minimal.ok);
  if (!minimal.ok) return;
  assert.match(minimal.value.text, /returning 1\)/);
  assert.match(minimal.value.text, /case when _e\.obj \? \$2::text then _r\."id" else gen_random_uuid\(\) end/);
  assert.match(
    minimal.value.text,
    /on conflict \("id"\) do update set "id" = excluded\."id", "prompt" = excluded\."prompt"/,
  );
  const unknown = buildInsert(
    table,
    q,
    { rowsJson: "[]", columns: ["nope"] },
    {
      representation: true,
      stripNulls: false,
      single: false,
      missingDefault: false,
    },
  );
  assert.equal(!unknown.ok && unknown.error.code, "PGRST204");
  const update = buildUpdate(table, parsed("id=eq.1"), '{"prompt":"b"}', ["prompt"], {
    representation: true,
    stripNulls: false,
    single: false,
  });
  assert.ok(update.ok && /update public\."items" as _t set "prompt" = _r\."prompt"/.test(update.value.text));
  const del = buildDelete(table, parsed("id=eq.1"), { representation: true, stripNulls: false, single: false });
  assert.ok(del.ok && /delete from public\."items" as _t where _t\."id" = \$1 returning _t\.\*/.test(del.value.text));
});

Deno.test("negotiates Prefer and Accept like PostgREST", () => {
  const p = parsePrefer("return=representation, count=exact,resolution=merge-duplicates, missing=default, tx=rollback");
  assert.ok(p.ok);
  if (p.ok) {
    assert.deepEqual(
      [p.value.return, p.value.count, p.value.resolution, p.value.missing],
      ["representation", "exact", "merge-duplicates", "default"],
    );
  }
  const strict = parsePrefer("handling=strict, bogus");
  assert.equal(!strict.ok && strict.error.code, "PGRST122");
  const one = negotiate("application/vnd.pgrst.object+json");
  assert.ok(one.ok && one.value.kind === "object");
  const stripped = negotiate("application/vnd.pgrst.array+json;nulls=stripped");
  assert.ok(stripped.ok && stripped.value.stripNulls);
  assert.ok(negotiate("*/*").ok && negotiate(null).ok);
  const csv = negotiate("text/csv");
  assert.equal(!csv.ok && csv.error.status, 406);
  const preferred = negotiate("text/csv;q=1, application/vnd.pgrst.object+json;q=0.5");
  assert.ok(preferred.ok && preferred.value.kind === "object");
});

Deno.test("chooses the rpc overload by argument names, else PGRST202 or PGRST203", () => {
  const fn = (inputs: string[], defaults = 0, types: string[] = inputs.map(() => "text")): RpcFunction => ({
    name: "f",
    inputs: inputs.map((name, i) => ({ name, type: types[i], base: types[i], mode: "i" })),
    defaults,
    returnsSet: false,
    volatility: "v",
    returns: "scalar",
    columns: [],
    byName: new Map(),
  });
  const a = fn(["a"]);
  const ab = fn(["a", "b"], 1);
  assert.equal(chooseFunction("f", [a, fn(["x"])], ["a"]).ok && true, true);
  const ambiguous = chooseFunction("f", [a, ab], ["a"]);
  assert.equal(!ambiguous.ok && ambiguous.error.code, "PGRST203");
  const both = chooseFunction("f", [a, ab], ["a", "b"]);
  assert.ok(both.ok && both.value.fn === ab);
  const missing = chooseFunction("f", [a], ["zz"]);
  assert.equal(!missing.ok && missing.error.message, "Could not find the function public.f(zz) in the schema cache");
  const none = chooseFunction("g", [], []);
  assert.equal(
    !none.ok && none.error.message,
    "Could not find the function public.g without parameters in the schema cache",
  );
  const whole = chooseFunction("f", [fn([""], 0, ["jsonb"])], ["anything"]);
  assert.ok(whole.ok && whole.value.wholeBody);
});

Deno.test("maps SQLSTATE codes to PostgREST's statuses", () => {
  const cases: Array<[string, boolean, number]> = [
    ["42501", true, 401],
    ["42501", false, 403],
    ["23505", false, 409],
    ["23503", false, 409],
    ["23514", false, 400],
    ["23502", false, 400],
    ["22P02", false, 400],
    ["P0001", false, 400],
    ["25006", false, 405],
    ["42883", false, 404],
    ["57014", false, 500],
    ["XX000", false, 500],
  ];
  for (const [code, anon, status] of cases) assert.equal(statusForSqlState(code, anon), status, code);
});
