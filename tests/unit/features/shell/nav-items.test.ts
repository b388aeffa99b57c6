import { describe, expect, it } from "vitest";
import { initialOf } from "#src/features/auth/account-menu.tsx";
import { NAV_GROUPS, isActive } from "#src/features/shell/nav-items.ts";
import { gallerySearchPath } from "#src/features/shell/search-box.tsx";

describe("top bar and sidebar", () => {
  it("sends a non-empty search to the gallery and ignores a blank one", () => {
    expect(gallerySearchPath("  neon city ")).toBe("/gallery?q=neon%20city");
    expect(gallerySearchPath("cats & dogs")).toBe("/gallery?q=cats%20%26%20dogs");
    expect(gallerySearchPath("   ")).toBeNull();
  });

  it("shows the first letter of the e-mail", () => {
    expect(initialOf("alice@example.com")).toBe("A");
    expect(initialOf("")).toBe("?");
  });

  it("lists the Create and Mine groups of the spec, in order, without Audio (decision 132)", () => {
    expect(NAV_GROUPS.map((g) => [g.label, g.items.map((i) => i.label)])).toEqual([
      ["Create", ["Home", "Generate", "Prompts", "Templates", "Styles", "Advanced", "Text Effects", "More Tools"]],
      ["Mine", ["Gallery", "Saved", "History", "Collections", "Settings", "Upgrade"]],
    ]);
    expect(NAV_GROUPS[1].items.find((i) => i.label === "Saved")?.to).toBe("/my-generations");
  });

  it("marks Home active only on / and other items below their path", () => {
    expect(isActive("/", "/")).toBe(true);
    expect(isActive("/", "/styles")).toBe(false);
    expect(isActive("/styles", "/styles/anime")).toBe(true);
    expect(isActive("/styles", "/styles-library")).toBe(false);
  });
});
