// checkSession reads the auth server's answer to GET /auth/v1/user (supabase-js getUser) into what a
// device must do with its session (decision 129).
import { AuthApiError, AuthRetryableFetchError, AuthSessionMissingError } from "@supabase/supabase-js";
import { beforeEach, describe, expect, it, vi } from "vitest";

const getUser = vi.fn();
vi.mock("#src/api/client.ts", () => ({
  supabase: () => ({ auth: { getUser } }),
  forgetStoredSession: vi.fn(),
  onStoredSessionWritten: vi.fn(),
}));
const { checkSession } = await import("#src/api/auth.ts");

const answer = (error: Error | null, user: object | null = null) => ({ data: { user }, error });

beforeEach(() => getUser.mockReset());

describe("checkSession", () => {
  it("holds when the server knows the user and the session", async () => {
    getUser.mockResolvedValue(answer(null, { id: "u1" }));
    expect(await checkSession()).toBe("valid");
  });

  it("tells a deleted account from an ended session", async () => {
    getUser.mockResolvedValue(
      answer(new AuthApiError("User from sub claim in JWT does not exist", 403, "user_not_found")),
    );
    expect(await checkSession()).toBe("account-gone");
    // supabase-js answers the server's session_not_found as AuthSessionMissingError.
    getUser.mockResolvedValue(answer(new AuthSessionMissingError()));
    expect(await checkSession()).toBe("session-ended");
    getUser.mockResolvedValue(answer(new AuthApiError("Invalid Refresh Token", 400, "refresh_token_not_found")));
    expect(await checkSession()).toBe("session-ended");
  });

  it("concludes nothing when the server could not be asked", async () => {
    getUser.mockResolvedValue(answer(new AuthRetryableFetchError("Failed to fetch", 0)));
    expect(await checkSession()).toBe("unknown");
    getUser.mockResolvedValue(answer(new AuthApiError("upstream", 500, "unexpected_failure")));
    expect(await checkSession()).toBe("unknown");
  });
});
