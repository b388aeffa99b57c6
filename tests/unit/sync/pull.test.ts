// docs/spec.md §4, Preferences: loaded at start; a person with no preferences row gets the default one
// created, and this device keeps it, so the generator starts from it.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { PreferencesRow } from "#shared/vocabulary/rows.ts";
import { openAppDb, type AppDb } from "#src/db/db.ts";
import { ok } from "#src/lib/result.ts";
import { preferencesRow } from "../../support/records.ts";

const server = vi.hoisted(() => ({
  prefs: null as PreferencesRow | null,
  created: [] as unknown[],
  /** Runs after the preferences were read and before their answer arrives. */
  whileReading: null as (() => Promise<void>) | null,
}));

vi.mock("#src/api/user-rows.ts", () => ({
  fetchGenerationsSince: async () => ok([]),
  fetchGenerationsByIds: async () => ok([]),
  fetchPreferences: async () => {
    const read = server.prefs && { ...server.prefs };
    await server.whileReading?.();
    return ok(read);
  },
  setMyTimezone: async () => ok(null),
  fetchMyLimits: async () =>
    ok({ generations_today: 0, daily_limit: 5, remaining: 5, reset_at: "2026-11-23T00:00:00.000Z", tier: "free" }),
  createDefaultPreferences: async (userId: string, timezone: string | null) => {
    server.created.push([userId, timezone]);
    const { preferencesRow } = await import("../../support/records.ts");
    server.prefs = preferencesRow(userId, { timezone: timezone ?? "UTC" });
    return ok(server.prefs);
  },
}));

const { pullUserData } = await import("#src/sync/pull.ts");
const { completePreferencesEntry, updatePreferences } = await import("#src/db/library.ts");
const { pendingEntries } = await import("#src/db/outbox.ts");

let db: AppDb;
beforeEach(() => {
  server.prefs = null;
  server.created = [];
  server.whileReading = null;
  db = openAppDb(`pull-${crypto.randomUUID()}`);
});
afterEach(async () => {
  await db.delete();
});

describe("pullUserData, preferences", () => {
  it("creates the default row for a person who has none, and keeps it on this device", async () => {
    const report = await pullUserData(db, "alice", () => new Date("2026-11-22T10:00:00Z"), "Europe/Paris");
    expect(report.errors).toEqual([]);
    expect(server.created).toEqual([["alice", "Europe/Paris"]]);
    expect(await db.preferences.get("alice")).toMatchObject({
      defaultStyle: "photorealistic",
      defaultQuality: "high",
      defaultAspectRatio: "1:1",
      notificationsEnabled: true,
      publicGalleryOptIn: false,
      timezone: "Europe/Paris",
    });
  });

  it("creates nothing when the row exists", async () => {
    server.prefs = preferencesRow("alice", {
      default_style: "anime",
      default_quality: "ultra",
      default_aspect_ratio: "16:9",
      notifications_enabled: false,
      public_gallery_opt_in: true,
    });
    await pullUserData(db, "alice", () => new Date("2026-11-22T10:00:00Z"), "UTC");
    expect(server.created).toEqual([]);
    expect(await db.preferences.get("alice")).toMatchObject({ defaultStyle: "anime", defaultQuality: "ultra" });
  });

  it("keeps a change saved and sent while it read them (fault seed 3642)", async () => {
    server.prefs = preferencesRow("alice", { updated_at: "2026-11-22T09:00:00.000Z" });
    const at = Date.parse("2026-11-22T10:00:00Z");
    server.whileReading = async () => {
      // The person saves a new style; the outbox sends it and the server takes it, before the pull is done.
      await updatePreferences("alice", { defaultStyle: "steampunk" }, db);
      const [entry] = await pendingEntries(db, "alice");
      await completePreferencesEntry(db, { ...entry, patch: { defaultStyle: "steampunk" } }, at + 300);
      server.prefs = { ...server.prefs!, default_style: "steampunk" };
    };
    await pullUserData(db, "alice", () => new Date(at), "UTC");
    expect(await db.preferences.get("alice")).toMatchObject({ defaultStyle: "steampunk", defaultQuality: "high" });
  });
});
