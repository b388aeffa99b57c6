// JSON from an untrusted caller, bounded before it is parsed: a body nested thousands of levels deep is
// a few kilobytes, yet it exhausts the stack of whatever walks it later (JSON.parse, Postgres' json
// parser, PGlite's WebAssembly stack). Every route of the local backend and every edge function reads
// JSON through here, so the one depth limit below is applied the same way everywhere, before parsing.

/** Deepest nesting of arrays and objects accepted in any JSON a caller sends (body, argument, filter). */
export const JSON_MAX_DEPTH = 64;

export type BoundedJson = { ok: true; value: unknown } | { ok: false; reason: "too_deep" | "invalid" };

/**
 * The deepest nesting of `[`/`{` outside strings in `text`, stopping early once `limit` is passed
 * (then it returns `limit + 1`). Linear in the text and allocation-free, so it is safe on any input.
 */
export function jsonDepth(text: string, limit = JSON_MAX_DEPTH): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > limit) return limit + 1;
      }
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) depth--;
  }
  return deepest;
}

/** Parses `text` as JSON when it nests at most `maxDepth` levels; says why not otherwise. */
export function parseBoundedJson(text: string, maxDepth = JSON_MAX_DEPTH): BoundedJson {
  if (jsonDepth(text, maxDepth) > maxDepth) return { ok: false, reason: "too_deep" };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, reason: "invalid" };
  }
}

/** The message a caller gets for a body nested past the limit (each service wraps it in its own error shape). */
export const TOO_DEEP_MESSAGE = `JSON may nest at most ${JSON_MAX_DEPTH} levels deep`;
