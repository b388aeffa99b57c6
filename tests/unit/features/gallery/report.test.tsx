// Reporting from the gallery (issue 42): a signed-in person reports an image from its tile's menu or its
// large view with one of the content policy's reasons and an optional note; the image leaves their page at
// once. A visitor is offered "Sign in to report", which comes back to the image's page. Every tile's menu
// and large view link to the image's own page.
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { REPORT_NOTE_MAX_CHARS, REPORT_REASON_LABELS } from "#shared/vocabulary/moderation.ts";
import { setSessionView } from "#src/state/session-store.ts";
import { toasts } from "#src/state/toasts.ts";
import { publishedRow } from "../../../support/records.ts";
import { renderAt } from "../../../support/render-at.tsx";

const listPublished = vi.fn();
const loadPublishedImage = vi.fn();
const reportGeneration = vi.fn();
vi.mock("#src/api/gallery.ts", () => ({ listPublished, loadPublishedImage }));
vi.mock("#src/api/moderation.ts", () => ({ reportGeneration }));

const { default: GalleryPage } = await import("#src/features/gallery/gallery-page.tsx");

const ID = "00000000-0000-4000-8000-000000000001";
const published = (id: string, prompt: string) => publishedRow(id, prompt);

beforeEach(() => {
  listPublished.mockReset();
  reportGeneration.mockReset();
  loadPublishedImage.mockResolvedValue({ ok: false, error: { message: "refused" } });
  listPublished.mockResolvedValue({
    ok: true,
    value: { rows: [published(ID, "a red fox"), published("00000000-0000-4000-8000-000000000002", "a blue owl")] },
  });
  toasts.items.splice(0);
  setSessionView({ status: "signed-in", user: { id: "u1", email: "a@example.com" }, verified: true });
});
afterEach(() => {
  setSessionView({ status: "signed-out", user: null, verified: true });
});

const tile = (prompt: string) => screen.queryByRole("button", { name: `Open: ${prompt}` });

/** The gallery, with the report dialog opened from the menu of `prompt`'s tile. */
async function openReportFromMenu(prompt: string) {
  renderAt("/gallery", <GalleryPage />);
  await userEvent.click(await screen.findByRole("button", { name: `Image options: ${prompt}` }));
  await userEvent.click(screen.getByRole("menuitem", { name: "Report" }));
  return screen.getByRole("dialog", { name: "Report this image" });
}

/** The server's refusal of a report, of `kind`, with its `message`. */
const refusal = (kind: string, message: string) => ({ ok: false, error: { kind, error: { message } } });

/** Chooses `reason` in the report dialog and sends it. */
async function sendReport(dialog: HTMLElement, reason: keyof typeof REPORT_REASON_LABELS): Promise<void> {
  await userEvent.click(within(dialog).getByRole("radio", { name: REPORT_REASON_LABELS[reason] }));
  await userEvent.click(within(dialog).getByRole("button", { name: "Send report" }));
}

