import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "#shared/vocabulary/errors.ts";
import { CLASSIFICATION_ORDER, sanitizeForLog, toAppError } from "#src/api/errors.ts";

describe("toAppError", () => {
  it("keeps the catalogue in the spec's order", () => {
    // Every code the client can show, in the vocabulary's (the spec's) order; invalid_input is the
    // server's validation answer, passed through rather than classified.
    expect(CLASSIFICATION_ORDER.map((e) => e.code)).toEqual(ERROR_CODES.filter((code) => code !== "invalid_input"));
  });

  it.each([
    ["Rate limit exceeded", "rate_limit", "Too Many Requests", "View Limits", "/pricing"],
    ["429 Too Many Requests", "rate_limit", "Too Many Requests", "View Limits", "/pricing"],
    ["daily limit reached", "daily_limit", "Daily Limit Reached", "Upgrade Now", "/pricing"],
    ["generations_today exceeds quota", "daily_limit", "Daily Limit Reached", "Upgrade Now", "/pricing"],
    ["NSFW content detected", "nsfw_content", "Content Policy Violation", "Content Policy", "/content-policy"],
    ["violates our content policy", "nsfw_content", "Content Policy Violation", "Content Policy", "/content-policy"],
    ["Insufficient balance", "insufficient_credits", "No Credits Remaining", "Get Credits", "/pricing"],
    ["out of credits", "insufficient_credits", "No Credits Remaining", "Get Credits", "/pricing"],
    ["Failed to fetch", "network_error", "Connection Failed", "Retry", undefined],
    ["NetworkError when attempting to fetch resource.", "network_error", "Connection Failed", "Retry", undefined],
    ["Unauthorized", "auth_required", "Authentication Required", "Sign In", "/auth"],
    ["request timeout", "timeout", "Request Timeout", "Retry", undefined],
  ])("maps %j to %s", (message, code, title, label, to) => {
    const e = toAppError(new Error(message));
    expect(e.code).toBe(code);
    expect(e.title).toBe(title);
    expect(e.action.label).toBe(label);
    expect(e.action.to).toBe(to);
  });

  it("prefers the earlier class when a message matches several", () => {
    expect(toAppError("rate limit hit on your daily limit").code).toBe("rate_limit");
    expect(toAppError("daily limit: insufficient credits").code).toBe("daily_limit");
    expect(toAppError("network timeout").code).toBe("network_error");
    expect(toAppError("auth timeout").code).toBe("auth_required");
  });

  it("reads the generate function's error body and its code", () => {
    expect(toAppError({ error: { code: "daily_limit", message: "No generations left today" } }).code).toBe(
      "daily_limit",
    );
    expect(toAppError({ error: { code: "nsfw_content", message: "Refused" } }).code).toBe("nsfw_content");
  });

  it("takes a server body's code before any text rule, with its retry_after", () => {
    const e = toAppError({ error: { code: "timeout", message: "rate limit words do not matter", retry_after: 7 } });
    expect(e.code).toBe("timeout");
    expect(e.title).toBe("Request Timeout");
    expect(e.retryAfterMs).toBe(7000);
    expect(toAppError(new Error("Failed to fetch")).retryAfterMs).toBeUndefined();
  });

  it("shows a validation failure's own message and the catalogue's for everything else", () => {
    const invalid = toAppError({ error: { code: "invalid_input", message: "Please select an image file" } });
    expect(invalid.code).toBe("invalid_input");
    expect(invalid.message).toBe("Please select an image file");
    const daily = toAppError({ error: { code: "daily_limit", message: "server words" } });
    expect(daily.message).toBe("You've reached your daily limit. Upgrade for more generations each day.");
    expect(daily.action).toEqual({ label: "Upgrade Now", to: "/pricing" });
  });

  it("uses HTTP status when the words say nothing", () => {
    expect(toAppError({ message: "Edge Function returned a non-2xx status code", context: { status: 401 } }).code).toBe(
      "auth_required",
    );
    expect(toAppError({ message: "Edge Function returned a non-2xx status code", context: { status: 503 } }).code).toBe(
      "server_error",
    );
    expect(toAppError({ message: "Edge Function returned a non-2xx status code", context: { status: 408 } }).code).toBe(
      "timeout",
    );
    expect(toAppError({ message: "Something broke", code: "500" }).code).toBe("server_error");
    expect(toAppError({ message: "upstream busy", status: 429 }).code).toBe("rate_limit");
  });

  it("reads Storage's token refusals (jose's words, a 400 whose statusCode is 403) as a sign-in to renew", () => {
    for (const message of [
      '"exp" claim timestamp check failed',
      "Invalid Compact JWS",
      "signature verification failed",
    ]) {
      expect(toAppError({ name: "StorageApiError", message, status: 400, statusCode: "403" }).code, message).toBe(
        "auth_required",
      );
    }
    // A refusal by a policy is no token problem.
    expect(
      toAppError({ name: "StorageApiError", message: "Access denied", status: 400, statusCode: "403" }).code,
    ).not.toBe("auth_required");
  });

  it("treats supabase-js transport failures as connection failures", () => {
    const fetchError = Object.assign(new Error("Failed to send a request to the Edge Function"), {
      name: "FunctionsFetchError",
    });
    expect(toAppError(fetchError).code).toBe("network_error");
    const relay = Object.assign(new Error("Relay Error invoking the Edge Function"), { name: "FunctionsRelayError" });
    expect(toAppError(relay).code).toBe("server_error");
  });

  it("falls back to a connection failure for anything unrecognised", () => {
    const e = toAppError(new Error("something odd happened"));
    expect(e.code).toBe("network_error");
    expect(e.message).toBe("Check your internet connection and try again");
    expect(toAppError(undefined).code).toBe("network_error");
  });
});

describe("sanitizeForLog", () => {
  it("reduces messages to the spec's categories", () => {
    expect(
      sanitizeForLog({ message: 'new row violates row-level security policy for table "generations"', code: "42501" }),
    ).toBe("Access denied (row-level security)");
    expect(sanitizeForLog({ message: "JWT expired", code: "PGRST301" })).toBe("Authentication required");
    expect(sanitizeForLog({ message: 'duplicate key value violates unique constraint "x"', code: "23505" })).toBe(
      "Invalid operation",
    );
    expect(sanitizeForLog(new Error("Edge Function returned a non-2xx status code"))).toBe("Service error");
    expect(sanitizeForLog({ name: "AuthApiError", message: "auth flow broke" })).toBe("Authentication error");
    expect(sanitizeForLog("user 1234 did a thing")).toBe("An error occurred");
  });
});
