// GET /rest/v1/: a small OpenAPI 2.0 description of the exposed tables and functions, the document
// PostgREST serves at its root (tools such as type generators and API explorers start from it).
import type { Catalog, Column } from "./catalog.ts";

const NUMERIC = new Set(["int2", "int4", "int8", "float4", "float8", "numeric", "oid"]);

function property(c: Column): Record<string, unknown> {
  const type = c.base === "bool" ?
    "boolean" :
    NUMERIC.has(c.base) ?
    c.base.startsWith("int") ? "integer" : "number" :
    c.category === "A" ?
    "array" :
    c.base === "json" || c.base === "jsonb" ?
    "object" :
    "string";
  return { type, format: c.type, ...(c.default !== null ? { default: c.default } : {}) };
}

export function openApi(c: Catalog, publicUrl: string): Record<string, unknown> {
  const url = new URL(publicUrl);
  const paths: Record<string, unknown> = { "/": { get: { summary: "OpenAPI description (this document)" } } };
  const definitions: Record<string, unknown> = {};
  for (const t of c.tables.values()) {
    paths[`/${t.name}`] = { get: {}, post: {}, patch: {}, delete: {} };
    definitions[t.name] = {
      type: "object",
      required: t.primaryKey,
      properties: Object.fromEntries(t.columns.map((col) => [col.name, property(col)])),
    };
  }
  for (const [name, fns] of c.functions) {
    paths[`/rpc/${name}`] = {
      post: { parameters: fns[0].inputs.map((a) => ({ name: a.name, format: a.type })) },
    };
  }
  return {
    swagger: "2.0",
    info: { title: "PostgREST API", description: "Local stand-in for Supabase's REST API", version: "local" },
    host: url.host,
    basePath: "/rest/v1",
    schemes: [url.protocol.replace(":", "")],
    consumes: ["application/json", "application/vnd.pgrst.object+json"],
    produces: ["application/json", "application/vnd.pgrst.object+json"],
    paths,
    definitions,
  };
}
