// Text Postgres can store. A `text` or `jsonb` value refuses the NUL character (U+0000), and a string
// with a lone UTF-16 surrogate has no UTF-8 form at all; either fails only at the INSERT, after the work
// that produced it. Every text field a person or client sends (prompt, negative prompt, sign-up
// metadata, preferences, events) is checked with this before anything else happens.

/** What makes `s` unstorable, or null when Postgres can store it as is. */
export function unstorableText(s: string): "nul" | "lone_surrogate" | null {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0) return "nul";
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
      else return "lone_surrogate";
    } else if (c >= 0xdc00 && c <= 0xdfff) return "lone_surrogate";
  }
  return null;
}

/** The first unstorable string anywhere inside a JSON-shaped value (keys included), or null. */
export function unstorableInValue(v: unknown): "nul" | "lone_surrogate" | null {
  if (typeof v === "string") return unstorableText(v);
  if (Array.isArray(v)) {
    for (const item of v) {
      const bad = unstorableInValue(item);
      if (bad) return bad;
    }
    return null;
  }
  if (v && typeof v === "object") {
    for (const [k, item] of Object.entries(v)) {
      const bad = unstorableText(k) ?? unstorableInValue(item);
      if (bad) return bad;
    }
  }
  return null;
}

/** docs/spec.md §5's message style for a field holding such text ("The prompt", "The negative prompt", …). */
export function unstorableMessage(field: string): string {
  return `${field} contains characters that cannot be saved (a NUL or a broken Unicode character). Please remove them.`;
}
