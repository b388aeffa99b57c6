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

describe("`from` never turns into another origin", () => {
  const ORIGIN = "https://promptcanvas.test";
  /** Where a browser would go if the app navigated to `path` (history or location). */
  const landing = (path: string) => new URL(path, `${ORIGIN}/auth?from=x`);

  // Ways to write "the root of another host" that a path check done before the URL parser misses.
  const HEADS = ["", "/", "/.", "/..", "/./", "/../", "/./.", "/%2e", "/%2e/", "/.%2e/", "/%2e%2e/"];
  const SLASHES = ["/", "//", "\\", "\\\\", "/\\", "\\/", "%2F", "%2f%2F", "%5C", "/%2F", "\t/", "\n/", "/\t/", " //"];
  const HOSTS = ["evil.test", "evil.test/x?y=1#z", "evil.test:443", "user@evil.test", "%65vil.test", "evil.test%2F"];
  const SCHEMES = [
    "https://evil.test",
    "HTTPS://evil.test",
    "http:evil.test",
    "https:/evil.test",
    "javascript:alert(1)",
    " javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    "java\tscript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "vbscript:msgbox(1)",
    "blob:https://evil.test/1",
    "/\u0000//evil.test",
    "/\u007f//evil.test",
  ];
  const variants = [
    ...HEADS.flatMap((head) => SLASHES.flatMap((slash) => HOSTS.map((host) => `${head}${slash}${host}`))),
    ...SCHEMES,
    ...SCHEMES.map((s) => `/${s}`),
  ];

  it(`lands every one of ${variants.length} crafted values on a local path`, () => {
    expect(variants.length).toBeGreaterThan(900);
    for (const from of variants) {
      const path = safeReturnPath(from);
      expect(path, from).toMatch(/^\/(?![/\\])/);
      expect(landing(path).origin, `${from} -> ${path}`).toBe(ORIGIN);
    }
  });

  it("takes the published variants to the dashboard", () => {
    for (const from of ["/.//evil.test", "/..//evil.test", "/./\\evil.test", "//evil.test", "/\\evil.test"]) {
      expect(safeReturnPath(from), from).toBe("/dashboard");
    }
    // Encoded slashes stay encoded: a local path the router answers with its not-found page.
    expect(safeReturnPath("/%2F%2Fevil.test")).toBe("/%2F%2Fevil.test");
  });

  it("keeps ordinary local paths as they are", () => {
    for (const from of ["/history", "/history?q=cat#top", "/generate?style=anime&seed=42", "/a/./b", "/a/../b"]) {
      expect(landing(safeReturnPath(from)).origin).toBe(ORIGIN);
    }
    expect(safeReturnPath("/history?q=cat#top")).toBe("/history?q=cat#top");
    expect(safeReturnPath("/a/../b")).toBe("/b");
  });
});
