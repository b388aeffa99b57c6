// Stripe's request encoding, as its libraries write it: application/x-www-form-urlencoded pairs whose keys
// name nested values with brackets (`metadata[user_id]=…`, `line_items[0][price]=…`, `expand[]=…`). The same
// encoding is used for a GET's query string. Values stay strings; each endpoint's params check types them.

export type Params = { [key: string]: Param };
export type Param = string | Param[] | Params;

/** Thrown for a key the bracket syntax cannot place (e.g. `a[b]=1` after `a=1`). */
export class FormShapeError extends Error {
  constructor(readonly key: string) {
    super(`Invalid array or hash for key ${key}`);
  }
}

/** `line_items[0][price]` → ["line_items", "0", "price"]; `expand[]` → ["expand", ""]. */
function keyPath(key: string): string[] {
  const open = key.indexOf("[");
  if (open <= 0) return [key];
  const path = [key.slice(0, open)];
  const rest = key.slice(open);
  const parts = rest.match(/\[[^\][]*\]/g);
  if (!parts || parts.join("") !== rest) return [key];
  for (const p of parts) path.push(p.slice(1, -1));
  return path;
}

/** A record without a prototype: a key such as `__proto__` or `constructor` is only a key. */
const record = (): Params => Object.create(null);

function isRecord(v: Param | undefined): v is Params {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Stripe's params nest a few levels (`line_items[0][price_data][recurring][interval]`); deeper is refused. */
const MAX_DEPTH = 8;

/** Places one value at its path, building records on the way (numeric and `[]` segments become arrays later). */
function place(root: Params, path: string[], value: string, key: string): void {
  if (path.length > MAX_DEPTH) throw new FormShapeError(key.slice(0, 100));
  let node: Params = root;
  for (const seg of path.slice(0, -1)) {
    const name = seg === "" ? String(Object.keys(node).length) : seg;
    const child = node[name] ?? (node[name] = record());
    if (!isRecord(child)) throw new FormShapeError(key);
    node = child;
  }
  const last = path[path.length - 1];
  const name = last === "" ? String(Object.keys(node).length) : last;
  if (isRecord(node[name])) throw new FormShapeError(key);
  node[name] = value;
}

/** Records whose keys are all positions (`x[0]`, `x[1]`, `x[]`) become arrays in index order. */
function toArrays(value: Param): Param {
  if (typeof value === "string" || Array.isArray(value)) return value;
  const entries = Object.entries(value);
  if (entries.length > 0 && entries.every(([k]) => /^\d+$/.test(k))) {
    return entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, v]) => toArrays(v));
  }
  const out = record();
  for (const [k, v] of entries) out[k] = toArrays(v);
  return out;
}

/** The nested params of a form-encoded body or query string. */
export function parseForm(text: string): Params {
  const root = record();
  for (const [key, value] of new URLSearchParams(text)) {
    if (!key) continue;
    place(root, keyPath(key), value, key);
  }
  return toArrays(root) as Params;
}
