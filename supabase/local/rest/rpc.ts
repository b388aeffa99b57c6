// Calls of /rest/v1/rpc/<name>: choosing the overload of public.<name> whose argument names match the
// request (PostgREST's rules, including the single unnamed json parameter), converting the JSON
// arguments with jsonb_to_record so Postgres does every type conversion, and shaping the answer: a
// value for scalar functions, an object for a single row, an array (filterable like a table) for sets.
import { quoteIdent } from "../db.ts";
import { buildRead, Params, type ReadOptions, shapeSql, type Source, type Statement } from "./build-sql.ts";
import type { RpcFunction } from "./catalog.ts";
import { err, ok, restError, type Result } from "./errors.ts";
import type { ParsedQuery } from "./parse-query.ts";

export type Choice = { fn: RpcFunction; wholeBody: boolean };

const isJson = (base: string) => base === "json" || base === "jsonb";

/** Picks the function for these argument names, or answers PGRST202 / PGRST203 as PostgREST does. */
export function chooseFunction(name: string, candidates: RpcFunction[], argNames: string[]): Result<Choice> {
  const given = new Set(argNames);
  const matches: Choice[] = [];
  for (const fn of candidates) {
    const inputNames = new Set(fn.inputs.map((a) => a.name));
    const required = fn.inputs.slice(0, fn.inputs.length - fn.defaults);
    if ([...given].every((g) => inputNames.has(g)) && required.every((a) => given.has(a.name))) {
      matches.push({ fn, wholeBody: false });
    }
  }
  if (!matches.length) {
    const single = candidates.find(
      (fn) => fn.inputs.length === 1 && fn.inputs[0].name === "" && isJson(fn.inputs[0].base),
    );
    if (single) matches.push({ fn: single, wholeBody: true });
  }
  if (matches.length === 1) return ok(matches[0]);
  const sorted = [...argNames].sort();
  if (!matches.length) {
    const searched = sorted.length ?
      `with parameter${sorted.length > 1 ? "s" : ""} ${sorted.join(", ")}` :
      "without parameters";
    const signature = sorted.length ? `(${sorted.join(", ")})` : " without parameters";
    return err(
      restError(
        404,
        "PGRST202",
        `Could not find the function public.${name}${signature} in the schema cache`,
        `Searched for the function public.${name} ${searched} or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.`,
        candidates.length ?
          `Perhaps you meant to call the function public.${name}(${
            candidates[0].inputs.map((a) => a.name).join(", ")
          })` :
          null,
      ),
    );
  }
  const list = matches.map(({ fn }) => `public.${name}(${fn.inputs.map((a) => `${a.name} => ${a.type}`).join(", ")})`);
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
    call = `public.${quoteIdent(fn.name)}(${p.add(argsJson)}::${fn.inputs[0].base})`;
  } else {
    const used = fn.inputs.filter((a) => argNames.includes(a.name));
    call = `public.${quoteIdent(fn.name)}(${
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
        restError(400, "PGRST100", `public.${fn.name} returns ${returns}, so select, filters and order do not apply`),
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
  const src: Source = table ? { ...table, alias: "_t" } : fn;
  // The function runs once: its rows are materialized, then read (and counted) like a table.
  const prefix = `with _rows as materialized (select _t.* from ${from}) `;
  const read = buildRead(src, "_rows as _t", q, fn.returnsSet ? opts : { ...opts, single: true }, prefix, p);
  if (!read.ok) return read;
  return ok({ kind: fn.returnsSet ? "rows" : "object", ...read.value });
}

function isStar(q: ParsedQuery): boolean {
  return q.select !== null && q.select.length === 1 && q.select[0].kind === "star";
}
