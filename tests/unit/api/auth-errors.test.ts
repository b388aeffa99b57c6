import { describe, expect, it } from "vitest";
import { toAuthFailure } from "../../../src/api/auth-errors";

function authApiError(code: string, message: string, status: number) {
  return Object.assign(new Error(message), { name: "AuthApiError", code, status });
}

describe("toAuthFailure", () => {
  it("words invalid credentials", () => {
    const f = toAuthFailure(authApiError("invalid_credentials", "Invalid login credentials", 400));
    expect(f.code).toBe("invalid_credentials");
    expect(f.message).toMatch(/don't match an account/);
  });

  it("words an existing account", () => {
    expect(toAuthFailure(authApiError("user_already_exists", "User already registered", 422)).code).toBe("user_exists");
    expect(toAuthFailure(authApiError("email_exists", "Email address already exists", 422)).code).toBe("user_exists");
  });

  it("explains a weak password with the server's reasons", () => {
    const weak = Object.assign(new Error("Password should be at least 8 characters."), {
      name: "AuthWeakPasswordError",
      code: "weak_password",
      status: 422,
      reasons: ["length"],
    });
    const f = toAuthFailure(weak);
    expect(f.code).toBe("weak_password");
    expect(f.message).toBe("That password is too weak: make it longer.");
  });

  it("says the network is down for retryable fetch failures", () => {
    const down = Object.assign(new Error("Failed to fetch"), { name: "AuthRetryableFetchError", status: 0 });
    const f = toAuthFailure(down);
    expect(f.code).toBe("network");
    expect(f.message).toMatch(/couldn't reach the server/);
  });

  it("says when no backend is configured", () => {
    expect(toAuthFailure(Object.assign(new Error("x"), { name: "BackendNotConfiguredError" })).code).toBe(
      "not_configured",
    );
  });

  it("never shows a raw server message for unknown failures", () => {
    const f = toAuthFailure(authApiError("unexpected_failure", "pq: relation does not exist", 500));
    expect(f.code).toBe("unknown");
    expect(f.message).not.toMatch(/relation/);
  });
});
