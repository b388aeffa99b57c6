// The compare page over the app's Dexie (fake-indexeddb): the person's own images from the library,
// another person's published one from the gallery (the API module stands in for the backend), the
// table marking what differs, and the slider.
import { fireEvent, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Router } from "wouter";
import { memoryLocation } from "wouter/memory-location";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { compareLink } from "#src/lib/compare-link.ts";
import { setSessionView } from "#src/state/session-store.ts";
import { generationRow } from "../../../support/records.ts";
import { resetDb, row, seed } from "../library/seed.ts";

await vi.hoisted(async () => {
  const { Blob: NodeBlob } = await import("node:buffer");
  globalThis.Blob = NodeBlob as unknown as typeof Blob;
});

const OTHER = "7f000000-0000-4000-8000-000000000777";
const published = generationRow(OTHER, "someone-else", {
  prompt: "a harbour at dawn",
  style: "anime",
  seed: 42,
  model: "procedural-v1",
  is_public: true,
  created_at: "2026-11-01T00:01:00.000Z",
});
const getPublished = vi.fn(async (id: string) => ({ ok: true as const, value: id === OTHER ? published : null }));
vi.mock("#src/api/gallery.ts", () => ({
  getPublished: (id: string) => getPublished(id),
  loadPublishedImage: async () => ({ ok: true, value: new Blob([new Uint8Array([1])], { type: "image/png" }) }),
}));
vi.mock("#src/api/library.ts", () => ({
  SIGNED_URL_SECONDS: 3600,
  signedImageUrl: vi.fn(async () => ({ ok: false, error: { message: "offline" } })),
}));

const { default: ComparePage } = await import("#src/features/compare/compare-page.tsx");

const png = () => new Blob([new Uint8Array([137, 80, 78, 71])], { type: "image/png" });

beforeAll(() => {
  URL.createObjectURL = () => "blob:test";
  URL.revokeObjectURL = () => undefined;
});
beforeEach(async () => {
  getPublished.mockClear();
  await resetDb();
  setSessionView({ status: "signed-in", user: { id: "u1", email: "a@example.com" }, verified: true });
});
afterEach(() => setSessionView({ status: "signed-out", user: null, verified: true }));

function renderAt(ids: string[]) {
  const link = compareLink(ids);
  const location = memoryLocation({ path: link });
  render(
    <Router hook={location.hook} searchHook={location.searchHook}>
      <ComparePage />
    </Router>,
  );
}

/** The table's row of a field, by its header cell's text (the field, then "Differs" or "Same"). */
function rowOf(label: string): HTMLElement {
  const rows = [...document.querySelectorAll<HTMLElement>("tbody tr")];
  return rows.find((tr) => new RegExp(`^${label}(Differs|Same)$`).test(tr.querySelector("th")?.textContent ?? ""))!;
}

describe("the compare page", () => {
  it("compares own images and a published one, marking exactly the fields that differ", async () => {
    const a = row({ prompt: "a harbour at dawn", style: "anime", seed: 42, created_at: published.created_at });
    const b = row({ prompt: "a harbour at dawn", style: "watercolor", seed: 42, created_at: published.created_at });
    await seed(
      [a, b],
      new Map([
        [a.id, png()],
        [b.id, png()],
      ]),
    );
    renderAt([a.id, b.id, OTHER]);

    expect(await screen.findByRole("figure", { name: "Image C" })).toBeTruthy();
    // The published one arrives from the gallery after the library's two.
    expect(await screen.findByText("Gallery")).toBeTruthy();
    expect(screen.getByText("1 field differs.")).toBeTruthy();
    expect(rowOf("Style").hasAttribute("data-differs")).toBe(true);
    expect(within(rowOf("Style")).getByText("Differs")).toBeTruthy();
    expect(
      within(rowOf("Style"))
        .getAllByRole("cell")
        .map((c) => c.textContent),
    ).toEqual(["Anime", "Watercolor", "Anime"]);
    for (const same of ["Prompt", "Negative prompt", "Seed", "Quality", "Aspect ratio", "Size", "Model", "Created"]) {
      const tr = rowOf(same);
      expect(tr.hasAttribute("data-differs"), same).toBe(false);
      expect(within(tr).getByText("Same")).toBeTruthy();
    }
    // Only the id the library does not hold was looked up in the gallery.
    expect(getPublished.mock.calls.map(([id]) => id)).toEqual([OTHER]);
    expect(screen.getAllByText("Your library")).toHaveLength(2);

    await userEvent.click(screen.getByRole("checkbox", { name: "Differences only" }));
    const rows = within(screen.getByRole("table")).getAllByRole("rowheader");
    expect(rows.map((r) => r.textContent)).toEqual(["StyleDiffers"]);
  });

  it("shows two at a time under a slider, the pair chosen when more are compared", async () => {
    const [a, b, c] = [row({ style: "anime" }), row({ style: "watercolor" }), row({ style: "pixel-art" })];
    await seed(
      [a, b, c],
      new Map([
        [a.id, png()],
        [b.id, png()],
        [c.id, png()],
      ]),
    );
    renderAt([a.id, b.id, c.id]);
    await screen.findByRole("figure", { name: "Image C" });
    await userEvent.click(screen.getByRole("button", { name: "Slider" }));
    const slider = await screen.findByRole("slider", { name: "Slider between A and B" });
    expect(slider.getAttribute("aria-valuetext")).toBe("50% of A shown, 50% of B");
    fireEvent.change(slider, { target: { value: "20" } });
    expect(slider.getAttribute("aria-valuetext")).toBe("20% of A shown, 80% of B");
    const clip = document.querySelector<HTMLElement>("[data-slider-left]")!;
    expect(clip.style.clipPath).toBe("inset(0 80% 0 0)");

    await userEvent.selectOptions(screen.getByRole("combobox", { name: "Right" }), "2");
    expect(screen.getByRole("slider", { name: "Slider between A and C" })).toBeTruthy();
    // Choosing for the left the image the right shows swaps them.
    await userEvent.selectOptions(screen.getByRole("combobox", { name: "Left" }), "2");
    expect(screen.getByRole("slider", { name: "Slider between C and A" })).toBeTruthy();
  });

  it("says what is missing, and asks for images when the address names fewer than two", async () => {
    const a = row();
    await seed([a], new Map([[a.id, png()]]));
    const gone = "7f000000-0000-4000-8000-000000000999";
    renderAt([a.id, gone]);
    expect(await screen.findByText("Not in your library on this device, nor in the gallery.")).toBeTruthy();
    render(
      <Router hook={memoryLocation({ path: "/compare" }).hook} searchHook={() => ""}>
        <ComparePage />
      </Router>,
    );
    expect(screen.getByText("Choose 2 to 4 images to compare.")).toBeTruthy();
  });
});