describe("reporting a gallery image", () => {
  it("sends the reason and note, and the image leaves the page at once", async () => {
    reportGeneration.mockResolvedValue({ ok: true, value: { generation_id: ID } });
    const dialog = await openReportFromMenu("a red fox");
    // The content policy's categories, each a choice.
    for (const label of Object.values(REPORT_REASON_LABELS)) {
      expect(within(dialog).getByRole("radio", { name: label })).toBeTruthy();
    }
    await userEvent.click(within(dialog).getByRole("radio", { name: REPORT_REASON_LABELS.violence }));
    await userEvent.type(within(dialog).getByRole("textbox", { name: "Note (optional)" }), "  gore in the corner ");
    await userEvent.click(within(dialog).getByRole("button", { name: "Send report" }));
    await waitFor(() => expect(tile("a red fox")).toBeNull());
    expect(reportGeneration).toHaveBeenCalledWith(ID, "violence", "  gore in the corner ");
    expect(tile("a blue owl")).not.toBeNull();
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(toasts.items.map((t) => t.title)).toContain("Reported");
  });

  it("asks for a reason, and refuses a note over the limit, before sending anything", async () => {
    const dialog = await openReportFromMenu("a red fox");
    await userEvent.click(within(dialog).getByRole("button", { name: "Send report" }));
    expect(within(dialog).getByRole("alert").textContent).toBe("Choose the reason that fits best.");
    await userEvent.click(within(dialog).getByRole("radio", { name: REPORT_REASON_LABELS.hate }));
    const note = within(dialog).getByRole("textbox", { name: "Note (optional)" });
    await userEvent.click(note);
    await userEvent.paste("x".repeat(REPORT_NOTE_MAX_CHARS + 1));
    await userEvent.click(within(dialog).getByRole("button", { name: "Send report" }));
    expect(within(dialog).getByRole("alert").textContent).toBe(
      `The note is ${REPORT_NOTE_MAX_CHARS + 1} characters; ${REPORT_NOTE_MAX_CHARS} at most.`,
    );
    expect(reportGeneration).not.toHaveBeenCalled();
  });

  it("keeps the image and says why when the report is refused; an image already gone leaves", async () => {
    reportGeneration.mockResolvedValueOnce(refusal("failed", "Something went wrong on our side."));
    const dialog = await openReportFromMenu("a red fox");
    await sendReport(dialog, "sexual");
    expect((await within(dialog).findByRole("alert")).textContent).toBe("Something went wrong on our side.");
    expect(tile("a red fox")).not.toBeNull();
    reportGeneration.mockResolvedValueOnce(refusal("gone", "not found"));
    await userEvent.click(within(dialog).getByRole("button", { name: "Send report" }));
    await waitFor(() => expect(tile("a red fox")).toBeNull());
  });

  it("reports from the large view too, which links to the image's own page", async () => {
    reportGeneration.mockResolvedValue({ ok: true, value: {} });
    renderAt("/gallery", <GalleryPage />);
    await userEvent.click(await screen.findByRole("button", { name: "Open: a blue owl" }));
    const view = screen.getByRole("dialog", { name: "Published image" });
    expect(within(view).getByRole("link", { name: "Open its page" }).getAttribute("href")).toBe(
      "/gallery/00000000-0000-4000-8000-000000000002",
    );
    await userEvent.click(within(view).getByRole("button", { name: "Report" }));
    const dialog = screen.getByRole("dialog", { name: "Report this image" });
    await sendReport(dialog, "infringement");
    await waitFor(() => expect(tile("a blue owl")).toBeNull());
    expect(reportGeneration).toHaveBeenCalledWith("00000000-0000-4000-8000-000000000002", "infringement", "");
  });

  it("offers a visitor 'Sign in to report', which returns to the image's page", async () => {
    setSessionView({ status: "signed-out", user: null, verified: true });
    renderAt("/gallery", <GalleryPage />);
    await userEvent.click(await screen.findByRole("button", { name: "Image options: a red fox" }));
    expect(screen.queryByRole("menuitem", { name: "Report" })).toBeNull();
    const signIn = screen.getByRole("menuitem", { name: "Sign in to report" });
    expect(signIn.getAttribute("href")).toBe(`/auth?from=${encodeURIComponent(`/gallery/${ID}`)}`);
    expect(screen.getByRole("menuitem", { name: "Open its page" }).getAttribute("href")).toBe(`/gallery/${ID}`);
  });

  it("offers no report of one's own image", async () => {
    setSessionView({ status: "signed-in", user: { id: "someone", email: "s@example.com" }, verified: true });
    renderAt("/gallery", <GalleryPage />);
    await userEvent.click(await screen.findByRole("button", { name: "Image options: a red fox" }));
    expect(screen.getAllByRole("menuitem").map((m) => m.textContent)).toEqual(["Open its page", "Copy link"]);
  });

  it("words a refusal of bad input as the server does", async () => {
    reportGeneration.mockResolvedValue(refusal("invalid", "Unknown report reason. The reason must be one of: minors."));
    const dialog = await openReportFromMenu("a red fox");
    await sendReport(dialog, "minors");
    expect((await within(dialog).findByRole("alert")).textContent).toBe(
      "Unknown report reason. The reason must be one of: minors.",
    );
  });

  it("copies the image page's full address from the tile's menu", async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    renderAt("/gallery", <GalleryPage />);
    await userEvent.click(await screen.findByRole("button", { name: "Image options: a red fox" }));
    await userEvent.click(screen.getByRole("menuitem", { name: "Copy link" }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/gallery/${ID}`));
  });
});
