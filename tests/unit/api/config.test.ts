// The app's configuration: the contact address a site publishes (CONTACT_EMAIL through /app-config.js,
// VITE_CONTACT_EMAIL baked into a build) is taken only when it reads as one address, the runtime's wins
// over the build's, and the build's alone is what prerendered pages were written with.
import { describe, expect, it } from "vitest";
import { builtConfig, contactAddress, readConfig } from "#src/api/config.ts";

describe("the contact address", () => {
  it.each(["ops@example.org", "a.b+moderation@mail.example.co.uk", "o-neil_x@example.org"])(
    "takes %s as it is",
    (address) => {
      expect(contactAddress(address)).toBe(address);
    },
  );

  it.each([
    ["no @", "ops.example.org"],
    ["no dotted domain", "ops@localhost"],
    ["two @", "ops@@example.org"],
    ["a space", "o ps@example.org"],
    ["an empty label", "ops@example..org"],
    ["angle brackets", "<ops@example.org>"],
    ["a mailto header", "ops@example.org?subject=hi"],
    ["a second address", "ops@example.org,b@example.org"],
    ["a quote that could close an attribute", 'ops"@example.org'],
    ["more than 254 characters", `${"a".repeat(250)}@example.org`],
    ["nothing", ""],
  ])("refuses an address with %s", (_why, raw) => {
    expect(contactAddress(raw)).toBe("");
  });

  it("takes the runtime's address over the build's, and the build's when the runtime names none", () => {
    const built = { VITE_CONTACT_EMAIL: "built@example.org" };
    expect(readConfig({ contactEmail: "ops@example.org" }, built).contactEmail).toBe("ops@example.org");
    expect(readConfig({ contactEmail: "  " }, built).contactEmail).toBe("built@example.org");
    expect(readConfig({}, built).contactEmail).toBe("built@example.org");
    expect(readConfig({}, {}).contactEmail).toBe("");
  });

  it("shows a mistyped setting as no address, not as the build's", () => {
    expect(
      readConfig({ contactEmail: "ops at example.org" }, { VITE_CONTACT_EMAIL: "built@example.org" }),
    ).toMatchObject({ contactEmail: "" });
  });

  it("gives the build's configuration apart from /app-config.js", () => {
    window.__APP_CONFIG__ = { contactEmail: "ops@example.org", productionHost: "runtime.example" };
    try {
      const built = builtConfig({ VITE_CONTACT_EMAIL: "built@example.org", VITE_PRODUCTION_HOST: "Built.Example" });
      expect(built).toMatchObject({ contactEmail: "built@example.org", productionHost: "built.example" });
      expect(readConfig(undefined, {}).contactEmail).toBe("ops@example.org");
    } finally {
      delete window.__APP_CONFIG__;
    }
  });
});
