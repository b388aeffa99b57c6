// The client's one mapping from any failure (supabase-js errors, fetch failures, the generate
// function's `{ error: { code, message } }` bodies, plain strings) to the spec's error catalogue
// (§8). Classes are tried in the catalogue's order; a failure that matches none is a network error.

export type ErrorKind =
  | "rate_limit"
  | "daily_limit"
  | "nsfw_content"
  | "insufficient_credits"
  | "network_error"
  | "auth_required"
  | "timeout"
  | "server_error";

/** `to` is a path; an action without one re-runs what failed (Retry). */
export type ErrorAction = { label: string; to?: string };

export type AppError = {
  kind: ErrorKind;
  title: string;
  message: string;
  action: ErrorAction;
  /** The original failure's text, for logs only; never shown as is. */
  detail: string;
};

type Probe = { text: string; status: number | undefined; name: string };

type Entry = {
  kind: ErrorKind;
  title: string;
  message: string;
  action: ErrorAction;
  matches: (p: Probe) => boolean;
};

const RETRY: ErrorAction = { label: "Retry" };

/** In the catalogue's order: the first entry that matches wins. */
export const ERROR_CATALOGUE: readonly Entry[] = [
  {
    kind: "rate_limit",
    title: "Too Many Requests",
    message: "Please wait 60 seconds before trying again",
    action: { label: "View Limits", to: "/pricing" },
    matches: (p) => /rate[\s_-]?limit|too many requests/.test(p.text) || p.status === 429,
  },
  {
    kind: "daily_limit",
    title: "Daily Limit Reached",
    message: "You've reached your free daily limit. Upgrade for unlimited generations.",
    action: { label: "Upgrade Now", to: "/pricing" },
    matches: (p) => /daily[\s_-]?limit|generations_today/.test(p.text),
  },
  {
    kind: "nsfw_content",
    title: "Content Policy Violation",
    message: "Your prompt contains restricted content. Please modify it.",
    action: { label: "Content Policy", to: "/content-policy" },
    matches: (p) => /nsfw|content[\s_-]?policy/.test(p.text),
  },
  {
    kind: "insufficient_credits",
    title: "No Credits Remaining",
    message: "Upgrade to continue generating images",
    action: { label: "Get Credits", to: "/pricing" },
    matches: (p) => /credit|insufficient/.test(p.text),
  },
  {
    kind: "network_error",
    title: "Connection Failed",
    message: "Check your internet connection and try again",
    action: RETRY,
    // supabase-js names its transport failures; their messages do not always say "fetch".
    matches: (p) =>
      /network|fetch/.test(p.text) || p.name === "functionsfetcherror" || p.name === "authretryablefetcherror",
  },
  {
    kind: "auth_required",
    title: "Authentication Required",
    message: "Please sign in to continue",
    action: { label: "Sign In", to: "/auth" },
    matches: (p) => /auth|unauthori[sz]ed|jwt|\b401\b/.test(p.text) || p.status === 401,
  },
  {
    kind: "timeout",
    title: "Request Timeout",
    message: "Generation is taking longer than expected. Please try again.",
    action: RETRY,
    matches: (p) => /time[\s_-]?out|timed out|\b408\b/.test(p.text) || p.status === 408,
  },
  {
    kind: "server_error",
    title: "Server Error",
    message: "Our servers are experiencing issues. Please try again in a moment.",
    action: RETRY,
    matches: (p) =>
      (p.status !== undefined && p.status >= 500) ||
      /server[\s_-]?error/.test(p.text) ||
      p.name === "functionsrelayerror",
  },
];

const FALLBACK = ERROR_CATALOGUE.find((e) => e.kind === "network_error")!;

function field(value: unknown, key: string): unknown {
  return value !== null && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;
}

function asStatus(value: unknown): number | undefined {
  const n = typeof value === "string" && /^\d{3}$/.test(value) ? Number(value) : value;
  return typeof n === "number" && Number.isInteger(n) && n >= 100 && n <= 599 ? n : undefined;
}

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

export function toAppError(error: unknown): AppError {
  const p = probe(error);
  const entry = ERROR_CATALOGUE.find((e) => e.matches(p)) ?? FALLBACK;
  return {
    kind: entry.kind,
    title: entry.title,
    message: entry.message,
    action: entry.action,
    detail: p.text || String(error),
  };
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
