// PostgREST's query-string language, parsed into a small tree: select lists, horizontal filters with
// `not.` and logic trees (`or=(a.eq.1,and(b.gt.2,c.is.null))`), order, limit/offset, and the
// `columns` / `on_conflict` lists of writes. Pure: names are checked against the catalog later, and
// every value stays a string that build-sql binds as a parameter.
import { err, ok, parseError, restError, type Result } from "./errors.ts";
import { type Field, parseField } from "./parse-field.ts";
import { type Condition, parseFilter, parseLogicTree } from "./parse-filter.ts";
import { indexOutsideQuotes, splitTopLevel, unquote, unquotedPart } from "./text-scan.ts";

export type SelectItem = { kind: "star" } | { kind: "field"; field: Field; alias?: string; cast?: string };

export type OrderTerm = { field: Field; dir?: "asc" | "desc"; nulls?: "first" | "last" };

export interface ParsedQuery {
  /** Null when the request had no `select` parameter (PostgREST then selects `*`). */
  select: SelectItem[] | null;
  where: Condition[];
  order: OrderTerm[];
  limit?: number;
  offset?: number;
  columns?: string[];
  onConflict?: string[];
  /** Parameters that are neither reserved nor filters: rpc arguments of GET/HEAD calls. */
  args: Record<string, string>;
}

const EMBEDDING_UNSUPPORTED = "Resource embedding is not supported by this server; query each table separately";

/**
 * Parses the query string. `isArg` tells which parameter names are rpc arguments (GET rpc); for a
 * table it always answers false, so every unknown parameter is a filter.
 */
export function parseQuery(
  params: URLSearchParams,
  isArg: (name: string) => boolean = () => false,
): Result<ParsedQuery> {
  const q: ParsedQuery = { select: null, where: [], order: [], args: {} };
  for (const [key, value] of params) {
    const r = parseParam(q, key, value, isArg);
    if (!r.ok) return r;
  }
  return ok(q);
}

function parseParam(q: ParsedQuery, key: string, value: string, isArg: (name: string) => boolean): Result<unknown> {
  switch (key) {
    case "apikey":
      return ok(null);
    case "select": {
      const r = parseSelect(value);
      if (!r.ok) return r;
      q.select = r.value;
      return r;
    }
    case "order": {
      const r = parseOrder(value);
      if (!r.ok) return r;
      q.order.push(...r.value);
      return r;
    }
    case "limit":
    case "offset": {
      const r = parseNonNegative(key, value);
      if (!r.ok) return r;
      q[key] = r.value;
      return r;
    }
    case "columns":
    case "on_conflict": {
      const r = parseNameList(key, value);
      if (!r.ok) return r;
      if (key === "columns") q.columns = r.value;
      else q.onConflict = r.value;
      return r;
    }
    case "or":
    case "and":
    case "not.or":
    case "not.and": {
      const r = parseLogicTree(key, value);
      if (!r.ok) return r;
      q.where.push(r.value);
      return r;
    }
  }
  if (isArg(key)) {
    q.args[key] = value;
    return ok(null);
  }
  if (key.includes(".") && !key.startsWith('"')) {
    return err(restError(400, "PGRST100", EMBEDDING_UNSUPPORTED, `Unsupported parameter: ${key}`));
  }
  const field = parseField(key);
  if (!field.ok) return field;
  const f = parseFilter(field.value, value);
  if (!f.ok) return f;
  q.where.push(f.value);
  return f;
}

function parseNonNegative(what: string, raw: string): Result<number> {
  const s = raw.trim();
  if (!/^\d+$/.test(s)) return err(parseError(`${what} parameter (${raw})`, "expected a non-negative integer"));
  // Beyond 2^53 every table is smaller than the limit anyway; clamping keeps the number exact.
  return ok(Math.min(Number(s), Number.MAX_SAFE_INTEGER));
}

function parseNameList(what: string, raw: string): Result<string[]> {
  const parts = splitTopLevel(raw);
  if (!parts.ok) return err(parseError(`${what} (${raw})`, parts.error));
  const names: string[] = [];
  for (const p of parts.value) {
    const s = p.trim();
    const name = s.startsWith('"') ? unquote(s) : s;
    if (name === null || name === "") return err(parseError(`${what} (${raw})`, "expected a list of column names"));
    names.push(name);
  }
  return ok(names);
}

