// PostgREST's query-string language, parsed into a small tree: select lists, horizontal filters with
// `not.` and logic trees (`or=(a.eq.1,and(b.gt.2,c.is.null))`), order, limit/offset, and the
// `columns` / `on_conflict` lists of writes. Pure: names are checked against the catalog later, and
// every value stays a string that build-sql binds as a parameter.
import { err, ok, parseError, restError, type Result } from "./errors.ts";
import { type Field, parseField } from "./parse-field.ts";
import { type Condition, parseFilter, parseLogicTree } from "./parse-filter.ts";
import {
  MAX_EMBED_DEPTH,
  MAX_EMBEDS,
  MAX_FILTERS,
  MAX_JSON_PATH,
  MAX_NAME_LIST,
  MAX_ORDER_TERMS,
  MAX_QUERY_LENGTH,
  MAX_SELECT_ITEMS,
  tooDeep,
} from "./limits.ts";
import { indexOutsideQuotes, splitTopLevel, unquote, unquotedPart } from "./text-scan.ts";

export type SelectItem = { kind: "star" } | { kind: "field"; field: Field; alias?: string; cast?: string } | Embed;

/** An embedded resource: `alias:target!hint!inner(items)` or the spread `...target(items)`. */
export interface Embed {
  kind: "embed";
  /** A table, a foreign key's name, or a foreign key column of the origin. */
  target: string;
  alias?: string;
  /** A foreign key's name or one of its columns (either side). */
  hint?: string;
  join?: "inner" | "left";
  spread: boolean;
  select: SelectItem[];
}

/** `order=col.desc`, or `order=relation(col).desc` on a to-one embedded resource. */
export type OrderTerm = { field: Field; dir?: "asc" | "desc"; nulls?: "first" | "last"; relation?: string };

/** Filters, order and paging of one embedded resource (`child.col=eq.1`, `child.order=…`, `child.limit=2`). */
export interface EmbedParams {
  where: Condition[];
  order: OrderTerm[];
  limit?: number;
  offset?: number;
}

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
  /** Parameters of embedded resources, by their dotted path of names or aliases (`author`, `posts.comments`). */
  embedded: Map<string, EmbedParams>;
}

/**
 * Parses the query string. `isArg` tells which parameters are rpc arguments (GET rpc); for a table it
 * always answers false, so every unknown parameter is a filter.
 */
export function parseQuery(
  params: URLSearchParams,
  isArg: (name: string, value: string) => boolean = () => false,
): Result<ParsedQuery> {
  let length = 0;
  for (const [key, value] of params) length += key.length + value.length + 2;
  if (length > MAX_QUERY_LENGTH) {
    return err(restError(414, "PGRST100", `The query string is longer than ${MAX_QUERY_LENGTH} characters`));
  }
  const q: ParsedQuery = { select: null, where: [], order: [], args: {}, embedded: new Map() };
  for (const [key, value] of params) {
    const r = parseParam(q, key, value, isArg);
    if (!r.ok) return r;
  }
  return checkBounds(q);
}

const overLimit = (what: string, n: number, max: number) =>
  err(restError(400, "PGRST100", `Too many ${what}: ${n}, at most ${max}`));

/** The limits of limits.ts, over the whole parsed query. */
function checkBounds(q: ParsedQuery): Result<ParsedQuery> {
  const items = flatSelect(q.select ?? []);
  if (items.length > MAX_SELECT_ITEMS) return overLimit("select items", items.length, MAX_SELECT_ITEMS);
  const embeds = items.filter((i) => i.kind === "embed").length;
  if (embeds > MAX_EMBEDS) return overLimit("embedded resources", embeds, MAX_EMBEDS);
  const levels = [q, ...q.embedded.values()];
  const orders = levels.flatMap((l) => l.order);
  if (orders.length > MAX_ORDER_TERMS) return overLimit("order terms", orders.length, MAX_ORDER_TERMS);
  for (const list of [q.columns, q.onConflict]) {
    if (list && list.length > MAX_NAME_LIST) {
      return overLimit("names in columns or on_conflict", list.length, MAX_NAME_LIST);
    }
  }
  const fields: Field[] = [
    ...items.flatMap((i) => (i.kind === "field" ? [i.field] : [])),
    ...orders.map((o) => o.field),
  ];
  let filters = 0;
  const values: string[] = Object.values(q.args);
  const walk = (c: Condition) => {
    if (c.kind === "logic") return c.children.forEach(walk);
    filters++;
    fields.push(c.field);
    values.push(c.value, ...(c.values ?? []));
  };
  for (const l of levels) l.where.forEach(walk);
  if (filters > MAX_FILTERS) return overLimit("filters", filters, MAX_FILTERS);
  for (const f of fields) {
    if (f.path.length > MAX_JSON_PATH) {
      return overLimit(`steps in the JSON path of ${f.name}`, f.path.length, MAX_JSON_PATH);
    }
  }
  for (const v of values) {
    const why = tooDeep(v);
    if (why) return err(restError(400, "PGRST100", '"failed to parse filter"', why));
  }
  return ok(q);
}

/** Every item of a select list, embedded ones included. */
function flatSelect(items: SelectItem[]): SelectItem[] {
  return items.flatMap((i) => (i.kind === "embed" ? [i, ...flatSelect(i.select)] : [i]));
}

