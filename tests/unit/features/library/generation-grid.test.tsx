import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { toGenerationRecord } from "#src/db/generation-record.ts";
import { firstDrawnRow, GenerationGrid, gridGeometry, nextIndex } from "#src/features/library/generation-grid.tsx";
import { row } from "./seed.ts";

// No backend: a tile without bytes on the device asks for a signed URL and is refused.
vi.mock("#src/api/library.ts", () => ({
  SIGNED_URL_SECONDS: 3600,
  signedImageUrl: vi.fn(async () => ({ ok: false, error: { message: "offline" } })),
}));

const records = Array.from({ length: 1000 }, (_, i) => toGenerationRecord(row({ prompt: `picture ${i}` })));
// jsdom lays nothing out: the grid assumes 960 px, so 5 columns of square tiles.
const { columns, tile } = gridGeometry(0);
const rowHeight = tile + 12;

function renderGrid() {
  render(<GenerationGrid items={records} label="Your generations" onOpen={() => undefined} />);
  return screen.getByRole("list", { name: "Your generations" });
}

function scrollWindowTo(y: number) {
  Object.defineProperty(window, "scrollY", { configurable: true, value: y });
  act(() => {
    window.dispatchEvent(new Event("scroll"));
  });
}

/** Waits for the overscan rows, which join after the first paint. */
async function settle(list: HTMLElement) {
  const inView = within(list).getAllByRole("listitem").length;
  await waitFor(() => expect(within(list).getAllByRole("listitem").length).toBeGreaterThan(inView));
}

afterEach(() => scrollWindowTo(0));

describe("generation grid", () => {
  it("marks a tile whose image its moderators removed from the gallery, and only that one", () => {
    const removed = { ...records[1], removedAt: "2026-11-27T10:00:00.000Z", removedReason: "spam" };
    render(<GenerationGrid items={[records[0], removed]} label="Your generations" onOpen={() => undefined} />);
    const [kept, taken] = within(screen.getByRole("list", { name: "Your generations" })).getAllByRole("listitem");
    expect(within(taken).getByTitle("Removed from the gallery").hidden).toBe(false);
    expect(within(taken).getByText("Removed from the gallery")).toBeTruthy();
    expect(within(kept).getByTitle("Removed from the gallery").hidden).toBe(true);
  });

  it("draws the rows in view first and the overscan rows once that is on screen, keeping the first ones", async () => {
    const list = renderGrid();
    const first = within(list).getAllByRole("listitem");
    expect(first).toHaveLength(Math.ceil(window.innerHeight / rowHeight) * columns);
    await waitFor(() => expect(within(list).getAllByRole("listitem").length).toBeGreaterThan(first.length));
    const settled = within(list).getAllByRole("listitem");
    // The overscan rows below joined; the rows of the first paint are the same nodes.
    expect(settled).toHaveLength((Math.ceil(window.innerHeight / rowHeight) + 2 + 2 * 3) * columns);
    expect(first.every((li, i) => li === settled[i])).toBe(true);
  });

  it("draws a new list's rows in view first too, in the nodes it had, then its overscan rows", async () => {
    const { rerender } = render(<GenerationGrid items={records} label="Your generations" onOpen={() => undefined} />);
    const list = screen.getByRole("list", { name: "Your generations" });
    await settle(list);
    const before = within(list).getAllByRole("listitem");
    const found = records.slice(500);
    rerender(<GenerationGrid items={found} label="Your generations" onOpen={() => undefined} />);
    const inView = within(list).getAllByRole("listitem");
    expect(inView).toHaveLength(Math.ceil(window.innerHeight / rowHeight) * columns);
    expect(inView.every((li, i) => li === before[i])).toBe(true);
    expect(within(inView[0]).getByRole("button").getAttribute("aria-label")).toBe("Open: picture 500");
    await waitFor(() => expect(within(list).getAllByRole("listitem")).toHaveLength(before.length));
  });

  it("keeps its item nodes while scrolling and gives them the records now in view", async () => {
    const list = renderGrid();
    await settle(list);
    const before = within(list).getAllByRole("listitem");
    expect(before[0].getAttribute("aria-posinset")).toBe("1");

    scrollWindowTo(rowHeight * 20);
    const after = within(list).getAllByRole("listitem");
    // The same nodes, none inserted or removed: the rows that left took the records of the rows that came.
    expect(after).toHaveLength(before.length);
    expect(after.every((li, i) => li === before[i])).toBe(true);
    const shown = after.map((li) => Number(li.getAttribute("aria-posinset")));
    expect(shown).toContain(20 * columns + 1);
    expect(shown).not.toContain(1);
    const first = after.find((li) => li.getAttribute("aria-posinset") === String(20 * columns + 1))!;
    expect(within(first).getByRole("button").getAttribute("aria-label")).toBe(`Open: picture ${20 * columns}`);
  });

  it("is one Tab stop whose arrow keys move the focus in visual order", () => {
    const list = renderGrid();
    const tabbable = () => list.querySelectorAll('[tabindex="0"]');
    expect(tabbable()).toHaveLength(1);
    const firstButton = tabbable()[0] as HTMLElement;
    expect(firstButton.getAttribute("aria-label")).toBe("Open: picture 0");
    firstButton.focus();

    fireEvent.keyDown(firstButton, { key: "ArrowRight" });
    expect(document.activeElement?.getAttribute("aria-label")).toBe("Open: picture 1");
    fireEvent.keyDown(document.activeElement!, { key: "ArrowDown" });
    expect(document.activeElement?.getAttribute("aria-label")).toBe(`Open: picture ${1 + columns}`);
    fireEvent.keyDown(document.activeElement!, { key: "ArrowLeft" });
    expect(document.activeElement?.getAttribute("aria-label")).toBe(`Open: picture ${columns}`);
    expect(tabbable()).toHaveLength(1);
    expect(tabbable()[0]).toBe(document.activeElement);
  });

  it("works out the next item for each navigation key, within the list", () => {
    expect(nextIndex("ArrowRight", 4, 10, 5, 3)).toBe(5);
    expect(nextIndex("ArrowLeft", 0, 10, 5, 3)).toBe(0);
    expect(nextIndex("ArrowDown", 7, 10, 5, 3)).toBe(9);
    expect(nextIndex("ArrowUp", 3, 10, 5, 3)).toBe(0);
    expect(nextIndex("PageDown", 0, 100, 5, 3)).toBe(15);
    expect(nextIndex("PageUp", 50, 100, 5, 3)).toBe(35);
    expect(nextIndex("Home", 50, 100, 5, 3)).toBe(0);
    expect(nextIndex("End", 0, 100, 5, 3)).toBe(99);
    expect(nextIndex("a", 0, 100, 5, 3)).toBeNull();
  });

  it("draws the same number of rows wherever the list is scrolled, so every row has a slot", () => {
    // 12 slots over 200 rows: the overscan (3 rows) above the first visible row, and never so far down
    // that fewer than 12 rows are left to draw.
    expect(firstDrawnRow(0, 200, 12)).toBe(0);
    expect(firstDrawnRow(2, 200, 12)).toBe(0);
    expect(firstDrawnRow(50, 200, 12)).toBe(47);
    expect(firstDrawnRow(198, 200, 12)).toBe(188);
    expect(firstDrawnRow(199, 200, 12)).toBe(188);
    // A list shorter than the slots is drawn whole from its first row.
    expect(firstDrawnRow(3, 5, 12)).toBe(0);
  });
});
