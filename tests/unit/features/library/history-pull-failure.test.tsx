// A failed server load of the history (the pull of generations) is shown on /history, above what this
// device already holds, and goes once a pull completes (docs/spec.md §8: a history load failure is stored and
// shown, and loading ends).
import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { ERROR_CATALOGUE } from "#shared/vocabulary/errors.ts";
import { toAppError } from "#src/api/errors.ts";
import { db } from "#src/db/db.ts";
import { ok } from "#src/lib/result.ts";
import { catchUp, pullGenerations, type FetchGenerationsPage } from "#src/sync/pull.ts";
import { renderAt } from "../../../support/render-at.tsx";
import { signedInDevice } from "../../../support/signed-in.ts";
import { row, seed } from "./seed.ts";

vi.mock("#src/api/library.ts", () => ({
  SIGNED_URL_SECONDS: 3600,
  signedImageUrl: vi.fn(async () => ({ ok: false, error: { message: "offline" } })),
  fetchGenerationFlags: vi.fn(async () => ({ ok: true, value: [] })),
}));

const { default: HistoryPage } = await import("#src/features/library/history-page.tsx");

/** What the server answers when it fails: a 500 from PostgREST, as supabase-js reports it. */
const serverDown: FetchGenerationsPage = async () => ({
  ok: false,
  error: toAppError({ message: "internal error", code: "XX000", status: 500 }),
});

const renderPage = () => renderAt("/history", <HistoryPage />);

signedInDevice();

describe("history after a failed server load", () => {
  it("shows the failure's message and keeps listing what the device holds", async () => {
    await seed([row({ prompt: "kept fox" }), row({ prompt: "kept lighthouse" })]);
    const result = await pullGenerations(db, "u1", serverDown);
    expect(result.error?.code).toBe("server_error");

    renderPage();
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toBe(ERROR_CATALOGUE.server_error.message);
    expect(await screen.findByText("2 generations")).toBeTruthy();
    const tiles = within(screen.getByRole("list", { name: "Your generations" })).getAllByRole("button");
    expect(tiles.map((b) => b.getAttribute("aria-label"))).toEqual(["Open: kept lighthouse", "Open: kept fox"]);
  });

  it("stops showing it once a pull completes", async () => {
    const kept = row({ prompt: "kept fox" });
    await seed([kept]);
    await pullGenerations(db, "u1", serverDown);
    renderPage();
    await screen.findByRole("alert");

    const fresh = row({ prompt: "from the server" });
    // The server holds both rows, so the catch-up's reconciliation keeps both on the device.
    const onServer = [kept, fresh].map((r) => ({ id: r.id, is_saved: false, is_public: false }));
    const report = await catchUp(
      db,
      "u1",
      async (_user, since) => ok(since ? [] : [fresh]),
      async () => ok(onServer),
      undefined,
      // No custom styles on this server (decision 152), nor collections (decision 157).
      async () => ok([]),
      async () => ok({ collections: [], items: [] }),
    );
    expect(report.errors).toEqual([]);
    await waitFor(() => expect(screen.queryByRole("alert")).toBeNull());
    expect(await screen.findByText("2 generations")).toBeTruthy();
  });

  it("is the user's own: another person's failed pull is not shown", async () => {
    await pullGenerations(db, "u2", serverDown);
    renderPage();
    expect(await screen.findByText("0 generations")).toBeTruthy();
    expect(screen.queryByRole("alert")).toBeNull();
  });
});
