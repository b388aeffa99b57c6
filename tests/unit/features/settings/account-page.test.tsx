import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "#src/db/db.ts";
import { registerSessionRuntime, setSessionView } from "#src/state/session-store.ts";
import { dismissToast, toasts } from "#src/state/toasts.ts";
import { renderAt } from "../../../support/render-at.tsx";
import { signedInDevice } from "../../../support/signed-in.ts";

const deleteAccount = vi.fn();
vi.mock("#src/api/account.ts", () => ({ deleteAccount }));
vi.mock("#src/api/auth.ts", () => ({ changePassword: vi.fn() }));

const signOut = vi.fn(async () => ({ ok: true as const }));
registerSessionRuntime(async () => ({ signOut }));

const { default: AccountPage } = await import("#src/features/settings/account-page.tsx");

const renderPage = () => renderAt("/account", <AccountPage />).location;

const SAVED = {
  userId: "u1",
  defaultStyle: "photorealistic",
  defaultQuality: "high",
  defaultAspectRatio: "1:1",
  notificationsEnabled: true,
  publicGalleryOptIn: false,
  timezone: "UTC",
  updatedAt: "2026-11-22T10:00:00.000Z",
} as const;

const titles = () => toasts.items.map((t) => t.title);

signedInDevice();
beforeEach(() => {
  signOut.mockClear();
  deleteAccount.mockReset();
  Object.defineProperty(navigator, "storage", {
    configurable: true,
    value: {
      estimate: async () => ({ usage: 12_400_000, quota: 2_000_000_000 }),
      persisted: async () => false,
      persist: async () => true,
    },
  });
});
afterEach(() => {
  for (const t of [...toasts.items]) dismissToast(t.id);
});