function parseParam(
  q: ParsedQuery,
  key: string,
  value: string,
  isArg: (name: string, value: string) => boolean,
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
      const r = parseLogicTree(key, value);
      if (!r.ok) return r;
      q.where.push(r.value);
      return r;
    }
  }
  if (isArg(key, value)) {
    q.args[key] = value;
    return ok(null);
  }
  if (!key.startsWith('"')) {
    const arrow = key.indexOf("->");
    const head = arrow < 0 ? key : key.slice(0, arrow);
    if (head.includes(".")) return parseEmbedParam(q, key, arrow < 0 ? "" : key.slice(arrow), head, value);
  }
  const field = parseField(key);
  if (!field.ok) return field;
  const f = parseFilter(field.value, value);
  if (!f.ok) return f;
  q.where.push(f.value);
  return f;
}

/** `path.to.embed.col=op.value`, `path.order=…`, `path.limit=…`, `path.offset=…`, `path.or=(…)`. */
function parseEmbedParam(q: ParsedQuery, key: string, jsonTail: string, head: string, value: string): Result<unknown> {
  const segments = head.split(".");
  let last = segments.pop()! + jsonTail;
  if ((last === "or" || last === "and") && segments[segments.length - 1] === "not" && segments.length > 1) {
    segments.pop();
    last = `not.${last}`;
  }
  if (segments.some((s) => s === "") || last === "") return err(parseError(`parameter (${key})`, "empty name"));
  if (segments.length > MAX_EMBED_DEPTH) return overLimit(`levels in ${key}`, segments.length, MAX_EMBED_DEPTH);
  const path = segments.join(".");
  const e = q.embedded.get(path) ?? { where: [], order: [] };
  q.embedded.set(path, e);
  switch (last) {
    case "order": {
      const r = parseOrder(value);
      if (!r.ok) return r;
      if (r.value.some((t) => t.relation)) {
        return err(parseError(`order (${value})`, "related order applies to the top level only"));
      }
      e.order.push(...r.value);
      return r;
    }
    case "limit":
    case "offset": {
      const r = parseNonNegative(`${path}.${last}`, value);
      if (!r.ok) return r;
      e[last] = r.value;
      return r;
    }
    case "or":
    case "and":
    case "not.or":
    case "not.and": {
      const r = parseLogicTree(last, value);
      if (!r.ok) return r;
      e.where.push(r.value);
      return r;
    }
  }
  const field = parseField(last);
  if (!field.ok) return field;
  const f = parseFilter(field.value, value);
  if (!f.ok) return f;
  e.where.push(f.value);
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

export function parseSelect(raw: string, depth = 0): Result<SelectItem[]> {
  if (raw.trim() === "") return ok([]);
  if (depth > MAX_EMBED_DEPTH) return overLimit("levels of embedding", depth, MAX_EMBED_DEPTH);
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
    if (unquotedPart(s).includes("(") || s.startsWith("...") || /!/.test(unquotedPart(s))) {
      const embed = parseEmbed(s, raw, depth);
      if (!embed.ok) return embed;
      items.push(embed.value);
      continue;
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

const NAME = /^[A-Za-z_][A-Za-z0-9_$]*$/;

/** `alias:target!hint!inner(items)` or `...target!hint(items)`. */
function parseEmbed(s: string, raw: string, depth: number): Result<Embed> {
  const bad = (why: string) => err<Embed>(parseError(`select (${raw})`, why));
  const open = indexOutsideQuotes(s, "(");
  if (open < 0 || !s.endsWith(")")) return bad(`expected "(" and ")" around the columns of "${s}"`);
  let head = s.slice(0, open).trim();
  const spread = head.startsWith("...");
  if (spread) head = head.slice(3);
  const embed: Embed = { kind: "embed", target: "", spread, select: [] };
  const aliasAt = findAliasColon(head);
  if (aliasAt >= 0) {
    if (spread) return bad(`a spread cannot have an alias: "${s}"`);
    const a = head.slice(0, aliasAt).trim();
    embed.alias = a.startsWith('"') ? (unquote(a) ?? "") : a;
    if (!embed.alias) return bad(`empty alias in "${s}"`);
    head = head.slice(aliasAt + 1).trim();
  }
  const [target, ...marks] = head.split("!").map((x) => x.trim());
  if (!NAME.test(target)) return bad(`expected a table, foreign key or column name in "${s}"`);
  embed.target = target;
  for (const m of marks) {
    if ((m === "inner" || m === "left") && embed.join === undefined) embed.join = m;
    else if (NAME.test(m) && embed.hint === undefined && embed.join === undefined) embed.hint = m;
    else return bad(`unexpected "!${m}" in "${s}"`);
  }
  const inner = parseSelect(s.slice(open + 1, -1), depth + 1);
  if (!inner.ok) return inner;
  embed.select = inner.value;
  return ok(embed);
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
    let relation: string | undefined;
    let pieces = s.split(".");
    if (s.includes("(")) {
      const m = /^([A-Za-z_][A-Za-z0-9_$]*)\(([^()]+)\)((?:\.[a-z]+)*)$/.exec(s);
      if (!m) return err(parseError(`order (${raw})`, `expected relation(column) in "${s}"`));
      relation = m[1];
      pieces = [m[2], ...m[3].split(".").slice(1)];
    }
    const field = parseField(pieces[0]);
    if (!field.ok) return err(parseError(`order (${raw})`, `expected a column name in "${s}"`));
    const term: OrderTerm = relation ? { field: field.value, relation } : { field: field.value };
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
