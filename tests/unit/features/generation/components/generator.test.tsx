import { act, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { VALIDATION_MESSAGES } from "#shared/vocabulary/errors.ts";
import { db } from "#src/db/db.ts";
import { saveCollection } from "#src/db/collections.ts";
import { toGenerationRecord } from "#src/db/generation-record.ts";
import { setSessionView } from "#src/state/session-store.ts";
import { toasts } from "#src/state/toasts.ts";
import { renderAt } from "../../../../support/render-at.tsx";
import { signedInDevice } from "../../../../support/signed-in.ts";
import { row } from "../../library/seed.ts";

const generate = vi.fn();
vi.mock("#src/features/generation/use-generation.ts", () => ({
  useGenerationActions: () => ({
    generate,
    retry: vi.fn(),
    removeTask: vi.fn(),
    clearTasks: vi.fn(),
    setConcurrency: vi.fn(),
    addPrompt: vi.fn(),
    removePrompt: vi.fn(),
    clearPrompts: vi.fn(),
  }),
  useConcurrency: () => 2,
  useRunProgress: () => null,
  // Nothing runs: the same store on every render, as the queue's is.
  useRunState: (() => {
    const idle = { active: () => false, subscribe: () => () => undefined };
    return () => idle;
  })(),
  useOnline: () => true,
}));

const { Generator } = await import("#src/features/generation/components/generator.tsx");

const renderPage = (path: string) => renderAt(path, <Generator />);

const PREFS = {
  userId: "u1",
  defaultStyle: "anime",
  defaultQuality: "ultra",
  defaultAspectRatio: "16:9",
  notificationsEnabled: true,
  publicGalleryOptIn: false,
  timezone: "UTC",
  updatedAt: "2026-11-22T10:00:00.000Z",
} as const;

signedInDevice({ clearToasts: true });
beforeEach(async () => {
  await db.preferences.put(PREFS);
  generate.mockReset();
});

describe("generator", () => {
  it("queues N tasks in batch mode and says so", async () => {
    generate.mockResolvedValue({ ok: true, taskIds: ["a", "b", "c", "d"] });
    renderPage("/generate");
    await userEvent.type(await screen.findByLabelText("Prompt"), "a red fox in snow");
    await userEvent.click(screen.getByRole("checkbox", { name: "Batch mode" }));
    await userEvent.click(screen.getByRole("button", { name: "Queue 4 tasks" }));
    expect(generate).toHaveBeenCalledWith(expect.objectContaining({ prompt: "a red fox in snow", batchCount: 4 }));
    expect(toasts.items.map((t) => t.title)).toContain("Added 4 tasks to generation queue");
  });

  it("generates one image without a batch count when batch mode is off", async () => {
    generate.mockResolvedValue({ ok: true, taskIds: ["a"] });
    renderPage("/generate");
    await userEvent.type(await screen.findByLabelText("Prompt"), "a lighthouse");
    await userEvent.click(screen.getByRole("button", { name: "Generate" }));
    expect(generate.mock.calls[0][0].batchCount).toBeUndefined();
    expect(toasts.items).toHaveLength(0);
  });

  it("sends each request with the collection its results go into, and none after None", async () => {
    generate.mockResolvedValue({ ok: true, taskIds: ["a"] });
    const trips = await saveCollection("u1", { name: "Trips", filter: null }, undefined, db);
    renderPage("/generate");
    await userEvent.type(await screen.findByLabelText("Prompt"), "a lighthouse");
    const into = await screen.findByLabelText("Add new results to");
    await userEvent.selectOptions(into, "Trips");
    await userEvent.click(screen.getByRole("button", { name: "Generate" }));
    expect(generate.mock.calls[0][0].collectionId).toBe(trips.ok && trips.collection.id);
    await userEvent.selectOptions(into, "None");
    await userEvent.click(screen.getByRole("button", { name: "Generate" }));
    expect(generate.mock.calls[1][0].collectionId).toBeUndefined();
  });

  it("asks a signed-out visitor to sign in and comes back with the same settings", async () => {
    setSessionView({ status: "signed-out", user: null, verified: true });
    renderPage("/generate");
    await userEvent.type(await screen.findByLabelText("Prompt"), "a cat");
    await userEvent.click(screen.getByRole("button", { name: "Generate" }));
    expect(generate).not.toHaveBeenCalled();
    expect(screen.getByRole("alert").textContent).toContain(VALIDATION_MESSAGES.signInToGenerate);
    const href = screen.getByRole("link", { name: "Sign in" }).getAttribute("href")!;
    expect(href.startsWith("/auth?from=")).toBe(true);
    expect(decodeURIComponent(href.slice("/auth?from=".length))).toMatch(
      /^\/generate\?prompt=a\+cat&style=photorealistic/,
    );
  });

  it("at 0 left says the spec's sentence with Upgrade Now, and holds for the reset only when chosen", async () => {
    const resetAt = "2030-01-02T00:00:00.000Z";
    generate.mockResolvedValueOnce({ ok: false, message: VALIDATION_MESSAGES.dailyLimit, resetAt });
    generate.mockResolvedValueOnce({ ok: true, taskIds: ["a"], heldUntil: resetAt });
    renderPage("/generate");
    await userEvent.type(await screen.findByLabelText("Prompt"), "a cat");
    await userEvent.click(screen.getByRole("button", { name: "Generate" }));
    expect(screen.getByRole("alert").textContent).toContain(
      "Daily limit reached. Upgrade to continue generating images.",
    );
    expect(screen.getByRole("link", { name: "Upgrade Now" }).getAttribute("href")).toBe("/pricing");
    expect(generate).toHaveBeenCalledTimes(1);
    expect(generate.mock.calls[0][0].holdUntilReset).toBe(false);
    await userEvent.click(screen.getByRole("button", { name: /^Hold it until the reset/ }));
    expect(generate).toHaveBeenCalledTimes(2);
    expect(generate.mock.calls[1][0].holdUntilReset).toBe(true);
    expect(toasts.items.map((t) => t.title)).toContain("Held 1 task until the daily reset");
  });

  it("keeps the focus on Generate while it runs (busy, not disabled)", async () => {
    let finish!: (v: unknown) => void;
    generate.mockReturnValue(new Promise((resolve) => (finish = resolve)));
    renderPage("/generate");
    await userEvent.type(await screen.findByLabelText("Prompt"), "a lighthouse");
    const button = screen.getByRole("button", { name: "Generate" });
    await userEvent.click(button);
    expect(button.getAttribute("aria-disabled")).toBe("true");
    expect((button as HTMLButtonElement).disabled).toBe(false);
    expect(document.activeElement).toBe(button);
    await act(async () => finish({ ok: true, taskIds: ["a"] }));
  });

  it("opens filled in from a generator link", async () => {
    sessionStorage.setItem("promptcanvas.reference_image", "data:image/jpeg;base64,AAAA");
    renderPage(
      "/generate?prompt=A+lighthouse+at+dusk&negative_prompt=people&style=watercolor&quality=ultra&aspect_ratio=16%3A9&seed=1234&batch=7&reference=session",
    );
    await act(async () => undefined);
    expect(((await screen.findByLabelText("Prompt")) as HTMLTextAreaElement).value).toBe("A lighthouse at dusk");
    expect((screen.getByLabelText("Negative prompt") as HTMLInputElement).value).toBe("people");
    expect(screen.getByRole("button", { name: "Watercolor" }).getAttribute("aria-pressed")).toBe("true");
    expect((screen.getByRole("radio", { name: /^Ultra/ }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole("radio", { name: /^16:9/ }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText("Seed") as HTMLInputElement).value).toBe("1234");
    expect((screen.getByRole("slider", { name: "Batch count" }) as HTMLInputElement).value).toBe("7");
    expect(screen.getByRole("img", { name: /^Reference image/ }).getAttribute("src")).toBe(
      "data:image/jpeg;base64,AAAA",
    );
    expect(sessionStorage.getItem("promptcanvas.reference_image")).toBeNull();
  });

  it("first shows style, quality and ratio with the saved preferences, never the product's defaults", async () => {
    renderPage("/generate");
    const group = screen.getByTestId("saved-defaults");
    expect(group.className).toContain("invisible");
    await waitFor(() => expect(group.className).not.toContain("invisible"));
    expect((screen.getByRole("radio", { name: /^Ultra/ }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole("radio", { name: /^16:9/ }) as HTMLInputElement).checked).toBe(true);
    expect(screen.getByRole("button", { name: "Anime" }).getAttribute("aria-pressed")).toBe("true");
    // Applied once: a later change of the saved defaults leaves the form as the person sees it.
    await act(async () => void (await db.preferences.put({ ...PREFS, defaultQuality: "standard" })));
    expect((screen.getByRole("radio", { name: /^Ultra/ }) as HTMLInputElement).checked).toBe(true);
  });

  it("asks before making an identical image again: Open it queues nothing, Generate anyway does", async () => {
    await db.generations.put(
      toGenerationRecord(
        row({
          id: "made",
          user_id: "u1",
          prompt: "a red fox",
          negative_prompt: "",
          style: "anime",
          quality: "ultra",
          aspect_ratio: "16:9",
          seed: 42,
        }),
      ),
    );
    generate.mockResolvedValue({ ok: true, taskIds: ["a"] });
    renderPage("/generate");
    await waitFor(() => expect(screen.getByTestId("saved-defaults").className).not.toContain("invisible"));
    await userEvent.type(await screen.findByLabelText("Prompt"), "a red fox");
    await userEvent.type(screen.getByLabelText("Seed"), "42");
    await userEvent.click(screen.getByRole("button", { name: "Generate" }));
    expect(await screen.findByRole("dialog", { name: "You already made this image" })).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: "Open it" }));
    expect(screen.queryByRole("dialog", { name: "You already made this image" })).toBeNull();
    expect(generate).not.toHaveBeenCalled();

    await userEvent.click(screen.getByRole("button", { name: "Generate" }));
    await userEvent.click(await screen.findByRole("button", { name: "Generate anyway" }));
    await waitFor(() => expect(generate).toHaveBeenCalledTimes(1));
    expect(generate.mock.calls[0][0]).toMatchObject({ prompt: "a red fox", seed: 42 });

    // Another seed is another picture: no question.
    await userEvent.clear(screen.getByLabelText("Seed"));
    await userEvent.type(screen.getByLabelText("Seed"), "43");
    await userEvent.click(screen.getByRole("button", { name: "Generate" }));
    await waitFor(() => expect(generate).toHaveBeenCalledTimes(2));
  });
});
