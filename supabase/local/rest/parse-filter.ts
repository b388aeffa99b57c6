// Horizontal filters (`col=[not.]op[(modifier)].value`) and logic trees
// (`or=(a.eq.1,and(b.gt.2,not.c.is.null))`), parsed into conditions whose values stay strings for
// build-sql to bind as parameters.
import { err, ok, parseError, type Result } from "./errors.ts";
import { type Field, parseField } from "./parse-field.ts";
import { valueTooComplex } from "./pattern-bounds.ts";
import { closingQuote, unescapeQuoted } from "./text-scan.ts";

export const OPERATORS = [
  "eq",
  "neq",
  "gt",
  "gte",
  "lt",
  "lte",
  "like",
  "ilike",
  "match",
  "imatch",
  "in",
  "is",
  "isdistinct",
  "fts",
  "plfts",
  "phfts",
  "wfts",
  "cs",
  "cd",
  "ov",
  "sl",
  "sr",
  "nxr",
  "nxl",
  "adj",
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

const OPERATOR_PREFIX = new RegExp(`^(not\\.)?(${OPERATORS.join("|")})(\\([^)]*\\))?\\.`);

/**
 * Whether a GET rpc parameter's value is a filter (`eq.1`, `not.in.(a,b)`) rather than an argument:
 * PostgREST reads every other parameter as an argument of the function.
 */
export function isFilterValue(value: string): boolean {
  return OPERATOR_PREFIX.test(value);
}

/** Parses `[not.]op[(modifier)].value` for `field`. In logic trees the value arrives unquoted. */
export function parseFilter(field: Field, raw: string): Result<Filter> {
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
  const tooComplex = valueTooComplex(op, value);
  if (tooComplex) return err(parseError(`filter (${op})`, tooComplex));
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
  if (!raw.startsWith("(") || !raw.endsWith(")")) {
    return { ok: false, error: "in expects a list in parentheses: (a,b)" };
  }
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

export function parseLogicTree(key: string, value: string): Result<Logic> {
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

/** Deeper trees serve no client and would exhaust the parser's stack (a 500) or Postgres's. */
export const MAX_LOGIC_DEPTH = 64;

/** Recursive descent over `(item,item,...)` where an item is a filter or a nested and()/or(). */
class LogicParser {
  pos = 0;
  depth = 0;
  constructor(readonly s: string) {}

  group(op: "and" | "or", negate: boolean): Parsed<Logic> {
    if (this.s[this.pos] !== "(") return { ok: false, error: `expected ( at position ${this.pos + 1}` };
    if (++this.depth > MAX_LOGIC_DEPTH) {
      return { ok: false, error: `logic trees may nest at most ${MAX_LOGIC_DEPTH} levels deep` };
    }
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
        this.depth--;
        return { ok: true, value: { kind: "logic", op, negate, children } };
      }
      return {
        ok: false,
        error: c === undefined ? "missing closing parenthesis" : `unexpected "${c}" at position ${this.pos + 1}`,
      };
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
    const f = parseFilter(field.value, opMatch[0] + value.value);
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
