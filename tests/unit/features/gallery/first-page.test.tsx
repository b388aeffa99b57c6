// A visitor opening /gallery: the first page is asked for when the page's code runs, before the page
// has drawn, and the page then shows that answer instead of asking again.
import { screen, within } from "@testing-library/react";
import { afterAll, describe, expect, it, vi } from "vitest";
import { generationRow } from "../../../support/records.ts";
import { renderAt } from "../../../support/render-at.tsx";

const listPublished = vi.fn();
const loadPublishedImage = vi.fn(async () => ({ ok: false, error: { message: "no" } }));
vi.mock("#src/api/gallery.ts", () => ({ listPublished, loadPublishedImage }));

const row = generationRow("00000000-0000-4000-8000-000000000001", "someone", {
  prompt: "a fox in the snow",
  is_public: true,
});

const before = window.location.href;
window.history.replaceState(null, "", "/gallery?q=fox");
listPublished.mockResolvedValue({ ok: true, value: { rows: [row] } });
const { default: GalleryPage } = await import("#src/features/gallery/gallery-page.tsx");
afterAll(() => window.history.replaceState(null, "", before));

describe("the gallery's first page", () => {
  it("is asked for when the page's code loads, and the page shows that answer without asking again", async () => {
    // The module asked while "loading" (before anything rendered).
    await vi.waitFor(() => expect(listPublished).toHaveBeenCalledTimes(1));
    expect(listPublished).toHaveBeenCalledWith({ q: "fox", limit: 24 });

    renderAt("/gallery?q=fox", <GalleryPage />);
    const list = await screen.findByRole("list", { name: "Published images" });
    expect(within(list).getByRole("button", { name: "Open: a fox in the snow" })).toBeTruthy();
    expect(screen.getByRole("status").textContent).toBe("1 result for “fox”");
    expect(listPublished).toHaveBeenCalledTimes(1);
  });

  it("is used once: the next visit to the page asks again", async () => {
    renderAt("/gallery?q=fox", <GalleryPage />);
    await screen.findAllByRole("list", { name: "Published images" });
    expect(listPublished).toHaveBeenCalledTimes(2);
  });
});
