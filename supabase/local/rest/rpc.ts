// Calls of /rest/v1/rpc/<name>: choosing the overload of <schema>.<name> whose argument names match the
// request (PostgREST's rules, including the single unnamed json parameter), converting the JSON
// arguments with jsonb_to_record so Postgres does every type conversion, and shaping the answer: a
// value for scalar functions, an object for a single row, an array (filterable like a table) for sets.
import { quoteIdent } from "../db.ts";
import { buildRead, Params, type ReadOptions, shapeSql, type Source, type Statement, tableSql } from "./build-sql.ts";
import type { RpcFunction } from "./catalog.ts";
import { err, ok, restError, type Result } from "./errors.ts";
import { closestMatch, NAME_HINT_SCORE, PARAMS_HINT_SCORE } from "./fuzzy.ts";
import type { ParsedQuery } from "./parse-query.ts";

export type Choice = { fn: RpcFunction; wholeBody: boolean };

interface ChooseOptions {
  /** The schema the function is looked up in, for the errors' wording. */
  schema?: string;
  /** The call is a POST with a JSON body, which may also reach a single json/jsonb parameter whole. */
  post?: boolean;
  /** Every function name of the schema, for the hint of an unknown name. */
  names?: Iterable<string>;
}

/**
 * Whether `keys` call `fn` by name, as PostgREST's findProc decides: exactly the required inputs,
 * plus any of the optional ones (those with defaults); no inputs, no keys.
 */
function matchesParams(fn: RpcFunction, keys: Set<string>): boolean {
  const required = fn.inputs.slice(0, fn.inputs.length - fn.defaults).map((a) => a.name);
  const optional = new Set(fn.inputs.slice(fn.inputs.length - fn.defaults).map((a) => a.name));
  const rest = [...keys].filter((k) => !optional.has(k));
  return rest.length === required.length && required.every((r) => keys.has(r));
}

/**
 * Picks the overload of `name` for these argument names, or answers PGRST202 / PGRST203 worded as
 * PostgREST's (Plan.hs findProc, Error.hs). Overloads matching by name win; failing those, a POST may
 * reach the one function taking a single json or jsonb parameter. A single unnamed parameter gets the
 * whole body; any other single parameter only the arguments named after it.
 */
export function chooseFunction(
  name: string,
  candidates: RpcFunction[],
  argNames: string[],
  opts: ChooseOptions = {},
): Result<Choice> {
  const { schema = "public", post = true } = opts;
  const keys = new Set(argNames);
  const named = candidates.filter((fn) => matchesParams(fn, keys));
  const fallback = post ?
    candidates.filter((fn) =>
      !matchesParams(fn, keys) && fn.inputs.length === 1 && ["json", "jsonb"].includes(fn.inputs[0].type)
    ) :
    [];
  const matches = named.length ? named : fallback;
  if (matches.length === 1) {
    const fn = matches[0];
    return ok({ fn, wholeBody: fn.inputs.length === 1 && fn.inputs[0].name === "" });
  }
  if (!matches.length) return err(noFunction(schema, name, argNames, candidates, post, opts.names ?? []));
  const list = matches.map((fn) => `${schema}.${name}(${fn.inputs.map((a) => `${a.name} => ${a.type}`).join(", ")})`);
  return err(
    restError(
      300,
      "PGRST203",
      `Could not choose the best candidate function between: ${list.join(", ")}`,
      null,
      "Try renaming the parameters or the function itself in the database so function overloading can be resolved",
    ),
  );
}

/** PGRST202 as PostgREST words it, with its fuzzy hint (see fuzzy.ts for the thresholds). */
function noFunction(
  schema: string,
  name: string,
  argNames: string[],
  overloads: RpcFunction[],
  post: boolean,
  names: Iterable<string>,
) {
  const sorted = [...new Set(argNames)].sort();
  const params = sorted.length ?
    ` with parameter${sorted.length > 1 ? "s" : ""} ${sorted.join(", ")}` :
    " without parameters";
  const signature = sorted.length ? `(${sorted.join(", ")})` : " without parameters";
  const asList = (list: string[]) => `(${[...list].sort().join(", ")})`;
  const near = overloads.length ?
    closestMatch(asList(sorted), overloads.map((fn) => asList(fn.inputs.map((a) => a.name))), PARAMS_HINT_SCORE) :
    closestMatch(name, names, NAME_HINT_SCORE);
  return restError(
    404,
    "PGRST202",
    `Could not find the function ${schema}.${name}${signature} in the schema cache`,
    `Searched for the function ${schema}.${name}${params}${
      post ? " or with a single unnamed json/jsonb parameter" : ""
    }, but no matches were found in the schema cache.`,
    near === null ? null : `Perhaps you meant to call the function ${schema}.${overloads.length ? name : ""}${near}`,
  );
}

