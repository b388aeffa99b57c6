// Bounds on what one REST request may ask for, stated once. PostgREST has none of these and passes
// such requests to Postgres, which answers 5xx (54001 stack depth, 54011 too many columns, or on PGlite a
// broken instance): the local backend refuses them first with a 4xx, stricter than hosted and never
// more lenient. Each bound is far above what supabase-js or this product's app ever sends.
import { JSON_MAX_DEPTH, jsonDepth, TOO_DEEP_MESSAGE } from "../../functions/_shared/bounded-json.ts";

/** Characters of the query string's names and values (decoded): a 10,000-value `in` list fits, and a
 * longer one is answered here before the HTTP server's own limit on the request head (about 64 KiB). */
export const MAX_QUERY_LENGTH = 57_344;
/** Items in `select` (Postgres allows 1664 columns in a target list). */
export const MAX_SELECT_ITEMS = 256;
/** Levels of resource embedding (`a(b(c(…)))`), and the embedded resources of one request. */
export const MAX_EMBED_DEPTH = 8;
export const MAX_EMBEDS = 32;
/** Filters of a request, counting each one inside logic trees. */
export const MAX_FILTERS = 128;
/** Terms of `order`. */
export const MAX_ORDER_TERMS = 32;
/** Names in `columns` or `on_conflict`. */
export const MAX_NAME_LIST = 256;
/** `->`/`->>` steps of one JSON path (`metadata->a->b`). */
export const MAX_JSON_PATH = 16;
/** Rows of one insert or upsert (an analytics table takes fewer: its trigger refuses past 100, PT413). */
export const MAX_INSERT_ROWS = 1_000;
/** Nesting of `[`/`{` in a filter value or rpc argument (a JSON value or an array literal `{{…}}`). */
export const MAX_VALUE_DEPTH = JSON_MAX_DEPTH;

/** Why a filter value or argument nests too deeply to be passed to Postgres, or null when it may be. */
export function tooDeep(value: string): string | null {
  return jsonDepth(value, MAX_VALUE_DEPTH) > MAX_VALUE_DEPTH ? TOO_DEEP_MESSAGE : null;
}
