// What an `error` event stores (docs/spec.md §7: type, message, source, lineno, colno, stack), made safe to keep:
// secrets a message or address may carry (tokens, keys, e-mail addresses, query strings) are removed,
// and every field is cut so the row fits the table's 8 KB metadata limit with room to spare.

/** An error as it was caught, before anything is derived from it. */
export type ErrorCapture = {
  type: "error" | "unhandledrejection" | "render";
  error: unknown;
  /** ErrorEvent's own message ("Uncaught TypeError: …"), when the browser gave one. */
  message?: string;
  /** The script's address, or for a render error the first line of the component stack. */
  source?: string | null;
  lineno?: number | null;
  colno?: number | null;
};

export type ErrorMetadata = {
  type: ErrorCapture["type"];
  message: string;
  source: string | null;
  lineno: number | null;
  colno: number | null;
  stack: string | null;
};

/** Characters kept per field. */
export const ERROR_FIELD_MAX_CHARS = { message: 500, source: 300, stack: 3000 } as const;
/** The table refuses metadata above 8192 bytes; stay well below. */
export const ERROR_METADATA_MAX_BYTES = 6000;

const SECRET_RULES: readonly [RegExp, string][] = [
  [/\beyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]*/g, "[token]"], // JWTs (access tokens, the anon key)
  [/\b(Bearer|Basic)\s+[\w.~+/=-]+/gi, "$1 [token]"],
  [/\b(sk|pk|rk)[-_][\w-]{12,}/g, "[key]"], // provider API keys
  [/([?&#](?:access_token|refresh_token|token|apikey|api_key|key|code|password|secret)=)[^&#\s]*/gi, "$1[redacted]"],
  [/[\w.+-]+@[\w-]+(\.[\w-]+)+/g, "[email]"],
];

export function redact(text: string): string {
  return SECRET_RULES.reduce((t, [rule, replacement]) => t.replace(rule, replacement), text);
}

/** Cuts to `max` characters without splitting a surrogate pair. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = /[\uD800-\uDBFF]/.test(text[max - 2] ?? "") ? max - 2 : max - 1;
  return `${text.slice(0, cut)}…`;
}

/** A script address without its query or fragment (an auth redirect carries tokens there). */
function bareAddress(source: string): string {
  return source.replace(/[?#][^\s)]*/g, "");
}

function describe(error: unknown): { message: string; stack: string | null } {
  if (error instanceof Error) return { message: `${error.name}: ${error.message}`, stack: error.stack ?? null };
  if (typeof error === "string") return { message: error, stack: null };
  try {
    return { message: JSON.stringify(error) ?? String(error), stack: null };
  } catch {
    return { message: String(error), stack: null };
  }
}

const position = (n: number | null | undefined) => (typeof n === "number" && Number.isFinite(n) && n > 0 ? n : null);
const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

export function errorMetadata(capture: ErrorCapture): ErrorMetadata {
  const described = describe(capture.error);
  const clean = (text: string | null | undefined, max: number) =>
    text ? truncate(redact(bareAddress(text.trim())), max) || null : null;
  const metadata: ErrorMetadata = {
    type: capture.type,
    message: clean(capture.message || described.message, ERROR_FIELD_MAX_CHARS.message) ?? "Unknown error",
    source: clean(capture.source, ERROR_FIELD_MAX_CHARS.source),
    lineno: position(capture.lineno),
    colno: position(capture.colno),
    stack: clean(described.stack, ERROR_FIELD_MAX_CHARS.stack),
  };
  // Escaped or multi-byte text can be several bytes a character: shorten the stack until it fits.
  while (metadata.stack && bytes(metadata) > ERROR_METADATA_MAX_BYTES) {
    metadata.stack = truncate(metadata.stack, Math.floor(metadata.stack.length / 2)) || null;
    if (metadata.stack && metadata.stack.length <= 2) metadata.stack = null;
  }
  if (bytes(metadata) > ERROR_METADATA_MAX_BYTES) metadata.message = truncate(metadata.message, 100);
  return metadata;
}

/** The same failure repeated (a render loop, a timer) is one report per page load. */
export function errorSignature(m: ErrorMetadata): string {
  return [m.type, m.message, m.source, m.lineno, m.colno].join("|");
}
