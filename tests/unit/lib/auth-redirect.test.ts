import { describe, expect, it } from "vitest";
import { authRedirectPath, safeReturnPath } from "#src/lib/auth-redirect.ts";

describe("protected-route redirect", () => {
  it("carries the requested path, with its query, as `from`", () => {
    expect(authRedirectPath({ pathname: "/billing" })).toBe("/auth?from=%2Fbilling");
    expect(authRedirectPath({ pathname: "/history", search: "page=2" })).toBe("/auth?from=%2Fhistory%3Fpage%3D2");
    expect(authRedirectPath({ pathname: "/history", search: "?page=2" })).toBe("/auth?from=%2Fhistory%3Fpage%3D2");
  });

  it("returns to `from` after sign-in", () => {
    const from = new URLSearchParams(
      authRedirectPath({ pathname: "/my-generations", search: "q=cat" }).split("?")[1],
    ).get("from");
    expect(safeReturnPath(from)).toBe("/my-generations?q=cat");
  });

  it("lands on the dashboard without a usable `from`", () => {
    expect(safeReturnPath(null)).toBe("/dashboard");
    expect(safeReturnPath("")).toBe("/dashboard");
    expect(safeReturnPath("/auth")).toBe("/dashboard");
    expect(safeReturnPath("/auth?from=/billing")).toBe("/dashboard");
  });

  it("refuses destinations off this site", () => {
    for (const bad of [
      "https://evil.example/x",
      "//evil.example/x",
      "/\\evil.example",
      "javascript:alert(1)",
      "billing",
    ]) {
      expect(safeReturnPath(bad)).toBe("/dashboard");
    }
  });
});
