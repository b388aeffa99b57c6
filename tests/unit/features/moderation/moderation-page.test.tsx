// /moderation (issue 42): the not-found page for anyone whose token does not name an operator (signed out,
// signed in without the role, or with a role the server has taken back); for an operator, the queue with
// each image's prompt, owner, reports, reasons, notes, scores and state, the actions with a reason (a
// suspension for a chosen time), and the terms the prompt check refuses.
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { REPORT_REASON_LABELS } from "#shared/vocabulary/moderation.ts";
import type { QueueRow } from "#src/api/moderation.ts";
import { registerSessionRuntime, setSessionView } from "#src/state/session-store.ts";
import { renderAt } from "../../../support/render-at.tsx";

const sessionIsOperator = vi.fn();
const moderationQueue = vi.fn();
const moderateGeneration = vi.fn();
const listTerms = vi.fn();
const addTerm = vi.fn();
const removeTerm = vi.fn();
const loadPublishedImage = vi.fn();
vi.mock("#src/api/moderation.ts", () => ({
  sessionIsOperator,
  moderationQueue,
  moderateGeneration,
  listTerms,
  addTerm,
  removeTerm,
}));
vi.mock("#src/api/gallery.ts", () => ({ loadPublishedImage }));

const { default: ModerationPage } = await import("#src/features/moderation/moderation-page.tsx");
const { actionProblem, suspensionEnd } = await import("#src/features/moderation/action-form.tsx");
const { reasonCounts, scoreRows, stateOf } = await import("#src/features/moderation/queue-item.tsx");

const NotFound = () => <h1>Page not found</h1>;
const renderPage = () =>
  renderAt(
    "/moderation",
    <ModerationPage notFound={NotFound} documentTitle={(t: string) => `${t} · PromptCanvas`} title="Moderation" />,
  );

const HELD: QueueRow = {
  generation_id: "g-held",
  created_at: "2026-11-20T10:00:00.000Z",
  prompt: "a held picture",
  negative_prompt: "",
  style: "anime",
  width: 1024,
  height: 1024,
  image_path: "owner/g-held.png",
  owner_id: "owner",
  owner_email: "owner@example.com",
  is_public: true,
  flagged_at: null,
  held_at: "2026-11-26T10:00:00.000Z",
  moderation_scores: { Neutral: 0.9, Porn: 0.02, Drawing: 0.08 },
  report_count: 3,
  reasons: ["hate", "violence"],
  reports: [
    { reason: "violence", note: "blood everywhere", reporter_id: "r1", created_at: "2026-11-26T10:00:00.000Z" },
    { reason: "violence", note: null, reporter_id: "r2", created_at: "2026-11-26T09:00:00.000Z" },
    { reason: "hate", note: "  ", reporter_id: "r3", created_at: "2026-11-26T08:00:00.000Z" },
  ],
  last_event_at: "2026-11-26T10:00:00.000Z",
  owner_suspended_until: null,
};

beforeEach(() => {
  vi.clearAllMocks();
  registerSessionRuntime(async () => ({ signOut: async () => ({ ok: true as const }) }));
  setSessionView({ status: "signed-in", user: { id: "op", email: "op@example.com" }, verified: true });
  sessionIsOperator.mockResolvedValue(true);
  moderationQueue.mockResolvedValue({ ok: true, value: [HELD] });
  moderateGeneration.mockResolvedValue({ ok: true, value: {} });
  listTerms.mockResolvedValue({ ok: true, value: [{ term: "forbidden words", created_at: "2026-11-26T10:00:00Z" }] });
  addTerm.mockResolvedValue({ ok: true, value: null });
  removeTerm.mockResolvedValue({ ok: true, value: null });
  loadPublishedImage.mockResolvedValue({ ok: false, error: { message: "refused" } });
  document.title = "Page Not Found · PromptCanvas";
});
afterEach(() => {
  setSessionView({ status: "signed-out", user: null, verified: true });
});

describe("who sees /moderation", () => {
  it("is the not-found page for a visitor, without asking the server anything", async () => {
    setSessionView({ status: "signed-out", user: null, verified: false });
    renderPage();
    expect(await screen.findByRole("heading", { name: "Page not found" })).toBeTruthy();
    expect(sessionIsOperator).not.toHaveBeenCalled();
    expect(moderationQueue).not.toHaveBeenCalled();
    expect(document.title).toBe("Page Not Found · PromptCanvas");
  });

  it("is the not-found page for a signed-in person whose token names no operator", async () => {
    sessionIsOperator.mockResolvedValue(false);
    renderPage();
    expect(await screen.findByRole("heading", { name: "Page not found" })).toBeTruthy();
    expect(moderationQueue).not.toHaveBeenCalled();
    expect(screen.queryByText(/Moderation/)).toBeNull();
  });

  it("is the not-found page when the server refuses the queue (the role was taken back)", async () => {
    moderationQueue.mockResolvedValue({ ok: false, error: { kind: "denied", error: { message: "denied" } } });
    renderPage();
    expect(await screen.findByRole("heading", { name: "Page not found" })).toBeTruthy();
  });
});

