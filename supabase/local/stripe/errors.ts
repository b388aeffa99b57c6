// Stripe's error answers: `{ error: { type, code?, message, param?, doc_url?, decline_code? } }` with the
// HTTP status Stripe gives each kind (400 invalid request, 401 authentication, 402 card, 404 missing
// resource, 409 idempotency in flight). Every refusal of the stand-in goes through StripeError.

export type ErrorType = "invalid_request_error" | "card_error" | "idempotency_error" | "api_error";

export class StripeError extends Error {
  constructor(
    readonly status: number,
    readonly type: ErrorType,
    message: string,
    readonly code?: string,
    readonly param?: string,
    readonly declineCode?: string,
  ) {
    super(message);
  }

  body(): { error: Record<string, string> } {
    const error: Record<string, string> = { type: this.type, message: this.message };
    if (this.code) {
      error.code = this.code;
      error.doc_url = `https://stripe.com/docs/error-codes/${this.code.replaceAll("_", "-")}`;
    }
    if (this.param) error.param = this.param;
    if (this.declineCode) error.decline_code = this.declineCode;
    return { error };
  }
}

export const invalid = (message: string, param?: string, code?: string) =>
  new StripeError(400, "invalid_request_error", message, code, param);

export const missingParam = (param: string) =>
  new StripeError(400, "invalid_request_error", `Missing required param: ${param}.`, "parameter_missing", param);

export const unknownParam = (param: string) =>
  new StripeError(
    400,
    "invalid_request_error",
    `Received unknown parameter: ${param}`,
    "parameter_unknown",
    param,
  );

/** 404 for an id that names nothing, worded as Stripe words it ("No such customer: 'cus_…'"). */
export const noSuch = (what: string, id: string, param = "id") =>
  new StripeError(404, "invalid_request_error", `No such ${what}: '${id}'`, "resource_missing", param);
