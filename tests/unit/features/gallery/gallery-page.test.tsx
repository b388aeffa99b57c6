import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { GenerationRow } from "#shared/vocabulary/rows.ts";
import { setSessionView } from "#src/state/session-store.ts";
import { publishedRow } from "../../../support/records.ts";
import { renderAt } from "../../../support/render-at.tsx";

const listPublished = vi.fn();
const loadPublishedImage = vi.fn();
vi.mock("#src/api/gallery.ts", () => ({ listPublished, loadPublishedImage }));

const { default: GalleryPage } = await import("#src/features/gallery/gallery-page.tsx");

function published(n: number, patch: Partial<GenerationRow> = {}) {
  const id = `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
  return publishedRow(id, `published ${n}`, { image_path: `someone/${n}.png`, ...patch });
}

const renderPage = (path: string) => renderAt(path, <GalleryPage />);

const created: Blob[] = [];
const revoked: string[] = [];

beforeEach(() => {
  listPublished.mockReset();
  loadPublishedImage.mockReset();
  // Every image is readable unless a test says otherwise; object URLs are counted, as jsdom has none.
  loadPublishedImage.mockImplementation(async (path: string) => ({
    ok: true,
    value: new Blob([path], { type: "image/png" }),
  }));
  created.length = 0;
  revoked.length = 0;
  vi.spyOn(URL, "createObjectURL").mockImplementation((blob) => {
    created.push(blob as Blob);
    return `blob:test/${created.length}`;
  });
  vi.spyOn(URL, "revokeObjectURL").mockImplementation((url) => void revoked.push(url));
  setSessionView({ status: "signed-out", user: null, verified: true });
});
afterEach(() => {
  setSessionView({ status: "signed-out", user: null, verified: true });
  vi.restoreAllMocks();
});

describe("gallery page", () => {
  it("searches with ?q= and pages with Load more", async () => {
    listPublished
      .mockResolvedValueOnce({ ok: true, value: { rows: [published(1), published(2)], next: "cursor-2" } })
      .mockResolvedValueOnce({ ok: true, value: { rows: [published(3)] } });
    renderPage("/gallery?q=fox");
    const list = await screen.findByRole("list", { name: "Published images" });
    expect(listPublished).toHaveBeenLastCalledWith({ q: "fox", before: undefined, limit: 24 });
    expect(within(list).getAllByRole("button", { name: /^Open: / })).toHaveLength(2);
    expect(screen.getByRole("status").textContent).toBe("2+ results for “fox”");
    expect(screen.getByRole("searchbox", { name: "Search published images" })).toHaveProperty("value", "fox");

    await userEvent.click(screen.getByRole("button", { name: "Load more" }));
    await waitFor(() => expect(within(list).getAllByRole("button", { name: /^Open: / })).toHaveLength(3));
    expect(listPublished).toHaveBeenLastCalledWith({ q: "fox", before: "cursor-2", limit: 24 });
    expect(screen.queryByRole("button", { name: "Load more" })).toBeNull();
    expect(screen.getByRole("status").textContent).toBe("3 results for “fox”");
  });

  it("sends a visitor's 'Use this recipe' through sign-in back to the filled generator", async () => {
    listPublished.mockResolvedValue({ ok: true, value: { rows: [published(1, { prompt: "a red fox", seed: 5 })] } });
    renderPage("/gallery");
    const open = await screen.findByRole("button", { name: "Open: a red fox" });
    expect(screen.getByRole("status").textContent).toBe("1 published image");
    await userEvent.click(open);
    const dialog = screen.getByRole("dialog", { name: "Published image" });
    expect(dialog.textContent).toContain("Anime");
    const href = within(dialog).getByRole("link", { name: "Use this recipe" }).getAttribute("href")!;
    expect(href.startsWith("/auth?from=")).toBe(true);
    expect(decodeURIComponent(href.slice("/auth?from=".length))).toBe(
      "/generate?prompt=a+red+fox&style=anime&quality=high&aspect_ratio=1%3A1&seed=5",
    );
  });

  it("opens the filled generator directly when signed in", async () => {
    setSessionView({ status: "signed-in", user: { id: "u1", email: "a@example.com" }, verified: true });
    listPublished.mockResolvedValue({ ok: true, value: { rows: [published(1, { prompt: "a red fox", seed: 5 })] } });
    renderPage("/gallery");
    await userEvent.click(await screen.findByRole("button", { name: "Open: a red fox" }));
    expect(screen.getByRole("link", { name: "Use this recipe" }).getAttribute("href")).toBe(
      "/generate?prompt=a+red+fox&style=anime&quality=high&aspect_ratio=1%3A1&seed=5",
    );
  });

  it("shows a failed load's message with a way to try again", async () => {
    listPublished
      .mockResolvedValueOnce({ ok: false, error: { message: "Check your internet connection and try again" } })
      .mockResolvedValueOnce({ ok: true, value: { rows: [published(1)] } });
    renderPage("/gallery");
    expect((await screen.findByRole("alert")).textContent).toContain("Check your internet connection");
    await userEvent.click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByRole("list", { name: "Published images" })).toBeTruthy();
  });

  it("loads each image through the Storage API by its path and shows it from an object URL", async () => {
    listPublished.mockResolvedValue({ ok: true, value: { rows: [published(1), published(2)] } });
    const { unmount } = renderPage("/gallery");
    const list = await screen.findByRole("list", { name: "Published images" });
    await waitFor(() => expect(list.querySelectorAll("img")).toHaveLength(2));
    expect(loadPublishedImage.mock.calls.map(([p]) => p).sort()).toEqual(["someone/1.png", "someone/2.png"]);
    const sources = [...list.querySelectorAll("img")].map((img) => img.getAttribute("src"));
    expect(sources.every((src) => src?.startsWith("blob:test/"))).toBe(true);
    unmount();
    // Leaving the page frees the bytes.
    expect(revoked.sort()).toEqual([...sources].sort());
  });

  it("shows no image for a refused read, and the large view says it is not available", async () => {
    loadPublishedImage.mockResolvedValue({ ok: false, error: { message: "Object not found" } });
    listPublished.mockResolvedValue({ ok: true, value: { rows: [published(1, { prompt: "a withdrawn fox" })] } });
    renderPage("/gallery");
    const open = await screen.findByRole("button", { name: "Open: a withdrawn fox" });
    await waitFor(() => expect(loadPublishedImage).toHaveBeenCalled());
    expect(open.querySelector("img")).toBeNull();
    await userEvent.click(open);
    const dialog = screen.getByRole("dialog", { name: "Published image" });
    expect(await within(dialog).findByText("This image is not available right now.")).toBeTruthy();
    expect(within(dialog).queryByRole("img")).toBeNull();
    expect(created).toHaveLength(0);
  });
});
