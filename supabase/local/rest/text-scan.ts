// Scanning helpers of PostgREST's query-string language: double-quoted strings with backslash
// escapes, and commas that separate items only outside quotes and parentheses.

/** Splits on commas that are outside double quotes and parentheses. */
export function splitTopLevel(s: string): { ok: true; value: string[] } | { ok: false; error: string } {
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

export function closingQuote(s: string, open: number): number {
  for (let i = open + 1; i < s.length; i++) {
    if (s[i] === "\\") i++;
    else if (s[i] === '"') return i;
  }
  return -1;
}

export function unescapeQuoted(s: string): string {
  return s.replace(/\\(.)/gs, "$1");
}

export function unquote(s: string): string | null {
  if (!s.startsWith('"')) return s;
  const end = closingQuote(s, 0);
  if (end !== s.length - 1) return null;
  return unescapeQuoted(s.slice(1, end));
}

export function indexOutsideQuotes(s: string, needle: string): number {
  let inQuote = false;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === "\\" && inQuote) i++;
    else if (s[i] === '"') inQuote = !inQuote;
    else if (!inQuote && s.startsWith(needle, i)) return i;
  }
  return -1;
}

export function unquotedPart(s: string): string {
  return s.replace(/"(?:[^"\\]|\\.)*"/g, "");
}
