// /gallery/<id> (issue 42): one published image for anyone, with its prompt and settings, "Make one like
// this" (the generator filled with its recipe; a visitor signs in first), its link to copy or share, and
// reporting. An image the backend does not show (not in the gallery, or reported by this person) is the
// app's not-found page.
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { REPORT_REASON_LABELS } from "#shared/vocabulary/moderation.ts";
import type { GenerationRow } from "#shared/vocabulary/rows.ts";
import { setSessionView } from "#src/state/session-store.ts";
import { renderAt } from "../../../support/render-at.tsx";

const getPublished = vi.fn();
const loadPublishedImage = vi.fn();
const reportGeneration = vi.fn();
vi.mock("#src/api/gallery.ts", () => ({ getPublished, loadPublishedImage }));
vi.mock("#src/api/moderation.ts", () => ({ reportGeneration }));

const {
  default: GalleryImagePage,
  idFromPath,
  shortTitle,
} = await import("#src/features/gallery/gallery-image-page.tsx");

const ID = "0b7c2a4e-1f7e-4c1b-9d5e-5a2b8f0c6d11";
const ROW: GenerationRow = {
  id: ID,
  user_id: "someone",
  prompt: "a lighthouse at dusk",
  negative_prompt: "fog",
  style: "anime",
  quality: "ultra",
  aspect_ratio: "16:9",
  width: 1536,
  height: 1024,
  seed: 42,
  provider: "builtin",
  model: "procedural-v1",
  image_path: `someone/${ID}.png`,
  is_public: true,
  is_saved: false,
  created_at: "2026-11-20T10:00:00.000Z",
};

const NotFound = () => <h1>Page not found</h1>;
const titled = (t: string) => `${t} · PromptCanvas`;
const renderPage = () =>
  renderAt(`/gallery/${ID}`, <GalleryImagePage notFound={NotFound} documentTitle={titled} title="Published image" />);

beforeEach(() => {
  getPublished.mockReset();
  reportGeneration.mockReset();
  loadPublishedImage.mockResolvedValue({ ok: true, value: new Blob(["png"], { type: "image/png" }) });
  vi.spyOn(URL, "createObjectURL").mockReturnValue("blob:test/1");
  vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => undefined);
  setSessionView({ status: "signed-out", user: null, verified: true });
});
afterEach(() => {
  vi.restoreAllMocks();
  setSessionView({ status: "signed-out", user: null, verified: true });
});

describe("the page of one published image", () => {
  it("shows a visitor the image, its prompt and settings, and makes one like it after signing in", async () => {
    getPublished.mockResolvedValue({ ok: true, value: ROW });
    renderPage();
    expect(await screen.findByRole("heading", { level: 1, name: "a lighthouse at dusk" })).toBeTruthy();
    expect(getPublished).toHaveBeenCalledWith(ID);
    expect((await screen.findByRole("img", { name: "a lighthouse at dusk" })).getAttribute("src")).toBe("blob:test/1");
    expect(loadPublishedImage).toHaveBeenCalledWith(ROW.image_path, undefined);
    const text = document.body.textContent ?? "";
    for (const value of ["Anime", "Ultra", "16:9", "1536 × 1024", "42", "fog"]) expect(text).toContain(value);
    const make = screen.getByRole("link", { name: "Make one like this" }).getAttribute("href")!;
    expect(make.startsWith("/auth?from=")).toBe(true);
    expect(decodeURIComponent(make.slice("/auth?from=".length))).toBe(
      "/generate?prompt=a+lighthouse+at+dusk&negative_prompt=fog&style=anime&quality=ultra&aspect_ratio=16%3A9&seed=42",
    );
    expect(screen.getByRole("link", { name: "Sign in to report" }).getAttribute("href")).toBe(
      `/auth?from=${encodeURIComponent(`/gallery/${ID}`)}`,
    );
    await waitFor(() => expect(document.title).toBe("a lighthouse at dusk · PromptCanvas"));
  });

  it("is the not-found page when the image is not in the gallery", async () => {
    getPublished.mockResolvedValue({ ok: true, value: null });
    renderPage();
    expect(await screen.findByRole("heading", { name: "Page not found" })).toBeTruthy();
  });

  it("says a failed read, with a way to try again", async () => {
    getPublished.mockResolvedValueOnce({ ok: false, error: { message: "Network error. Check your connection." } });
    renderPage();
    expect((await screen.findByRole("alert")).textContent).toContain("Network error");
    getPublished.mockResolvedValueOnce({ ok: true, value: ROW });
    await userEvent.click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByRole("heading", { level: 1, name: "a lighthouse at dusk" })).toBeTruthy();
  });

  it("opens the filled generator directly when signed in; a report leaves for the gallery", async () => {
    setSessionView({ status: "signed-in", user: { id: "u1", email: "a@example.com" }, verified: true });
    getPublished.mockResolvedValue({ ok: true, value: ROW });
    reportGeneration.mockResolvedValue({ ok: true, value: {} });
    const { location } = renderPage();
    const make = await screen.findByRole("link", { name: "Make one like this" });
    expect(make.getAttribute("href")!.startsWith("/generate?prompt=a+lighthouse")).toBe(true);
    await userEvent.click(screen.getByRole("button", { name: "Report" }));
    const dialog = screen.getByRole("dialog", { name: "Report this image" });
    await userEvent.click(within(dialog).getByRole("radio", { name: REPORT_REASON_LABELS.deception }));
    await userEvent.click(within(dialog).getByRole("button", { name: "Send report" }));
    await waitFor(() => expect(location.history.at(-1)).toBe("/gallery"));
    expect(reportGeneration).toHaveBeenCalledWith(ID, "deception", "");
  });

  it("shares through the device's share sheet where the browser has one", async () => {
    const share = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, "share", { value: share, configurable: true });
    try {
      getPublished.mockResolvedValue({ ok: true, value: ROW });
      renderPage();
      await userEvent.click(await screen.findByRole("button", { name: "Share" }));
      expect(share).toHaveBeenCalledWith({
        url: `${window.location.origin}/gallery/${ID}`,
        title: "An image on PromptCanvas",
        text: "a lighthouse at dusk",
      });
    } finally {
      delete (navigator as { share?: unknown }).share;
    }
  });

  it("reads the id from its address and shortens a long prompt for the tab", () => {
    expect(idFromPath(`/gallery/${ID}`)).toBe(ID);
    expect(idFromPath(`/gallery/${ID}/`)).toBe(ID);
    expect(idFromPath("/gallery/%E0%A4%A")).toBe("");
    expect(shortTitle("a  b\nc")).toBe("a b c");
    expect(shortTitle("x".repeat(80))).toHaveLength(60);
  });
});
