// Errors as values. Every failure a function can answer with is an AppError whose code is one of the
// docs/spec.md §8 classes (or invalid_input for validation); its HTTP status is chosen once, in http.ts.
// `detail` is for the server log only and never reaches a response.
import { ERROR_CATALOGUE, type ErrorCode, VALIDATION_MESSAGES } from "./vocabulary/errors.ts";
import type { Result as Outcome } from "./vocabulary/result.ts";

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

/** The shared Result (vocabulary/result.ts) with the functions' error. */
export type Result<T> = Outcome<T, AppError>;

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = <T = never>(error: AppError): Result<T> => ({ ok: false, error });

/**
 * Where docs/spec.md §5 words the generate function's own answer (signing in to generate, the daily limit), that
 * sentence; every other code answers with its §8 catalogue message unless the failure has a more
 * specific one.
 */
const GENERATE_MESSAGES: Partial<Record<ErrorCode, string>> = {
  auth_required: VALIDATION_MESSAGES.signInToGenerate,
  daily_limit: VALIDATION_MESSAGES.dailyLimit,
};

export function appError(
  code: ErrorCode,
  extra: { message?: string; retryable?: boolean; retryAfter?: number; status?: number; detail?: string } = {},
): AppError {
  const base = ERROR_CATALOGUE[code];
  const e: AppError = {
    code,
    message: extra.message ?? GENERATE_MESSAGES[code] ?? base.message,
    retryable: extra.retryable ?? base.retryable,
  };
  if (extra.retryAfter !== undefined) e.retryAfter = extra.retryAfter;
  if (extra.status !== undefined) e.status = extra.status;
  if (extra.detail !== undefined) e.detail = extra.detail;
  return e;
}

export const invalidInput = (message: string, status?: number): AppError =>
  appError("invalid_input", { message, status });
