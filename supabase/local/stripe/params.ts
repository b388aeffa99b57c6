// Each endpoint's parameters, checked the way Stripe checks them: an unknown key, a value of the wrong
// kind or a missing required one is a 400 naming the param (bracketed for nested keys), never ignored.
import { invalid, missingParam, unknownParam } from "./errors.ts";
import type { Param, Params } from "./form.ts";

export type Kind =
  | "string"
  | "boolean"
  | "integer"
  | "metadata"
  | "strings"
  | "range"
  | { enum: readonly string[] }
  | { object: Spec }
  | { array: Spec };

/** Allowed keys; a trailing `!` on a key marks it required. */
export type Spec = Record<string, Kind>;

const MAX_METADATA_KEYS = 50;

function checkMetadata(value: Param, name: string): void {
  if (value === "") return; // an empty string unsets all metadata
  if (typeof value !== "object" || Array.isArray(value)) throw invalid(`Invalid hash`, name);
  const entries = Object.entries(value);
  if (entries.length > MAX_METADATA_KEYS) {
    throw invalid(`Invalid ${name}: metadata can hold at most ${MAX_METADATA_KEYS} keys`, name);
  }
  for (const [k, v] of entries) {
    if (typeof v !== "string") throw invalid(`Invalid string: metadata values must be strings`, `${name}[${k}]`);
    if (k.length > 40) throw invalid(`Metadata keys can be at most 40 characters long`, `${name}[${k}]`);
    if (v.length > 500) throw invalid(`Metadata values can be at most 500 characters long`, `${name}[${k}]`);
  }
}

/** A timestamp filter: an integer, or a hash of `gt`, `gte`, `lt`, `lte` integers. */
const RANGE: Spec = { gt: "integer", gte: "integer", lt: "integer", lte: "integer" };

function checkValue(value: Param, kind: Kind, name: string): void {
  if (kind === "metadata") return checkMetadata(value, name);
  if (kind === "range") return checkValue(value, typeof value === "string" ? "integer" : { object: RANGE }, name);
  if (kind === "strings") {
    if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) throw invalid("Invalid array", name);
    return;
  }
  if (typeof kind === "object" && "object" in kind) {
    if (typeof value !== "object" || Array.isArray(value)) throw invalid("Invalid hash", name);
    return checkParams(value, kind.object, name);
  }
  if (typeof kind === "object" && "array" in kind) {
    if (!Array.isArray(value)) throw invalid("Invalid array", name);
    value.forEach((item, i) => {
      if (typeof item !== "object" || Array.isArray(item)) throw invalid("Invalid hash", `${name}[${i}]`);
      checkParams(item, kind.array, `${name}[${i}]`);
    });
    return;
  }
  if (typeof value !== "string") throw invalid(`Invalid string: ${JSON.stringify(value)}`, name);
  if (kind === "boolean" && value !== "true" && value !== "false") throw invalid(`Invalid boolean: ${value}`, name);
  if (kind === "integer" && !/^-?\d+$/.test(value)) throw invalid(`Invalid integer: ${value}`, name);
  if (typeof kind === "object" && "enum" in kind && !kind.enum.includes(value)) {
    throw invalid(`Invalid ${name}: must be one of ${kind.enum.join(", ")}`, name);
  }
}

/** Checks `params` against `spec`; `prefix` names the enclosing param for nested keys. */
export function checkParams(params: Params, spec: Spec, prefix = ""): void {
  const named = (k: string) => (prefix ? `${prefix}[${k}]` : k);
  const kinds = new Map<string, Kind>();
  for (const [key, kind] of Object.entries(spec)) {
    const required = key.endsWith("!");
    const name = required ? key.slice(0, -1) : key;
    kinds.set(name, kind);
    if (required && (params[name] === undefined || params[name] === "")) throw missingParam(named(name));
  }
  for (const [key, value] of Object.entries(params)) {
    const kind = kinds.get(key);
    if (!kind) throw unknownParam(named(key));
    checkValue(value, kind, named(key));
  }
}

/** A string param (already checked), or undefined. */
export const str = (p: Params, k: string): string | undefined => typeof p[k] === "string" ? p[k] as string : undefined;

/** A boolean param (already checked), or undefined. */
export const bool = (p: Params, k: string): boolean | undefined =>
  p[k] === "true" ? true : p[k] === "false" ? false : undefined;

/** The list page size: 1 to 100, 10 when absent, as Stripe's lists take it. */
export function limitOf(p: Params): number {
  const raw = str(p, "limit");
  if (raw === undefined) return 10;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 100) {
    throw invalid("This value must be greater than or equal to 1 and less than or equal to 100.", "limit");
  }
  return n;
}

/** The pagination and expansion params every list endpoint takes. */
export const LIST: Spec = { limit: "integer", starting_after: "string", ending_before: "string", expand: "strings" };
