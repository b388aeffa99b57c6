// Column references of the query-string language: `name`, `"quoted name"` and JSON paths such as
// `metadata->key->>0`.
import { err, ok, parseError, type Result } from "./errors.ts";
import { closingQuote, unescapeQuoted } from "./text-scan.ts";

export type JsonStep = { arrow: "->" | "->>"; key: string | number };
export type Field = { name: string; path: JsonStep[] };

/**
 * The name or key `text` starts with: quoted (up to its closing quote) or bare (up to the next arrow);
 * null when the quote is never closed.
 */
function leadingPiece(text: string): { piece: string; rest: string } | null {
  if (text.startsWith('"')) {
    const end = closingQuote(text, 0);
    if (end < 0) return null;
    return { piece: unescapeQuoted(text.slice(1, end)), rest: text.slice(end + 1) };
  }
  const i = text.indexOf("->");
  return i < 0 ? { piece: text, rest: "" } : { piece: text.slice(0, i), rest: text.slice(i) };
}

/** `name`, `"quoted name"`, `json_col->key->>0`. */
export function parseField(raw: string): Result<Field> {
  const s = raw.trim();
  const head = leadingPiece(s);
  if (!head) return err(parseError(`field (${raw})`, "unterminated quoted name"));
  const name = head.piece;
  let rest = head.rest;
  if (name === "" || (/[(),]/.test(name) && !s.startsWith('"'))) {
    return err(parseError(`field (${raw})`, "expected a column name"));
  }
  const path: JsonStep[] = [];
  while (rest.length) {
    const m = /^(->>|->)/.exec(rest);
    if (!m) return err(parseError(`field (${raw})`, "expected -> or ->>"));
    rest = rest.slice(m[1].length);
    const intKey = /^-?\d+(?=->|$)/.exec(rest);
    if (intKey) {
      rest = rest.slice(intKey[0].length);
      path.push({ arrow: m[1] as JsonStep["arrow"], key: Number(intKey[0]) });
      continue;
    }
    const step = leadingPiece(rest);
    if (!step) return err(parseError(`field (${raw})`, "unterminated quoted key"));
    const key = step.piece;
    rest = step.rest;
    if (key === "" || /[(),]/.test(key)) return err(parseError(`field (${raw})`, "expected a JSON key"));
    path.push({ arrow: m[1] as JsonStep["arrow"], key });
  }
  return ok({ name, path });
}