describe("account page", () => {
  it("lets the offline budget be typed only once the current one shows, and sets what was typed", async () => {
    renderPage();
    const field = screen.getByLabelText("Offline budget for images not saved (MB)") as HTMLInputElement;
    // Before the budget is read the field takes no typing, which the value arriving would join.
    expect(field.disabled).toBe(true);
    await waitFor(() => expect(field.disabled).toBe(false));
    expect(field.value).toBe("200");
    await userEvent.clear(field);
    await userEvent.type(field, "1.5");
    await userEvent.click(screen.getByRole("button", { name: "Set budget" }));
    await waitFor(() => expect(toasts.items.map((t) => t.message)).toContain("1.5 MB for images not saved."));
    expect((await db.meta.get("offline.budget.u1"))?.value).toBe(1_500_000);
  });

  it("saves preferences on the device and queues them for the server", async () => {
    await db.preferences.put(SAVED);
    renderPage();
    await waitFor(() => expect(screen.getByLabelText("Default style").matches(":disabled")).toBe(false));
    await userEvent.selectOptions(screen.getByLabelText("Default style"), "anime");
    await userEvent.click(screen.getByRole("checkbox", { name: /Publish new images to the gallery/ }));
    await userEvent.click(screen.getByRole("button", { name: "Save preferences" }));
    await waitFor(() => expect(titles()).toContain("Preferences updated successfully"));
    const prefs = await db.preferences.get("u1");
    expect([prefs?.defaultStyle, prefs?.publicGalleryOptIn]).toEqual(["anime", true]);
    const [entry] = await db.outbox.toArray();
    expect(entry.payload).toEqual({ patch: { defaultStyle: "anime", publicGalleryOptIn: true } });
  });

  it("cannot save preferences before this device holds them, and shows the saved ones once in", async () => {
    renderPage();
    expect(await screen.findByText("Loading your preferences…")).toBeTruthy();
    expect(screen.getByLabelText("Default quality").matches(":disabled")).toBe(true);
    expect((screen.getByRole("button", { name: "Save preferences" }) as HTMLButtonElement).disabled).toBe(true);
    await db.preferences.put({ ...SAVED, defaultQuality: "ultra" });
    await waitFor(() => expect(screen.queryByText("Loading your preferences…")).toBeNull());
    expect((screen.getByLabelText("Default quality") as HTMLSelectElement).value).toBe("ultra");
    expect(screen.getByLabelText("Default quality").matches(":disabled")).toBe(false);
    expect(await db.outbox.count()).toBe(0);
  });

  it("asks a signed-out visitor to sign in instead of saving", async () => {
    setSessionView({ status: "signed-out", user: null, verified: true });
    renderPage();
    await userEvent.click(screen.getByRole("button", { name: "Save preferences" }));
    expect(titles()).toEqual(["Please sign in to update preferences"]);
    expect(await db.preferences.count()).toBe(0);
  });

  it("shows this device's storage and asks the browser to keep it", async () => {
    renderPage();
    expect(await screen.findByText("12 MB of 2.0 GB available")).toBeTruthy();
    await userEvent.click(await screen.findByRole("button", { name: "Keep my library on this device" }));
    expect(titles()).toContain("This device will keep your library");
    expect(screen.getByText("On: the browser keeps your library")).toBeTruthy();
  });

  it("warns before a sign-out would lose unsent work", async () => {
    await db.outbox.add({
      id: "e1",
      userId: "u1",
      kind: "generation.flags",
      payload: { generationId: "g1", isSaved: true },
      attempts: 0,
      createdAt: "2026-11-22T10:00:00.000Z",
      status: "pending",
    } as never);
    const location = renderPage();
    await userEvent.click(screen.getByRole("button", { name: "Sign out" }));
    const dialog = await screen.findByRole("dialog", { name: "Sign out and lose unsent work?" });
    expect(dialog.textContent).toContain("1 change not yet sent is only on this device");
    expect(signOut).not.toHaveBeenCalled();
    await userEvent.click(within(dialog).getByRole("button", { name: "Sign out anyway" }));
    await waitFor(() => expect(signOut).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(location.history?.at(-1)).toBe("/"));
  });

  it("signs out at once when nothing would be lost", async () => {
    renderPage();
    await userEvent.click(screen.getByRole("button", { name: "Sign out" }));
    await waitFor(() => expect(signOut).toHaveBeenCalledTimes(1));
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  it("signs out this device alone with Sign out, and every device with Sign out everywhere once confirmed", async () => {
    const location = renderPage();
    await userEvent.click(screen.getByRole("button", { name: "Sign out" }));
    await waitFor(() => expect(signOut).toHaveBeenCalledWith({ everywhere: false }));

    signOut.mockClear();
    await userEvent.click(await screen.findByRole("button", { name: "Sign out everywhere" }));
    const dialog = await screen.findByRole("dialog", { name: "Sign out on every device?" });
    expect(dialog.textContent).toContain("this one included, is signed out within seconds");
    expect(signOut).not.toHaveBeenCalled();
    await userEvent.click(within(dialog).getByRole("button", { name: "Sign out everywhere" }));
    await waitFor(() => expect(signOut).toHaveBeenCalledWith({ everywhere: true }));
    expect(location.history?.at(-1)).toBe("/");
  });

  it("goes to / as the session ends, and says so in a notice when the sign-out fails", async () => {
    signOut.mockImplementationOnce(
      async () => ({ ok: false, message: "The sign-in service did not answer." }) as never,
    );
    const location = renderPage();
    await userEvent.click(screen.getByRole("button", { name: "Sign out" }));
    await waitFor(() => expect(signOut).toHaveBeenCalledTimes(1));
    expect(location.history).toEqual(["/account", "/"]);
    await waitFor(() => expect(titles()).toContain("Sign out failed"));
  });

  it("deletes the account only after the confirmation, then signs out on this device alone", async () => {
    deleteAccount.mockResolvedValue({ ok: true, value: { imagesRemoved: 3, alreadyDeleted: false } });
    const location = renderPage();
    // Where the person is as the session ends: already on /, so /account's guard sends nobody to /auth.
    const whereAtSignOut: (string | undefined)[] = [];
    signOut.mockImplementationOnce(async () => {
      whereAtSignOut.push(location.history?.at(-1));
      return { ok: true as const };
    });
    await userEvent.click(screen.getByRole("button", { name: "Delete account…" }));
    const dialog = screen.getByRole("dialog", { name: "Delete your account?" });
    expect(dialog.textContent).toContain("a@example.com");
    expect(deleteAccount).not.toHaveBeenCalled();
    await userEvent.click(within(dialog).getByRole("button", { name: "Delete my account" }));
    await waitFor(() => expect(signOut).toHaveBeenCalledTimes(1));
    // The server ended the session with the account: a sign-out sent there would be refused.
    expect(signOut).toHaveBeenCalledWith({ local: true });
    expect(deleteAccount).toHaveBeenCalledTimes(1);
    expect(titles()).toContain("Your account was deleted");
    expect(whereAtSignOut).toEqual(["/"]);
    expect(location.history).toEqual(["/account", "/"]);
  });

  it("shows why an account deletion failed", async () => {
    deleteAccount.mockResolvedValue({
      ok: false,
      error: { message: "Your account could not be deleted completely. Please try again." },
    });
    renderPage();
    await userEvent.click(screen.getByRole("button", { name: "Delete account…" }));
    await userEvent.click(screen.getByRole("button", { name: "Delete my account" }));
    expect((await screen.findByRole("alert")).textContent).toContain("could not be deleted completely");
    expect(signOut).not.toHaveBeenCalled();
  });
});
