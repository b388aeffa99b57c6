// The client's one mapping from any failure (supabase-js errors, fetch failures, the generate
// function's `{ error: { code, message, retryable, retry_after? } }` bodies, plain strings) to the
// spec's error catalogue (docs/spec.md §8). A server body's own code wins; otherwise the text rules are tried in
// the catalogue's order; a failure that matches none is a network error.
import { ERROR_CATALOGUE, ERROR_CODES, type ErrorAction, type ErrorCode } from "#shared/vocabulary/errors.ts";

export type AppError = {
  code: ErrorCode;
  title: string;
  message: string;
  action: ErrorAction;
  /** The original failure's text, for logs only; never shown as is. */
  detail: string;
  /** How long the server asked the caller to wait before trying again (its `retry_after`). */
  retryAfterMs?: number;
};

type Probe = { text: string; status: number | undefined; name: string };

/** The text rules, in the catalogue's order: the first that matches wins. */
export const CLASSIFICATION_ORDER: readonly { code: ErrorCode; matches: (p: Probe) => boolean }[] = [
  { code: "rate_limit", matches: (p) => /rate[\s_-]?limit|too many requests/.test(p.text) || p.status === 429 },
  { code: "daily_limit", matches: (p) => /daily[\s_-]?limit|generations_today/.test(p.text) },
  { code: "nsfw_content", matches: (p) => /nsfw|content[\s_-]?policy/.test(p.text) },
  { code: "publishing_suspended", matches: (p) => /publishing[\s_-]?suspended/.test(p.text) },
  { code: "insufficient_credits", matches: (p) => /credit|insufficient/.test(p.text) || p.status === 402 },
  {
    code: "network_error",
    // supabase-js names its transport failures; their messages do not always say "fetch".
    matches: (p) =>
      /network|fetch|offline/.test(p.text) || p.name === "functionsfetcherror" || p.name === "authretryablefetcherror",
  },
  {
    code: "auth_required",
    // Storage words a bad token as jose does ("Invalid Compact JWS", '"exp" claim timestamp check failed',
    // "signature verification failed"), in a 400 whose statusCode is 403.
    matches: (p) =>
      /auth|unauthori[sz]ed|jwt|\bjws\b|claim timestamp check failed|signature verification failed|\b401\b/.test(
        p.text,
      ) || p.status === 401,
  },
  { code: "timeout", matches: (p) => /time[\s_-]?out|timed out|\b408\b/.test(p.text) || p.status === 408 },
  {
    code: "server_error",
    matches: (p) =>
      (p.status !== undefined && p.status >= 500) ||
      /server[\s_-]?error/.test(p.text) ||
      p.name === "functionsrelayerror",
  },
];

function field(value: unknown, key: string): unknown {
  return value !== null && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;
}

function asStatus(value: unknown): number | undefined {
  const n = typeof value === "string" && /^\d{3}$/.test(value) ? Number(value) : value;
  return typeof n === "number" && Number.isInteger(n) && n >= 100 && n <= 599 ? n : undefined;
}

const isErrorCode = (value: unknown): value is ErrorCode => ERROR_CODES.includes(value as ErrorCode);

/** Collects the words and status a failure carries, wherever the library put them. */
function probe(error: unknown): Probe {
  if (typeof error === "string") return { text: error.toLowerCase(), status: undefined, name: "" };
  const nested = field(error, "error"); // the generate function's `{ error: { code, message } }`
  const parts = [error, nested].flatMap((source) =>
    ["code", "error_code", "message", "msg", "error_description", "details", "hint"].map((k) => field(source, k)),
  );
  if (typeof nested === "string") parts.push(nested);
  const text = parts
    .filter((p) => typeof p === "string" || typeof p === "number")
    .join(" ")
    .toLowerCase();
  const context = field(error, "context"); // FunctionsHttpError keeps the Response here
  const status =
    asStatus(field(error, "status")) ??
    asStatus(field(context, "status")) ??
    asStatus(field(error, "code")) ??
    asStatus(field(nested, "code"));
  const name = String(field(error, "name") ?? "").toLowerCase();
  return { text, status, name };
}

function retryAfterMs(error: unknown): number | undefined {
  const seconds = Number(field(field(error, "error"), "retry_after") ?? field(error, "retry_after"));
  return Number.isFinite(seconds) && seconds >= 0 ? Math.round(seconds * 1000) : undefined;
}

/** The catalogue entry for `code` as an AppError; `message` overrides the catalogue's text. */
export function appErrorOf(code: ErrorCode, detail = "", message?: string): AppError {
  const entry = ERROR_CATALOGUE[code];
  return { code, title: entry.title, message: message ?? entry.message, action: entry.action, detail };
}

export function toAppError(error: unknown): AppError {
  const p = probe(error);
  const detail = p.text || String(error);
  const bodyCode = field(field(error, "error"), "code");
  let result: AppError;
  if (isErrorCode(bodyCode)) {
    // A validation failure's message is the docs/spec.md §5 text for exactly what was wrong: show it as is.
    const serverMessage = field(field(error, "error"), "message");
    const message = bodyCode === "invalid_input" && typeof serverMessage === "string" ? serverMessage : undefined;
    result = appErrorOf(bodyCode, detail, message);
  } else {
    const rule = CLASSIFICATION_ORDER.find((r) => r.matches(p));
    result = appErrorOf(rule?.code ?? "network_error", detail);
  }
  const wait = retryAfterMs(error);
  if (wait !== undefined) result.retryAfterMs = wait;
  return result;
}

/**
 * What may reach the console: a category, never the raw message (which can carry ids, tokens or
 * SQL). The spec's sanitiser keeps exactly these labels.
 */
export function sanitizeForLog(error: unknown): string {
  const { text, status } = probe(error);
  if (/row-level security|permission denied|42501/.test(text)) return "Access denied (row-level security)";
  if (/jwt|not authenticated|auth(entication)? required/.test(text) || status === 401) {
    return "Authentication required";
  }
  if (/invalid|violates|constraint|\b2[23]\d{3}\b/.test(text)) return "Invalid operation";
  if (/function|service|server/.test(text) || (status !== undefined && status >= 500)) return "Service error";
  if (/auth/.test(text)) return "Authentication error";
  return "An error occurred";
}
