import { describe, expect, it } from "vitest";
import { hostRedirectTarget, isBuilderPreviewHost, showsDevelopmentBanner } from "#src/lib/host-policy.ts";

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

  it("spares app-builder preview hosts with no configuration, and only those", () => {
    for (const host of [
      "id-preview--1234.lovable.app",
      "5f3c.lovableproject.com",
      "abc--5173--1b4252dd.local-credentialless.webcontainer-api.io",
      "4f1e-abc.riker.replit.dev",
      "kzmabc.lite.vusercontent.net",
      "x7y2z-5173.csb.app",
    ]) {
      expect(isBuilderPreviewHost(host)).toBe(true);
      expect(hostRedirectTarget(at(host), "promptcanvas.app")).toBeNull();
      expect(showsDevelopmentBanner(host, "promptcanvas.app")).toBe(true);
    }
    // A look-alike name is not a builder host: label by label, not by text.
    for (const host of ["evil-lovable.app", "lovable.app.mirror.example.com", "notcsb.app"]) {
      expect(isBuilderPreviewHost(host)).toBe(false);
      expect(hostRedirectTarget(at(host), "promptcanvas.app")).toBe("https://promptcanvas.app/gallery?q=cats");
    }
    expect(hostRedirectTarget(at("evilpages.dev"), "promptcanvas.app", [".pages.dev"])).not.toBeNull();
  });

  it("does nothing when no production domain is configured", () => {
    expect(hostRedirectTarget(at("mirror.example.com"), "")).toBeNull();
  });
});
