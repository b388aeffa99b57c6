// Errors as values. Every failure a function can answer with is an AppError whose code is one of the
// spec §8 classes (or invalid_input for validation); its HTTP status is chosen once, in http.ts.
// `detail` is for the server log only and never reaches a response.
export type ErrorCode =
  | "invalid_input"
  | "rate_limit"
  | "daily_limit"
  | "nsfw_content"
  | "insufficient_credits"
  | "network_error"
  | "auth_required"
  | "timeout"
  | "server_error";

export interface AppError {
  code: ErrorCode;
  message: string;
  retryable: boolean;
  /** Seconds the caller should wait before trying again. */
  retryAfter?: number;
  /** A more precise HTTP status than the code's default (e.g. 405, 409, 413). */
  status?: number;
  detail?: string;
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: AppError };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = <T = never>(error: AppError): Result<T> => ({ ok: false, error });

/** The spec §8 catalogue's messages, used when a failure has no more specific one. */
const CATALOGUE: Record<ErrorCode, { message: string; retryable: boolean }> = {
  invalid_input: { message: "The request is not valid", retryable: false },
  rate_limit: { message: "Please wait 60 seconds before trying again", retryable: true },
  daily_limit: { message: "Daily limit reached. Upgrade to continue generating images.", retryable: false },
  nsfw_content: { message: "Your prompt contains restricted content. Please modify it.", retryable: false },
  insufficient_credits: { message: "Upgrade to continue generating images", retryable: false },
  network_error: { message: "Check your internet connection and try again", retryable: true },
  auth_required: { message: "Please sign in to generate images", retryable: false },
  timeout: { message: "Generation is taking longer than expected. Please try again.", retryable: true },
  server_error: { message: "Our servers are experiencing issues. Please try again in a moment.", retryable: true },
};

export function appError(
  code: ErrorCode,
  extra: { message?: string; retryable?: boolean; retryAfter?: number; status?: number; detail?: string } = {},
): AppError {
  const base = CATALOGUE[code];
  const e: AppError = {
    code,
    message: extra.message ?? base.message,
    retryable: extra.retryable ?? base.retryable,
  };
  if (extra.retryAfter !== undefined) e.retryAfter = extra.retryAfter;
  if (extra.status !== undefined) e.status = extra.status;
  if (extra.detail !== undefined) e.detail = extra.detail;
  return e;
}

export const invalidInput = (message: string, status?: number): AppError =>
  appError("invalid_input", { message, status });
