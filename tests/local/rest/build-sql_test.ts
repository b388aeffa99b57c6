// The SQL built from a parsed request: every name checked against the catalog and quoted, every value
// a bound parameter.
import assert from "node:assert/strict";
import { buildDelete, buildInsert, buildRead, buildUpdate, tableFrom } from "../../../supabase/local/rest/build-sql.ts";
import { parse, parsed, readOpts, table } from "./fixtures.ts";

Deno.test("builds reads that quote names and bind every value", () => {
  const hostile = "x'); drop table items; --";
  const q = parsed(
    `select=id,label:prompt&prompt=eq.${
      encodeURIComponent(
        hostile,
      )
    }&or=(width.gt.5,metadata->>k.ilike.*a*)&order=width.desc.nullsfirst&limit=5&offset=2`,
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
  // As long as the query-string bound allows (limits.ts): 10,000 values still bind as one parameter.
  const many = Array.from({ length: 10_000 }, (_, i) => i).join(",");
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
