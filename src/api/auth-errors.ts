// Sign-in failures as values the auth screens can word for people. supabase-js reports them as
// AuthApiError (with a GoTrue `code`), AuthWeakPasswordError (with `reasons`) or
// AuthRetryableFetchError (status 0 when the network is down).

export type AuthFailureCode =
  | "invalid_credentials"
  | "weak_password"
  | "user_exists"
  | "email_not_confirmed"
  | "same_password"
  | "rate_limited"
  | "session_missing"
  | "link_invalid"
  | "network"
  | "not_configured"
  | "unknown";

export type AuthFailure = { code: AuthFailureCode; message: string };

const MESSAGES: Record<Exclude<AuthFailureCode, "weak_password" | "unknown">, string> = {
  invalid_credentials: "That email and password don't match an account. Check them and try again.",
  user_exists: "An account with this email already exists. Sign in instead, or reset your password.",
  email_not_confirmed: "Confirm your email address first: open the link we sent you, then sign in.",
  same_password: "Choose a password that is different from your current one.",
  rate_limited: "Too many attempts. Wait a minute, then try again.",
  session_missing: "Your session has ended. Request a new reset link or sign in again.",
  link_invalid: "This link is invalid or has expired. Request a new one.",
  network: "We couldn't reach the server. Check your connection and try again.",
  not_configured: "This copy of PromptCanvas has no backend configured, so accounts are unavailable.",
};

function read(value: unknown, key: string): unknown {
  return value !== null && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;
}

function weakPasswordMessage(error: unknown): string {
  const reasons = read(error, "reasons");
  const hints: Record<string, string> = {
    length: "make it longer",
    characters: "mix letters, numbers and symbols",
    pwned: "pick one that has not appeared in a data breach",
  };
  const list = Array.isArray(reasons) ? reasons.map((r) => hints[String(r)]).filter(Boolean) : [];
  const base = "That password is too weak";
  if (list.length) return `${base}: ${list.join(", ")}.`;
  const text = String(read(error, "message") ?? "");
  return text && !/^weak[_ ]password$/i.test(text) ? `${base}. ${text}` : `${base}. Use at least 8 characters.`;
}

export function toAuthFailure(error: unknown): AuthFailure {
  const name = String(read(error, "name") ?? "");
  const code = String(read(error, "code") ?? "");
  const status = read(error, "status");
  const text = String(read(error, "message") ?? error ?? "").toLowerCase();

  if (name === "BackendNotConfiguredError") return { code: "not_configured", message: MESSAGES.not_configured };
  if (name === "AuthWeakPasswordError" || code === "weak_password") {
    return { code: "weak_password", message: weakPasswordMessage(error) };
  }
  if (name === "AuthRetryableFetchError" || status === 0 || /failed to fetch|network|load failed/.test(text)) {
    return { code: "network", message: MESSAGES.network };
  }
  if (code === "invalid_credentials" || /invalid login credentials/.test(text)) {
    return { code: "invalid_credentials", message: MESSAGES.invalid_credentials };
  }
  if (code === "user_already_exists" || code === "email_exists" || /already (registered|exists)/.test(text)) {
    return { code: "user_exists", message: MESSAGES.user_exists };
  }
  if (code === "email_not_confirmed") return { code: "email_not_confirmed", message: MESSAGES.email_not_confirmed };
  if (code === "same_password") return { code: "same_password", message: MESSAGES.same_password };
  if (code.startsWith("over_") || status === 429) return { code: "rate_limited", message: MESSAGES.rate_limited };
  if (name === "AuthSessionMissingError" || code === "session_not_found") {
    return { code: "session_missing", message: MESSAGES.session_missing };
  }
  if (code === "otp_expired" || name === "AuthImplicitGrantRedirectError" || /expired|invalid.*link/.test(text)) {
    return { code: "link_invalid", message: MESSAGES.link_invalid };
  }
  return { code: "unknown", message: "Something went wrong on our side. Please try again in a moment." };
}
