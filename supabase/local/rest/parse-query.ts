// PostgREST's query-string language, parsed into a small tree: select lists, horizontal filters with
// `not.` and logic trees (`or=(a.eq.1,and(b.gt.2,c.is.null))`), order, limit/offset, and the
// `columns` / `on_conflict` lists of writes. Pure: names are checked against the catalogue later, and
// every value stays a string that build-sql binds as a parameter.
import { err, ok, parseError, restError, type Result } from "./errors.ts";

export type JsonStep = { arrow: "->" | "->>"; key: string | number };
export type Field = { name: string; path: JsonStep[] };

export type SelectItem =
  | { kind: "star" }
  | { kind: "field"; field: Field; alias?: string; cast?: string };

export const OPERATORS = [
  "eq", "neq", "gt", "gte", "lt", "lte", "like", "ilike", "match", "imatch", "in", "is", "isdistinct",
  "fts", "plfts", "phfts", "wfts", "cs", "cd", "ov", "sl", "sr", "nxr", "nxl", "adj",
] as const;
export type Operator = (typeof OPERATORS)[number];

const QUANTIFIABLE = new Set<Operator>(["eq", "gt", "gte", "lt", "lte", "like", "ilike", "match", "imatch"]);
const FTS = new Set<Operator>(["fts", "plfts", "phfts", "wfts"]);
const IS_VALUES = new Set(["null", "not_null", "true", "false", "unknown"]);

export type Filter = {
  kind: "filter";
  field: Field;
  negate: boolean;
  op: Operator;
  /** The raw value; for `in` the parsed list is in `values`, for `is` it is lower-cased. */
  value: string;
  values?: string[];
  quantifier?: "any" | "all";
  /** Text-search configuration of fts operators, e.g. `fts(english)`. */
  config?: string;
};
export type Logic = { kind: "logic"; op: "and" | "or"; negate: boolean; children: Condition[] };
export type Condition = Filter | Logic;

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

const RESERVED = new Set(["select", "order", "limit", "offset", "columns", "on_conflict", "apikey"]);

const EMBEDDING_UNSUPPORTED =
  "Resource embedding is not supported by this server; query each table separately";

/**
 * Parses the query string. `isArg` tells which parameter names are rpc arguments (GET rpc); for a
 * table it always answers false, so every unknown parameter is a filter.
 */
export function parseQuery(params: URLSearchParams, isArg: (name: string) => boolean = () => false): Result<ParsedQuery> {
  const q: ParsedQuery = { select: null, where: [], order: [], args: {} };
  for (const [key, value] of params) {
    const r = parseParam(q, key, value, isArg);
    if (!r.ok) return r;
  }
  return ok(q);
}

