// docs/spec.md §4, Preferences: a person with no preferences row gets the default one, made by the
// app's own call through the real supabase-js client against the local backend (row-level security
// decides); a row that exists is kept as it is, and nobody makes one for someone else.
import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { setBackendClient } from "#src/api/client.ts";
import { createDefaultPreferences } from "#src/api/user-rows.ts";
import { clientsFor, people, useBackend } from "../support/backend-suite.ts";

const backend = useBackend();
const { server: service } = clientsFor(backend);
const [owner, stranger] = people(backend, "prefs-owner", "prefs-stranger");

const rowOf = async (userId: string) =>
  (await service.from("user_preferences").select("*").eq("user_id", userId).maybeSingle()).data as Record<
    string,
    unknown
  > | null;

describe("createDefaultPreferences on the local backend", () => {
  it("makes the default row for a person who has none", async () => {
    await service.from("user_preferences").delete().eq("user_id", owner.id);
    expect(await rowOf(owner.id)).toBeNull();
    setBackendClient(owner.client);
    const made = await createDefaultPreferences(owner.id, "Europe/Paris");
    expect(made.ok).toBe(true);
    expect(await rowOf(owner.id)).toMatchObject({
      default_style: "photorealistic",
      default_quality: "high",
      default_aspect_ratio: "1:1",
      notifications_enabled: true,
      public_gallery_opt_in: false,
      timezone: "Europe/Paris",
    });
  });

  it("keeps a row that exists as it is", async () => {
    await service.from("user_preferences").update({ default_quality: "ultra" }).eq("user_id", owner.id);
    setBackendClient(owner.client);
    const again = await createDefaultPreferences(owner.id, "UTC");
    expect(again.ok && again.value.default_quality).toBe("ultra");
    expect(await rowOf(owner.id)).toMatchObject({ default_quality: "ultra", timezone: "Europe/Paris" });
  });

  it("makes no row for someone else", async () => {
    await service.from("user_preferences").delete().eq("user_id", owner.id);
    setBackendClient(stranger.client);
    expect((await createDefaultPreferences(owner.id, "UTC")).ok).toBe(false);
    expect(await rowOf(owner.id)).toBeNull();
  });
});
