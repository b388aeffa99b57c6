// Request bodies of the REST service: JSON only, within the size limit, valid UTF-8, and for inserts
// one object or an array of objects whose keys are columns of the table.
import { parseBoundedJson, TOO_DEEP_MESSAGE } from "../../functions/_shared/bounded-json.ts";
import { readBody } from "../http.ts";
import { missingColumn } from "./build-sql.ts";
import type { Table } from "./catalog.ts";
import { invalidBody, restError, RestFailure } from "./errors.ts";
import { isJsonBody } from "./negotiate.ts";
import { MAX_INSERT_ROWS } from "./limits.ts";
import type { ParsedQuery } from "./parse-query.ts";

export type JsonBody = { text: string; value: unknown };

const decoder = new TextDecoder("utf-8", { fatal: true });

/** Reads and parses a JSON body within the size limit; `empty` stands in for a missing body. */
export async function jsonBody(req: Request, limit: number, empty?: string): Promise<JsonBody> {
  if (!isJsonBody(req.headers.get("content-type"))) {
    throw new RestFailure(
      restError(415, "PGRST107", `The request's Content-Type is not supported: ${req.headers.get("content-type")}`),
    );
  }
  const bytes = await readBody(req, limit);
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    throw new RestFailure(invalidBody("Empty or invalid json", "The body is not valid UTF-8"));
  }
  if (!text.trim() && empty !== undefined) text = empty;
  // Depth before parsing: a few kilobytes nested thousands of levels deep would otherwise reach
  // Postgres' json parser, which on PGlite overflows the WebAssembly stack (see db.ts).
  const parsed = parseBoundedJson(text);
  if (parsed.ok) return { text, value: parsed.value };
  if (parsed.reason === "too_deep") throw new RestFailure(invalidBody("Invalid body", TOO_DEEP_MESSAGE));
  let why = "not JSON";
  try {
    JSON.parse(text);
  } catch (e) {
    why = (e as Error).message;
  }
  throw new RestFailure(invalidBody("Empty or invalid json", why));
}

/** The rows of an insert body and the columns they fill, checked against the table. */
export function rowsOf(t: Table, raw: JsonBody, q: ParsedQuery): { rowsJson: string; columns: string[] } {
  const v = raw.value;
  const rows = Array.isArray(v) ? v : [v];
  if (!rows.every((x) => x !== null && typeof x === "object" && !Array.isArray(x))) {
    throw new RestFailure(invalidBody("Expected a JSON object or an array of JSON objects"));
  }
  // Refused before SQL: 15,000 small rows in one body held PGlite for seconds (decision 137).
  if (rows.length > MAX_INSERT_ROWS) {
    throw new RestFailure(
      restError(
        413,
        "PT413",
        "Too many rows in one request",
        `At most ${MAX_INSERT_ROWS} rows may be inserted at once.`,
      ),
    );
  }
  let columns = q.columns;
  if (!columns) {
    const keys = rows.length ? Object.keys(rows[0] as object) : [];
    const signature = [...keys].sort().join("\u0000");
    if (
      rows.some(
        (x) =>
          Object.keys(x as object)
            .sort()
            .join("\u0000") !== signature,
      )
    ) {
      throw new RestFailure(invalidBody("All object keys must match"));
    }
    columns = keys;
  }
  for (const c of columns) if (!t.byName.has(c)) throw new RestFailure(missingColumn(t, c));
  return { rowsJson: Array.isArray(v) ? raw.text : `[${raw.text}]`, columns };
}
