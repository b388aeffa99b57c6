import { describe, expect, it } from "vitest";
import { ERROR_CATALOGUE, sanitizeForLog, toAppError } from "../../../src/api/errors";

describe("toAppError", () => {
  it("keeps the catalogue in the spec's order", () => {
    expect(ERROR_CATALOGUE.map((e) => e.kind)).toEqual([
      "rate_limit",
      "daily_limit",
      "nsfw_content",
      "insufficient_credits",
      "network_error",
      "auth_required",
      "timeout",
      "server_error",
    ]);
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
  ])("maps %j to %s", (message, kind, title, label, to) => {
    const e = toAppError(new Error(message));
    expect(e.kind).toBe(kind);
    expect(e.title).toBe(title);
    expect(e.action.label).toBe(label);
    expect(e.action.to).toBe(to);
  });

  it("prefers the earlier class when a message matches several", () => {
    expect(toAppError("rate limit hit on your daily limit").kind).toBe("rate_limit");
    expect(toAppError("daily limit: insufficient credits").kind).toBe("daily_limit");
    expect(toAppError("network timeout").kind).toBe("network_error");
    expect(toAppError("auth timeout").kind).toBe("auth_required");
  });

  it("reads the generate function's error body and its code", () => {
    expect(toAppError({ error: { code: "daily_limit", message: "No generations left today" } }).kind).toBe(
      "daily_limit",
    );
    expect(toAppError({ error: { code: "nsfw_content", message: "Refused" } }).kind).toBe("nsfw_content");
  });

  it("uses HTTP status when the words say nothing", () => {
    expect(toAppError({ message: "Edge Function returned a non-2xx status code", context: { status: 401 } }).kind).toBe(
      "auth_required",
    );
    expect(toAppError({ message: "Edge Function returned a non-2xx status code", context: { status: 503 } }).kind).toBe(
      "server_error",
    );
    expect(toAppError({ message: "Edge Function returned a non-2xx status code", context: { status: 408 } }).kind).toBe(
      "timeout",
    );
    expect(toAppError({ message: "Something broke", code: "500" }).kind).toBe("server_error");
    expect(toAppError({ message: "upstream busy", status: 429 }).kind).toBe("rate_limit");
  });

  it("treats supabase-js transport failures as connection failures", () => {
    const fetchError = Object.assign(new Error("Failed to send a request to the Edge Function"), {
      name: "FunctionsFetchError",
    });
    expect(toAppError(fetchError).kind).toBe("network_error");
    const relay = Object.assign(new Error("Relay Error invoking the Edge Function"), { name: "FunctionsRelayError" });
    expect(toAppError(relay).kind).toBe("server_error");
  });

  it("falls back to a connection failure for anything unrecognised", () => {
    const e = toAppError(new Error("something odd happened"));
    expect(e.kind).toBe("network_error");
    expect(e.message).toBe("Check your internet connection and try again");
    expect(toAppError(undefined).kind).toBe("network_error");
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