export interface RpcStatement extends Statement {
  /** How to read the answer: a bare value, one row as an object, or rows as an array. */
  kind: "void" | "value" | "object" | "rows";
}

/**
 * Builds the call. `argsJson` is the JSON object of arguments (the body, or the query parameters of a
 * GET); for a single unnamed json parameter it is passed whole.
 */
export function buildCall(
  choice: Choice,
  argsJson: string,
  argNames: string[],
  q: ParsedQuery,
  opts: ReadOptions,
): Result<RpcStatement> {
  const { fn } = choice;
  const p = new Params();
  let call: string;
  let argsFrom = "";
  if (choice.wholeBody) {
    call = `${tableSql(fn)}(${p.add(argsJson)}::${fn.inputs[0].type})`;
  } else {
    const used = fn.inputs.filter((a) => argNames.includes(a.name));
    call = `${tableSql(fn)}(${
      used
        .map((a) => `${quoteIdent(a.name)} => _a.${quoteIdent(a.name)}`)
        .join(", ")
    })`;
    if (used.length) {
      const defs = used.map((a) => `${quoteIdent(a.name)} ${a.type}`).join(", ");
      argsFrom = `jsonb_to_record(${p.add(argsJson)}::jsonb) as _a(${defs})`;
    }
  }
  const hasFilters = q.where.length > 0 || q.order.length > 0 || (q.select !== null && !isStar(q));
  if (fn.returns === "void" || fn.returns === "scalar") {
    if (hasFilters) {
      const returns = fn.returns === "void" ? "nothing" : "scalar values";
      return err(
        restError(
          400,
          "PGRST100",
          `${fn.schema ?? "public"}.${fn.name} returns ${returns}, so select, filters and order do not apply`,
        ),
      );
    }
    const from = argsFrom ? ` from ${argsFrom}` : "";
    if (fn.returns === "void") return ok({ kind: "void", text: `select ${call}${from}`, params: p.list });
    if (!fn.returnsSet) {
      return ok({ kind: "value", text: `select to_json(${call})::text as body${from}`, params: p.list });
    }
    const limit = q.limit !== undefined ? ` limit ${p.add(String(q.limit))}` : "";
    const offset = q.offset ? ` offset ${p.add(String(q.offset))}` : "";
    const total = opts.count ? ", (select count(*) from _rows) as total" : "";
    const text = `with _rows as materialized (select ${call} as _v${from}) ` +
      shapeSql(`select _v from _rows${limit}${offset}`, opts, total, "_s._v");
    return ok({ kind: "rows", text, params: p.list });
  }
  const from = argsFrom ? `${argsFrom} cross join lateral ${call} as _t` : `${call} as _t`;
  // A function returning a table's rows reads like that table: its relationships embed (PostgREST's
  // funcTableName), and its columns are named after the table in errors.
  const table = fn.returnTable === undefined ? undefined : opts.catalog?.tables.get(fn.returnTable);
  const src: Source = table ? { ...table, alias: "_t", rowType: tableSql(table) } : fn;
  // The function runs once: its rows are materialized, then read (and counted) like a table.
  const prefix = `with _rows as materialized (select _t.* from ${from}) `;
  const read = buildRead(src, "_rows as _t", q, fn.returnsSet ? opts : { ...opts, single: true }, prefix, p);
  if (!read.ok) return read;
  return ok({ kind: fn.returnsSet ? "rows" : "object", ...read.value });
}

function isStar(q: ParsedQuery): boolean {
  return q.select !== null && q.select.length === 1 && q.select[0].kind === "star";
}
