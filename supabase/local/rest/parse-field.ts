// Column references of the query-string language: `name`, `"quoted name"` and JSON paths such as
// `metadata->key->>0`.
import { err, ok, parseError, type Result } from "./errors.ts";
import { closingQuote, unescapeQuoted } from "./text-scan.ts";

export type JsonStep = { arrow: "->" | "->>"; key: string | number };
export type Field = { name: string; path: JsonStep[] };

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
