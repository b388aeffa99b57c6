// The toast for the outbox's conflicts: a publish the server's checks refused is shown as the error
// catalogue has it (its title and action) with the server's words for why; other conflicts, and several
// at once, say that a change could not be applied.
import { describe, expect, it } from "vitest";
import { ERROR_CATALOGUE } from "#shared/vocabulary/errors.ts";
import { conflictToast } from "#src/app/library-runtime.ts";
import type { OutboxConflict } from "#src/db/schema.ts";

const conflict = (over: Partial<OutboxConflict>) => ({
  conflict: { reason: "rejected" as const, message: "why", at: "2026-11-26T15:00:00.000Z", notified: true, ...over },
});

describe("conflictToast", () => {
  it("shows a refused publish with the catalogue's title and action and the server's message", () => {
    const why = "The image check found this image sexually explicit, so it was not published.";
    expect(conflictToast([conflict({ code: "nsfw_content", message: why })])).toEqual({
      tone: "warning",
      title: "Content Policy Violation",
      message: why,
      action: ERROR_CATALOGUE.nsfw_content.action,
    });
    expect(conflictToast([conflict({ code: "publishing_suspended", message: "until Friday" })])).toMatchObject({
      title: "Publishing Suspended",
      message: "until Friday",
      action: { label: "Content Policy", to: "/content-policy" },
    });
  });

  it("says a change could not be applied for any other conflict, and counts several", () => {
    expect(conflictToast([conflict({ reason: "gone", message: "gone" })])).toEqual({
      tone: "warning",
      title: "A change could not be applied",
      message: "gone",
    });
    expect(conflictToast([conflict({ code: "invalid_input" })])).toMatchObject({
      title: "A change could not be applied",
    });
    const two = [conflict({ code: "nsfw_content" }), conflict({ code: "nsfw_content" })];
    expect(conflictToast(two)).toEqual({
      tone: "warning",
      title: "2 changes could not be applied",
      message: "The server's version was kept; see your history.",
    });
  });
});