// ------------------------------------------------------------------------------------------- select

export function parseSelect(raw: string): Result<SelectItem[]> {
  if (raw.trim() === "") return ok([]);
  const parts = splitTopLevel(raw);
  if (!parts.ok) return err(parseError(`select (${raw})`, parts.error));
  const items: SelectItem[] = [];
  for (const part of parts.value) {
    const s = part.trim();
    if (s === "*") {
      items.push({ kind: "star" });
      continue;
    }
    if (s === "") return err(parseError(`select (${raw})`, "empty item in the select list"));
    if (/\b(count|sum|avg|min|max)\(\)/.test(s)) {
      return err(restError(400, "PGRST123", "Use of aggregate functions is not allowed", null, null));
    }
    if (s.includes("(") || s.startsWith("...") || /!/.test(unquotedPart(s))) {
      return err(restError(400, "PGRST100", EMBEDDING_UNSUPPORTED, `Unsupported select item: ${s}`));
    }
    const item = parseSelectItem(s);
    if (!item.ok) return err(parseError(`select (${raw})`, item.error));
    items.push(item.value);
  }
  return ok(items);
}

function parseSelectItem(s: string): { ok: true; value: SelectItem } | { ok: false; error: string } {
  let alias: string | undefined;
  let rest = s;
  const aliasAt = findAliasColon(s);
  if (aliasAt >= 0) {
    const a = s.slice(0, aliasAt).trim();
    alias = a.startsWith('"') ? (unquote(a) ?? "") : a;
    if (!alias) return { ok: false, error: `empty alias in "${s}"` };
    rest = s.slice(aliasAt + 1);
  }
  let cast: string | undefined;
  const castAt = indexOutsideQuotes(rest, "::");
  if (castAt >= 0) {
    cast = rest.slice(castAt + 2).trim();
    rest = rest.slice(0, castAt);
    if (!/^[A-Za-z_][A-Za-z0-9_]*(\[\])?$/.test(cast)) return { ok: false, error: `invalid cast "${cast}"` };
  }
  const field = parseField(rest);
  if (!field.ok) return { ok: false, error: field.error.details ?? field.error.message };
  return { ok: true, value: { kind: "field", field: field.value, alias, cast } };
}

/** The index of the alias colon (`alias:col`), ignoring `::` casts and quoted text; -1 when none. */
function findAliasColon(s: string): number {
  let inQuote = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === "\\" && inQuote) i++;
    else if (c === '"') inQuote = !inQuote;
    else if (!inQuote && c === ":") {
      if (s[i + 1] === ":") return -1;
      return i;
    }
  }
  return -1;
}

// -------------------------------------------------------------------------------------------- order

export function parseOrder(raw: string): Result<OrderTerm[]> {
  const parts = splitTopLevel(raw);
  if (!parts.ok) return err(parseError(`order (${raw})`, parts.error));
  const terms: OrderTerm[] = [];
  for (const part of parts.value) {
    const s = part.trim();
    if (s.includes("(")) {
      return err(restError(400, "PGRST100", EMBEDDING_UNSUPPORTED, `Unsupported order term: ${s}`));
    }
    const pieces = s.split(".");
    const field = parseField(pieces[0]);
    if (!field.ok) return err(parseError(`order (${raw})`, `expected a column name in "${s}"`));
    const term: OrderTerm = { field: field.value };
    const mods = pieces.slice(1);
    if (mods.length > 2) return err(parseError(`order (${raw})`, `too many modifiers in "${s}"`));
    for (const [i, m] of mods.entries()) {
      if ((m === "asc" || m === "desc") && i === 0) term.dir = m;
      else if ((m === "nullsfirst" || m === "nullslast") && term.nulls === undefined) {
        term.nulls = m === "nullsfirst" ? "first" : "last";
      } else {
        return err(parseError(`order (${raw})`, `unexpected "${m}", expecting asc, desc, nullsfirst or nullslast`));
      }
    }
    terms.push(term);
  }
  return ok(terms);
}
