import { describe, expect, it } from "vitest";
import { hostRedirectTarget, showsDevelopmentBanner } from "#src/lib/host-policy.ts";

const at = (hostname: string, pathname = "/gallery", search = "?q=cats", hash = "") => ({
  hostname,
  pathname,
  search,
  hash,
});

describe("host policy", () => {
  it("shows the development banner on every host but the production domain", () => {
    expect(showsDevelopmentBanner("promptcanvas.app", "promptcanvas.app")).toBe(false);
    expect(showsDevelopmentBanner("www.promptcanvas.app", "promptcanvas.app")).toBe(false);
    expect(showsDevelopmentBanner("127.0.0.1", "promptcanvas.app")).toBe(true);
    expect(showsDevelopmentBanner("mirror.example.com", "promptcanvas.app")).toBe(true);
    expect(showsDevelopmentBanner("promptcanvas.app", "")).toBe(true);
  });

  it("sends a foreign host to the production domain with the same path", () => {
    expect(hostRedirectTarget(at("mirror.example.com"), "promptcanvas.app")).toBe(
      "https://promptcanvas.app/gallery?q=cats",
    );
  });

  it("never redirects localhost, 127.0.0.1, the production domain or a preview host", () => {
    expect(hostRedirectTarget(at("localhost"), "promptcanvas.app")).toBeNull();
    expect(hostRedirectTarget(at("127.0.0.1"), "promptcanvas.app")).toBeNull();
    expect(hostRedirectTarget(at("app.localhost"), "promptcanvas.app")).toBeNull();
    expect(hostRedirectTarget(at("promptcanvas.app"), "promptcanvas.app")).toBeNull();
    expect(hostRedirectTarget(at("pr-12.preview.pages.dev"), "promptcanvas.app", [".pages.dev"])).toBeNull();
  });

  it("does nothing when no production domain is configured", () => {
    expect(hostRedirectTarget(at("mirror.example.com"), "")).toBeNull();
  });
});