describe("the moderation page of an operator", () => {
  it("lists each image with its prompt, owner, state, reports, notes and scores, and names itself", async () => {
    renderPage();
    const item = await screen.findByRole("article", { name: "a held picture" });
    const text = item.textContent ?? "";
    for (const part of [
      "owner@example.com",
      "Held: out of the gallery until reviewed",
      `${REPORT_REASON_LABELS.violence} (2)`,
      `${REPORT_REASON_LABELS.hate} (1)`,
      "blood everywhere",
      "Neutral",
      "90.0%",
    ])
      expect(text).toContain(part);
    expect(
      within(item)
        .getAllByRole("listitem")
        .filter((li) => li.textContent === "  "),
    ).toHaveLength(0);
    expect(screen.getByRole("status").textContent).toBe("1 image to review");
    await waitFor(() => expect(document.title).toBe("Moderation · PromptCanvas"));
  });

  it("restores a held image, and unpublishes and suspends with a reason for the chosen time", async () => {
    const before = Date.now();
    renderPage();
    const item = await screen.findByRole("article", { name: "a held picture" });
    await userEvent.click(within(item).getByRole("button", { name: "Restore" }));
    await waitFor(() => expect(moderateGeneration).toHaveBeenCalledWith("g-held", "restore", "", null));
    await userEvent.click(within(item).getByRole("radio", { name: "Unpublish and suspend" }));
    await userEvent.selectOptions(within(item).getByRole("combobox", { name: "Suspended from publishing for" }), "30");
    await userEvent.click(within(item).getByRole("button", { name: "Unpublish and suspend" }));
    expect(within(item).getByRole("alert").textContent).toBe("Give the reason the owner will read.");
    await userEvent.type(within(item).getByRole("textbox", { name: "Reason the owner reads" }), "Graphic violence");
    await userEvent.click(within(item).getByRole("button", { name: "Unpublish and suspend" }));
    await waitFor(() => expect(moderateGeneration).toHaveBeenCalledTimes(2));
    const [id, action, reason, until] = moderateGeneration.mock.calls[1];
    expect([id, action, reason]).toEqual(["g-held", "suspend", "Graphic violence"]);
    const days = (Date.parse(until as string) - before) / 86_400_000;
    expect(days).toBeGreaterThanOrEqual(30);
    expect(days).toBeLessThan(30.01);
    // Each action reloads the queue.
    expect(moderationQueue).toHaveBeenCalledTimes(3);
  });

  it("adds and removes the prompt check's extra terms", async () => {
    renderPage();
    const terms = await screen.findByRole("list", { name: "Refused terms" });
    expect(terms.textContent).toContain("forbidden words");
    await userEvent.type(screen.getByRole("textbox", { name: "New term" }), "  Bad Phrase ");
    await userEvent.click(screen.getByRole("button", { name: "Add term" }));
    await waitFor(() => expect(addTerm).toHaveBeenCalledWith("bad phrase"));
    await userEvent.click(screen.getByRole("button", { name: "Remove forbidden words" }));
    await waitFor(() => expect(removeTerm).toHaveBeenCalledWith("forbidden words"));
    await userEvent.click(screen.getByRole("button", { name: "Add term" }));
    expect(screen.getByRole("alert").textContent).toBe("A term is 1 to 64 characters.");
  });
});

describe("the page's wording of a queue row", () => {
  it("counts reasons, orders scores and names the state", () => {
    expect(reasonCounts(HELD.reports).map((r) => [r.reason, r.count])).toEqual([
      ["violence", 2],
      ["hate", 1],
    ]);
    expect(scoreRows({ A: 0.1, B: 0.7, C: Number.NaN })).toEqual([
      { label: "B", value: "70.0%" },
      { label: "A", value: "10.0%" },
    ]);
    expect(stateOf({ held_at: null, flagged_at: "x", is_public: false })).toBe(
      "Flagged by the image check: not published",
    );
    expect(actionProblem("restore", "")).toBeNull();
    expect(actionProblem("unpublish", "   ")).toBe("Give the reason the owner will read.");
    expect(actionProblem("suspend", "é".repeat(501))).toBe("The reason is 501 characters; 500 at most.");
    expect(suspensionEnd(7, new Date("2026-11-26T00:00:00Z"))).toBe("2026-12-03T00:00:00.000Z");
  });
});
