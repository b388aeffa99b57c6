// The schemas the REST service exposes and the search path of its requests, as hosted Supabase
// configures PostgREST (db-schemas, db-extra-search-path) from supabase/config.toml's `[api] schemas` and
// `[api] extra_search_path`. The first exposed schema is the default; another is chosen per request with
// Accept-Profile (GET, HEAD) or Content-Profile (writes and rpc POST), and a schema not in the list is
// PGRST106, 406, as PostgREST answers it.
import { err, ok, restError, type Result } from "./errors.ts";

interface RestSchemas {
  exposed: string[];
  extraSearchPath: string[];
}

/** The Supabase CLI's defaults, for what the file leaves unset. */
const DEFAULT_REST_SCHEMAS: RestSchemas = {
  exposed: ["public", "graphql_public"],
  extraSearchPath: ["public", "extensions"],
};

/** A `key = ["a", "b"]` setting of one `[section]` of a config.toml, or undefined when absent. */
function tomlStringList(text: string, section: string, key: string): string[] | undefined {
  let inSection = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/#.*$/, "").trim();
    const header = /^\[\s*([^\]]+?)\s*\]$/.exec(line);
    if (header) {
      inSection = header[1] === section;
      continue;
    }
    const setting = inSection ? /^([A-Za-z0-9_]+)\s*=\s*\[(.*)\]$/.exec(line) : null;
    if (setting && setting[1] === key) {
      return [...setting[2].matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]);
    }
  }
  return undefined;
}

/** The REST schemas of a config.toml's text; an empty or missing list keeps the default. */
function restSchemasOf(toml: string): RestSchemas {
  const exposed = tomlStringList(toml, "api", "schemas")?.filter((s) => s !== "");
  const extra = tomlStringList(toml, "api", "extra_search_path");
  return {
    exposed: exposed?.length ? exposed : DEFAULT_REST_SCHEMAS.exposed,
    extraSearchPath: extra ?? DEFAULT_REST_SCHEMAS.extraSearchPath,
  };
}

/** Reads `file` (supabase/config.toml, or SUPABASE_CONFIG); the defaults when there is none. */
export function loadRestSchemas(file: string): RestSchemas {
  try {
    return restSchemasOf(Deno.readTextFileSync(file));
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return DEFAULT_REST_SCHEMAS;
    throw e;
  }
}

export interface Profile {
  schema: string;
  /** The schema was chosen by a profile header, or among several: the response names it (Content-Profile). */
  negotiated: boolean;
}

/**
 * The schema of a request, as PostgREST's getSchema picks it: GET and HEAD name it in Accept-Profile,
 * every other method in Content-Profile; without the header, the first exposed schema.
 */
export function requestProfile(req: Request, exposed: string[]): Result<Profile> {
  const header = req.method === "GET" || req.method === "HEAD" ? "accept-profile" : "content-profile";
  const asked = req.headers.get(header);
  if (asked === null) return ok({ schema: exposed[0], negotiated: exposed.length !== 1 });
  if (exposed.includes(asked)) return ok({ schema: asked, negotiated: true });
  return err(
    restError(
      406,
      "PGRST106",
      `Invalid schema: ${asked}`,
      null,
      `Only the following schemas are exposed: ${exposed.join(", ")}`,
    ),
  );
}

/** The request's search_path, as PostgREST sets it: its schema, then the extra search path. */
export function searchPathOf(schema: string, extra: string[]): string {
  return [schema, ...extra].map((s) => `"${s.replaceAll('"', '""')}"`).join(", ");
}
