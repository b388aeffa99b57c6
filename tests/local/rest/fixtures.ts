// Shared fixtures of the REST unit tests: a parsed query string, and a table as the catalog describes it.
import assert from "node:assert/strict";
import type { Column, Table } from "../../../supabase/local/rest/catalog.ts";
import { parseQuery } from "../../../supabase/local/rest/parse-query.ts";

export const parse = (qs: string, isArg?: (k: string) => boolean) => parseQuery(new URLSearchParams(qs), isArg);

export function parsed(qs: string) {
  const r = parse(qs);
  if (!r.ok) throw new Error(`expected ${qs} to parse: ${JSON.stringify(r.error)}`);
  return r.value;
}

export function refused(qs: string): string {
  const r = parse(qs);
  assert.equal(r.ok, false, `expected ${qs} to be refused`);
  return r.ok ? "" : r.error.code;
}

export const col = (name: string, type: string, base = type, category = "S", extra: Partial<Column> = {}): Column => ({
  name,
  type,
  base,
  category,
  generated: false,
  identity: false,
  default: null,
  ...extra,
});

export const columns = [
  col("id", "uuid", "uuid", "U", { default: "gen_random_uuid()" }),
  col("prompt", "text"),
  col("width", "integer", "int4", "N"),
  col("metadata", "jsonb", "jsonb", "U"),
  col("search", "tsvector", "tsvector", "U"),
  col("tags", "text[]", "_text", "A"),
];
export const table: Table = {
  name: "items",
  columns,
  byName: new Map(columns.map((c) => [c.name, c])),
  primaryKey: ["id"],
};
export const readOpts = { count: false, stripNulls: false, single: false, maxRows: 1000 };