function parseParam(
  q: ParsedQuery,
  key: string,
  value: string,
  isArg: (name: string) => boolean,
): Result<unknown> {
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
      const r = parseLogicParam(key, value);
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
  const f = parseOperation(field.value, value);
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

// ------------------------------------------------------------------------------------------- fields

/** `name`, `"quoted name"`, `json_col->key->>0`. */
export function parseField(raw: string): Result<Field> {
  const s = raw.trim();
  let name: string;
  let rest: string;
  if (s.startsWith('"')) {
    const end = closingQuote(s, 0);
    if (end < 0) return err(parseError(`field (${raw})`, "unterminated quoted name"));
    name = unescapeQuoted(s.slice(1, end));
    rest = s.slice(end + 1);
  } else {
    const i = s.indexOf("->");
    name = i < 0 ? s : s.slice(0, i);
    rest = i < 0 ? "" : s.slice(i);
  }
  if (name === "" || (/[(),]/.test(name) && !s.startsWith('"'))) {
    return err(parseError(`field (${raw})`, "expected a column name"));
  }
  const path: JsonStep[] = [];
  while (rest.length) {
    const m = /^(->>|->)/.exec(rest);
    if (!m) return err(parseError(`field (${raw})`, "expected -> or ->>"));
    rest = rest.slice(m[1].length);
    let key: string;
    const intKey = /^-?\d+(?=->|$)/.exec(rest);
    if (intKey) {
      key = intKey[0];
      rest = rest.slice(key.length);
      path.push({ arrow: m[1] as JsonStep["arrow"], key: Number(key) });
      continue;
    }
    if (rest.startsWith('"')) {
      const end = closingQuote(rest, 0);
      if (end < 0) return err(parseError(`field (${raw})`, "unterminated quoted key"));
      key = unescapeQuoted(rest.slice(1, end));
      rest = rest.slice(end + 1);
    } else {
      const next = rest.indexOf("->");
      key = next < 0 ? rest : rest.slice(0, next);
      rest = next < 0 ? "" : rest.slice(next);
    }
    if (key === "" || /[(),]/.test(key)) return err(parseError(`field (${raw})`, "expected a JSON key"));
    path.push({ arrow: m[1] as JsonStep["arrow"], key });
  }
  return ok({ name, path });
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
    alias = a.startsWith('"') ? unquote(a) ?? "" : a;
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

// ------------------------------------------------------------------------------------------ filters

/** Parses `[not.]op[(modifier)].value` for `field`. In logic trees the value arrives unquoted. */
function parseOperation(field: Field, raw: string): Result<Filter> {
  let s = raw;
  let negate = false;
  if (s.startsWith("not.")) {
    negate = true;
    s = s.slice(4);
  }
  const m = /^([a-z]+)(?:\(([^)]*)\))?\./.exec(s);
  const fail = () => err(parseError(`filter (${raw})`, `expected an operator (${OPERATORS.join(", ")}) and a value`));
  if (!m) return fail();
  const op = m[1] as Operator;
  if (!OPERATORS.includes(op)) return fail();
  let value = s.slice(m[0].length);
  const filter: Filter = { kind: "filter", field, negate, op, value };
  const modifier = m[2];
  if (modifier !== undefined) {
    if (FTS.has(op)) {
      if (!/^[A-Za-z_][A-Za-z0-9_.]*$/.test(modifier)) return fail();
      filter.config = modifier;
    } else if (QUANTIFIABLE.has(op) && (modifier === "any" || modifier === "all")) {
      filter.quantifier = modifier;
      if (!/^\{.*\}$/s.test(value)) {
        return err(parseError(`filter (${raw})`, "a quantified operator expects a list in braces: {a,b}"));
      }
    } else {
      return fail();
    }
  }
  if (op === "in") {
    const list = parseInList(value);
    if (!list.ok) return err(parseError(`filter (${raw})`, list.error));
    filter.values = list.value;
  } else if (op === "is") {
    value = value.toLowerCase();
    if (!IS_VALUES.has(value)) {
      return err(parseError(`filter (${raw})`, "is expects null, not_null, true, false or unknown"));
    }
    filter.value = value;
  }
  return ok(filter);
}

/** `(a,"b,c",d)` → ["a", "b,c", "d"]; quoted items may escape with a backslash. */
function parseInList(raw: string): { ok: true; value: string[] } | { ok: false; error: string } {
  if (!raw.startsWith("(") || !raw.endsWith(")")) return { ok: false, error: "in expects a list in parentheses: (a,b)" };
  const inner = raw.slice(1, -1);
  if (inner === "") return { ok: true, value: [] };
  const out: string[] = [];
  let i = 0;
  while (i <= inner.length) {
    if (inner[i] === '"') {
      const end = closingQuote(inner, i);
      if (end < 0) return { ok: false, error: "unterminated quoted value" };
      out.push(unescapeQuoted(inner.slice(i + 1, end)));
      i = end + 1;
      if (i < inner.length && inner[i] !== ",") return { ok: false, error: "expected , after a quoted value" };
      i++;
    } else {
      const comma = inner.indexOf(",", i);
      const item = comma < 0 ? inner.slice(i) : inner.slice(i, comma);
      if (item.includes('"') || item.includes("(") || item.includes(")")) {
        return { ok: false, error: `unexpected character in "${item}"; quote values that contain , ( ) or "` };
      }
      out.push(item);
      if (comma < 0) break;
      i = comma + 1;
    }
  }
  return { ok: true, value: out };
}

function parseLogicParam(key: string, value: string): Result<Logic> {
  const negate = key.startsWith("not.");
  const op = (negate ? key.slice(4) : key) as "and" | "or";
  const p = new LogicParser(value);
  const tree = p.group(op, negate);
  if (!tree.ok) return err(parseError(`logic tree (${value})`, tree.error));
  if (p.pos !== value.length) {
    return err(parseError(`logic tree (${value})`, `unexpected "${value.slice(p.pos)}" after the closing parenthesis`));
  }
  return ok(tree.value);
}

type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/** Recursive descent over `(item,item,...)` where an item is a filter or a nested and()/or(). */
class LogicParser {
  pos = 0;
  constructor(readonly s: string) {}

  group(op: "and" | "or", negate: boolean): Parsed<Logic> {
    if (this.s[this.pos] !== "(") return { ok: false, error: `expected ( at position ${this.pos + 1}` };
    this.pos++;
    const children: Condition[] = [];
    for (;;) {
      const item = this.item();
      if (!item.ok) return item;
      children.push(item.value);
      const c = this.s[this.pos];
      if (c === ",") {
        this.pos++;
        continue;
      }
      if (c === ")") {
        this.pos++;
        return { ok: true, value: { kind: "logic", op, negate, children } };
      }
      return { ok: false, error: c === undefined ? "missing closing parenthesis" : `unexpected "${c}" at position ${this.pos + 1}` };
    }
  }

  item(): Parsed<Condition> {
    const rest = this.s.slice(this.pos);
    const nested = /^(not\.)?(and|or)\(/.exec(rest);
    if (nested) {
      this.pos += nested[0].length - 1;
      return this.group(nested[2] as "and" | "or", !!nested[1]);
    }
    const fieldEnd = this.fieldEnd();
    if (fieldEnd < 0) return { ok: false, error: `expected a filter at position ${this.pos + 1}` };
    const field = parseField(this.s.slice(this.pos, fieldEnd));
    if (!field.ok) return { ok: false, error: field.error.details ?? field.error.message };
    this.pos = fieldEnd + 1;
    const opMatch = /^(not\.)?[a-z]+(\([^)]*\))?\./.exec(this.s.slice(this.pos));
    if (!opMatch) return { ok: false, error: `expected an operator at position ${this.pos + 1}` };
    this.pos += opMatch[0].length;
    const value = this.value();
    if (!value.ok) return value;
    const f = parseOperation(field.value, opMatch[0] + value.value);
    if (!f.ok) return { ok: false, error: f.error.details ?? f.error.message };
    return { ok: true, value: f.value };
  }

  /** End of the field name: the first `.` outside quotes. */
  fieldEnd(): number {
    let inQuote = false;
    for (let i = this.pos; i < this.s.length; i++) {
      const c = this.s[i];
      if (c === "\\" && inQuote) i++;
      else if (c === '"') inQuote = !inQuote;
      else if (!inQuote && (c === "," || c === "(" || c === ")")) return -1;
      else if (!inQuote && c === ".") return i;
    }
    return -1;
  }

  /** A value ends at `,` or `)` outside quotes, (), {} and []. Quotes are removed; () lists keep theirs. */
  value(): Parsed<string> {
    if (this.s[this.pos] === '"') {
      const end = closingQuote(this.s, this.pos);
      if (end < 0) return { ok: false, error: "unterminated quoted value" };
      const v = unescapeQuoted(this.s.slice(this.pos + 1, end));
      this.pos = end + 1;
      return { ok: true, value: v };
    }
    const start = this.pos;
    const stack: string[] = [];
    let inQuote = false;
    for (; this.pos < this.s.length; this.pos++) {
      const c = this.s[this.pos];
      if (inQuote) {
        if (c === "\\") this.pos++;
        else if (c === '"') inQuote = false;
        continue;
      }
      if (c === '"') inQuote = true;
      else if (c === "(" || c === "{" || c === "[") stack.push(c === "(" ? ")" : c === "{" ? "}" : "]");
      else if (stack.length && c === stack[stack.length - 1]) stack.pop();
      else if (!stack.length && (c === "," || c === ")")) break;
    }
    if (inQuote) return { ok: false, error: "unterminated quoted value" };
    if (stack.length) return { ok: false, error: `missing "${stack[stack.length - 1]}"` };
    return { ok: true, value: this.s.slice(start, this.pos) };
  }
}

// ------------------------------------------------------------------------------------------ helpers

/** Splits on commas that are outside double quotes and parentheses. */
function splitTopLevel(s: string): { ok: true; value: string[] } | { ok: false; error: string } {
  const out: string[] = [];
  let depth = 0;
  let inQuote = false;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (inQuote) {
      if (c === "\\") i++;
      else if (c === '"') inQuote = false;
    } else if (c === '"') inQuote = true;
    else if (c === "(") depth++;
    else if (c === ")") {
      depth--;
      if (depth < 0) return { ok: false, error: `unbalanced ) at position ${i + 1}` };
    } else if (c === "," && depth === 0) {
      out.push(s.slice(start, i));
      start = i + 1;
    }
  }
  if (inQuote) return { ok: false, error: "unterminated quote" };
  if (depth !== 0) return { ok: false, error: "unbalanced parentheses" };
  out.push(s.slice(start));
  return { ok: true, value: out };
}

function closingQuote(s: string, open: number): number {
  for (let i = open + 1; i < s.length; i++) {
    if (s[i] === "\\") i++;
    else if (s[i] === '"') return i;
  }
  return -1;
}

function unescapeQuoted(s: string): string {
  return s.replace(/\\(.)/gs, "$1");
}

function unquote(s: string): string | null {
  if (!s.startsWith('"')) return s;
  const end = closingQuote(s, 0);
  if (end !== s.length - 1) return null;
  return unescapeQuoted(s.slice(1, end));
}

function indexOutsideQuotes(s: string, needle: string): number {
  let inQuote = false;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === "\\" && inQuote) i++;
    else if (s[i] === '"') inQuote = !inQuote;
    else if (!inQuote && s.startsWith(needle, i)) return i;
  }
  return -1;
}

function unquotedPart(s: string): string {
  return s.replace(/"(?:[^"\\]|\\.)*"/g, "");
}
