// The billing functions' failures, answered in the shape every function answers with
// ({ error: { code, message, retryable } }, _shared/http.ts), with codes of their own beside the spec's
// catalogue: billing_not_configured, billing_unavailable, no_billing_account, checkout_not_found,
// invalid_signature. `detail` is for the server log only.
import type { AppError } from "../errors.ts";
import { jsonResponse } from "../http.ts";
import type { Result as Outcome } from "../vocabulary/result.ts";

export interface BillingError {
  code: string;
  message: string;
  status: number;
  retryable: boolean;
  detail?: string;
}

export type BillingResult<T> = Outcome<T, BillingError>;

export const MESSAGES = {
  notConfigured: "Connect Supabase + Stripe to enable subscriptions.",
  unavailable: "Payments can't be reached right now. Nothing was charged; try again in a minute.",
  noAccount: "There is no billing account yet: choose a plan first.",
  checkoutNotFound: "This payment does not belong to your account.",
  signIn: "Please sign in to manage your plan.",
  invalidSignature: "The Stripe-Signature header is missing or does not match this body.",
  serverError: "Something went wrong on our side. Nothing was charged; please try again.",
} as const;

const KNOWN: Record<string, Omit<BillingError, "code" | "detail">> = {
  billing_not_configured: { message: MESSAGES.notConfigured, status: 503, retryable: false },
  billing_unavailable: { message: MESSAGES.unavailable, status: 502, retryable: true },
  no_billing_account: { message: MESSAGES.noAccount, status: 409, retryable: false },
  checkout_not_found: { message: MESSAGES.checkoutNotFound, status: 404, retryable: false },
  invalid_signature: { message: MESSAGES.invalidSignature, status: 400, retryable: false },
  auth_required: { message: MESSAGES.signIn, status: 401, retryable: false },
  server_error: { message: MESSAGES.serverError, status: 500, retryable: true },
};

export function billingError(code: keyof typeof KNOWN, detail?: string): BillingError {
  return { code, ...KNOWN[code], ...(detail === undefined ? {} : { detail }) };
}

/** A validation failure: 400 (or `status`) invalid_input with its own message. */
export function invalid(message: string, status = 400): BillingError {
  return { code: "invalid_input", message, status, retryable: false };
}

/** A platform failure (Auth, the database) as a billing one. */
export function fromAppError(e: AppError): BillingError {
  if (e.code === "auth_required") return billingError("auth_required", e.detail);
  if (e.code === "invalid_input") return { ...invalid(e.message, e.status ?? 400), detail: e.detail };
  return billingError("server_error", e.detail ?? e.code);
}

export function billingResponse(e: BillingError): Response {
  return jsonResponse({ error: { code: e.code, message: e.message, retryable: e.retryable } }, e.status);
}

export const failed = <T = never>(error: BillingError): BillingResult<T> => ({ ok: false, error });
