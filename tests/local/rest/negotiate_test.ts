// Prefer and Accept headers negotiated as PostgREST negotiates them.
import assert from "node:assert/strict";
import { negotiate, parsePrefer } from "../../../supabase/local/rest/negotiate.ts";

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
  assert.ok(csv.ok && csv.value.kind === "csv" && csv.value.contentType === "text/csv; charset=utf-8");
  const xml = negotiate("text/xml");
  assert.equal(!xml.ok && xml.error.status, 406);
  const preferred = negotiate("text/xml;q=1, application/vnd.pgrst.object+json;q=0.5");
  assert.ok(preferred.ok && preferred.value.kind === "object");
});
