import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { db } from "#src/db/db.ts";
import { toasts } from "#src/state/toasts.ts";
import { renderAt } from "../../../support/render-at.tsx";
import { signedInDevice } from "../../../support/signed-in.ts";
import { row, seed } from "./seed.ts";

// No backend in unit tests: a record without cached bytes asks for a signed URL and gets a refusal.
vi.mock("#src/api/library.ts", () => ({
  SIGNED_URL_SECONDS: 3600,
  signedImageUrl: vi.fn(async () => ({ ok: false, error: { message: "offline" } })),
}));

const { default: HistoryPage } = await import("#src/features/library/history-page.tsx");

const renderPage = () => renderAt("/history", <HistoryPage />).location;

const status = () => screen.findByText(/^[\d,]+ generations?( match)?$/);

signedInDevice({ clearToasts: true });

describe("history page", () => {
  it("lists only the person's generations, newest first", async () => {
    await seed([
      row({ prompt: "old lighthouse", created_at: "2026-11-01T10:00:00.000Z" }),
      row({ prompt: "new fox", created_at: "2026-11-02T10:00:00.000Z" }),
      row({ prompt: "someone else's cat", user_id: "u2" }),
    ]);
    renderPage();
    expect((await status()).textContent).toBe("2 generations");
    const tiles = within(screen.getByRole("list", { name: "Your generations" })).getAllByRole("button");
    expect(tiles.map((b) => b.getAttribute("aria-label"))).toEqual(["Open: new fox", "Open: old lighthouse"]);
  });

  it("narrows results by prompt words and by filters", async () => {
    await seed([
      row({ prompt: "red fox in snow", style: "anime", is_saved: true }),
      row({ prompt: "red lighthouse at dusk", style: "photorealistic" }),
      row({ prompt: "blue fox", style: "anime", aspect_ratio: "16:9", width: 1536 }),
    ]);
    renderPage();
    expect((await status()).textContent).toBe("3 generations");

    await userEvent.type(screen.getByRole("searchbox", { name: "Search prompts" }), "fox");
    await waitFor(() => expect(screen.getByRole("status").textContent).toBe("2 generations match"));

    await userEvent.selectOptions(screen.getByLabelText("Aspect ratio"), "16:9");
    await waitFor(() => expect(screen.getByRole("status").textContent).toBe("1 generation match"));
    expect(screen.getByRole("button", { name: "Open: blue fox" })).toBeTruthy();

    await userEvent.click(screen.getByRole("button", { name: "Clear filters" }));
    await userEvent.selectOptions(screen.getByLabelText("Saved"), "yes");
    await waitFor(() => expect(screen.getByRole("status").textContent).toBe("1 generation match"));
    expect(screen.getByRole("button", { name: "Open: red fox in snow" })).toBeTruthy();
  });

  it("selects images to compare without changing what a tile's click does", async () => {
    const [a, b, c] = [row({ prompt: "fox one" }), row({ prompt: "fox two" }), row({ prompt: "fox three" })];
    await seed([a, b, c]);
    const location = renderPage();
    expect((await status()).textContent).toBe("3 generations");
    expect(screen.queryByRole("checkbox", { name: /^Select: / })).toBeNull();
    await userEvent.click(screen.getByRole("button", { name: "Select to compare" }));
    const bar = screen.getByRole("toolbar", { name: "Compare" });
    expect(within(bar).getByRole("status").textContent).toBe("Select 2 to 4 images to compare");
    expect(within(bar).getByRole("link", { name: "Compare" }).getAttribute("aria-disabled")).toBe("true");
    await userEvent.click(screen.getByRole("checkbox", { name: "Select: fox two" }));
    await userEvent.click(screen.getByRole("checkbox", { name: "Select: fox one" }));
    expect(within(bar).getByRole("status").textContent).toBe("2 selected");
    // In the order picked.
    expect(within(bar).getByRole("link", { name: "Compare" }).getAttribute("href")).toBe(
      `/compare?ids=${b.id},${a.id}`,
    );
    // A tile's picture still opens its large view.
    await userEvent.click(screen.getByRole("button", { name: "Open: fox three" }));
    expect(await screen.findByRole("dialog", { name: "Generation" })).toBeTruthy();
    await userEvent.keyboard("{Escape}");
    await userEvent.click(within(bar).getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("toolbar", { name: "Compare" })).toBeNull();
    expect(screen.queryByRole("checkbox", { name: /^Select: / })).toBeNull();
    expect(location.history).toEqual(["/history"]);
  });

  it("filters by date range, the last day included", async () => {
    await seed([
      row({ prompt: "first", created_at: "2026-11-01T12:00:00.000Z" }),
      row({ prompt: "second", created_at: "2026-11-05T12:00:00.000Z" }),
      row({ prompt: "third", created_at: "2026-11-09T12:00:00.000Z" }),
    ]);
    renderPage();
    await status();
    await userEvent.type(screen.getByLabelText("From"), "2026-11-04");
    await userEvent.type(screen.getByLabelText("To"), "2026-11-09");
    await waitFor(() => expect(screen.getByRole("status").textContent).toBe("2 generations match"));
  });

  it("renders only the rows near the viewport of a large history", async () => {
    await seed(Array.from({ length: 2000 }, () => row()));
    renderPage();
    expect((await status()).textContent).toBe("2,000 generations");
    const items = within(screen.getByRole("list", { name: "Your generations" })).getAllByRole("listitem");
    expect(items.length).toBeGreaterThan(0);
    expect(items.length).toBeLessThan(100);
    expect(items[0].getAttribute("aria-setsize")).toBe("2000");
  });

  it("opens the large view with every setting and a link that makes it again", async () => {
    await seed([
      row({
        prompt: "a red fox",
        negative_prompt: "blurry",
        style: "watercolor",
        quality: "high",
        aspect_ratio: "9:16",
        width: 1024,
        height: 1536,
        seed: 1234,
        provider: "replicate",
        model: "flux-schnell",
      }),
    ]);
    renderPage();
    await userEvent.click(await screen.findByRole("button", { name: "Open: a red fox" }));
    const dialog = await screen.findByRole("dialog", { name: "Generation" });
    const text = dialog.textContent ?? "";
    for (const part of [
      "a red fox",
      "blurry",
      "Watercolor",
      "High",
      "9:16",
      "1024 × 1536",
      "1234",
      "flux-schnell via Replicate",
    ]) {
      expect(text).toContain(part);
    }
    const link = within(dialog).getByRole("link", { name: "Use these settings" }).getAttribute("href")!;
    const q = new URLSearchParams(link.split("?")[1]);
    expect(Object.fromEntries(q)).toEqual({
      prompt: "a red fox",
      negative_prompt: "blurry",
      style: "watercolor",
      quality: "high",
      aspect_ratio: "9:16",
      seed: "1234",
    });
    for (const name of ["Download PNG", "Download JPG", "Download WebP", "Copy prompt"]) {
      expect(within(dialog).getByRole("button", { name })).toBeTruthy();
    }
  });

  it("saves and publishes through the outbox", async () => {
    const r = row({ prompt: "a red fox" });
    await seed([r]);
    renderPage();
    await userEvent.click(await screen.findByRole("button", { name: "Open: a red fox" }));
    await userEvent.click(await screen.findByRole("button", { name: "Save" }));
    expect((await screen.findByRole("button", { name: "Unsave" })).getAttribute("aria-pressed")).toBe("true");
    await waitFor(() =>
      expect(screen.getByRole("button", { name: "Publish" }).getAttribute("aria-disabled")).toBeNull(),
    );
    await userEvent.click(screen.getByRole("button", { name: "Publish" }));
    await waitFor(async () => {
      const record = await db.generations.get(r.id);
      expect([record?.isSaved, record?.isPublic]).toEqual([1, 1]);
    });
    expect(toasts.items.map((t) => t.title)).toEqual(["Saved", "Published to the gallery"]);
    expect((await db.outbox.toArray()).map((e) => e.kind)).toEqual(["generation.flags", "generation.flags"]);
  });

  it("keeps the keyboard's place in the large view: a pressed action keeps the focus, the delete question takes and gives it back", async () => {
    await seed([row({ prompt: "a red fox" })]);
    renderPage();
    await userEvent.click(await screen.findByRole("button", { name: "Open: a red fox" }));
    const save = await screen.findByRole("button", { name: "Save" });
    save.focus();
    await userEvent.keyboard("{Enter}");
    const unsave = await screen.findByRole("button", { name: "Unsave" });
    expect(document.activeElement).toBe(unsave);
    await waitFor(() => expect(unsave.getAttribute("aria-disabled")).toBeNull());
    expect(document.activeElement).toBe(unsave);

    screen.getByRole("button", { name: "Delete" }).focus();
    await userEvent.keyboard("{Enter}");
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Keep it" }));
    await userEvent.keyboard("{Enter}");
    expect(screen.queryByRole("group", { name: "Confirm delete" })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Delete" }));
  });

  it("deletes after a confirmation, says 'Generation deleted' and the tile goes", async () => {
    const r = row({ prompt: "a red fox" });
    await seed([r, row({ prompt: "a lighthouse" })]);
    renderPage();
    await userEvent.click(await screen.findByRole("button", { name: "Open: a red fox" }));
    await userEvent.click(await screen.findByRole("button", { name: "Delete" }));
    await userEvent.click(screen.getByRole("button", { name: "Delete for good" }));
    await waitFor(() => expect(toasts.items.map((t) => t.title)).toContain("Generation deleted"));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    await waitFor(() => expect(screen.queryByRole("button", { name: "Open: a red fox" })).toBeNull());
    expect(await db.generations.get(r.id)).toBeUndefined();
    const [entry] = await db.outbox.toArray();
    expect(entry.kind).toBe("generation.delete");
  });
});
