// The schema of each request and its search path, from the schemas hosted Supabase has PostgREST expose
// (db-schemas, db-extra-search-path: supabase/config.toml's `[api] schemas` and `[api] extra_search_path`,
// which config.ts reads). The first exposed schema is the default; another is chosen per request with
// Accept-Profile (GET, HEAD) or Content-Profile (writes and rpc POST), and a schema not in the list is
// PGRST106, 406, as PostgREST answers it.
import { err, ok, restError, type Result } from "./errors.ts";

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
