// How gallery tiles load their pictures: the side asked for follows the tile's drawn size, tiles below
// the fold wait until the tiles in view have theirs, and a thumbnail is read with plain fetch as the
// anon role before the API client is loaded for it. jsdom has no IntersectionObserver and no layout,
// so the test gives it an observer that reports each tile where the test places it; the backend's
// Storage API is a fetch that answers each thumbnail as the test says (refused unless told).
import { act, render, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

const loadPublishedImage = vi.fn();
vi.mock("#src/api/gallery.ts", () => ({ loadPublishedImage }));
/** What the tiles hold the page's settling with (the service worker registers once it has settled). */
const holdSettled = vi.fn();
vi.mock("#src/lib/page-settled.ts", () => ({ holdSettled }));

window.__APP_CONFIG__ = { supabaseUrl: "http://api.test", supabaseAnonKey: "anon-key" };
const { TILE_SIDES, tileSide, usePublishedImage } = await import("#src/features/gallery/use-published-image.ts");

/** Where each tile (by its data-path) sits on the page, in CSS pixels from the viewport's top. */
let tops: Record<string, number> = {};
const observers: { callback: IntersectionObserverCallback; targets: Element[] }[] = [];

class PlacedObserver {
  targets: Element[] = [];
  constructor(callback: IntersectionObserverCallback) {
    observers.push({ callback, targets: this.targets });
  }
  observe(target: Element) {
    this.targets.push(target);
  }
  disconnect() {
    this.targets.length = 0;
  }
}

/** Delivers every observed tile's entry, as the browser does after layout. */
function reportPositions() {
  for (const { callback, targets } of observers) {
    const entries = targets.map((target) => {
      const top = tops[target.getAttribute("data-path") ?? ""] ?? 0;
      return {
        target,
        isIntersecting: top < window.innerHeight + 400,
        boundingClientRect: { top, bottom: top + 180 },
      } as unknown as IntersectionObserverEntry;
    });
    callback(entries, {} as IntersectionObserver);
  }
}

function Tile({ path }: { path: string }) {
  const { ref, image } = usePublishedImage(path, "tile");
  return (
    <div ref={ref} data-path={path} data-status={image.status}>
      {path}
    </div>
  );
}

const pending = new Map<string, (value: unknown) => void>();
/** Thumbnails the Storage API gives the anon role, by path; every other read is refused. */
let published: Set<string>;
const thumbnailRequests: { url: string; headers: Record<string, string> }[] = [];

beforeEach(() => {
  tops = {};
  observers.length = 0;
  pending.clear();
  published = new Set();
  thumbnailRequests.length = 0;
  vi.stubGlobal("IntersectionObserver", PlacedObserver);
  vi.stubGlobal("fetch", async (url: string, init?: RequestInit) => {
    thumbnailRequests.push({ url, headers: { ...(init?.headers as Record<string, string>) } });
    const path = decodeURIComponent(new URL(url).pathname.split("/generations/")[1] ?? "");
    return published.has(path)
      ? new Response(new Uint8Array([0xff, 0xd8, 0xff, 0xd9]), { headers: { "content-type": "image/jpeg" } })
      : new Response('{"statusCode":"404","error":"not_found"}', { status: 400 });
  });
  vi.spyOn(URL, "createObjectURL").mockImplementation(() => "blob:test");
  vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => undefined);
  // Each load waits until the test answers it.
  loadPublishedImage.mockReset();
  holdSettled.mockReset();
  loadPublishedImage.mockImplementation((path: string) => new Promise((resolve) => pending.set(path, resolve)));
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const flush = () => act(() => new Promise((r) => setTimeout(r, 0)));
const requested = () => loadPublishedImage.mock.calls.map(([path]) => path as string);

describe("gallery tile pictures", () => {
  it("asks for the smallest side that is sharp at the tile's drawn size", () => {
    expect(tileSide(182, 1.75)).toBe(320); // a phone: 319 device pixels
    expect(tileSide(171, 3)).toBe(640); // a phone at 3x: 513 device pixels
    expect(tileSide(182, 2)).toBe(384);
    expect(tileSide(182, 1)).toBe(256);
    expect(tileSide(280, 2)).toBe(640); // the widest desktop column on a 2x screen
    expect(tileSide(250, 2)).toBe(512);
    expect(tileSide(600, 3)).toBe(TILE_SIDES[TILE_SIDES.length - 1]); // never more than the largest step
    expect(tileSide(0, 0)).toBe(256);
  });

  it("loads the tiles in view first and the ones below the fold after them", async () => {
    tops = { "a.png": 300, "b.png": 500, "c.png": 900, "d.png": 1100 };
    const paths = Object.keys(tops);
    const view = render(
      <>
        {paths.map((p) => (
          <Tile key={p} path={p} />
        ))}
      </>,
    );
    expect(requested()).toEqual([]); // nothing before the observer has placed the tiles
    act(reportPositions);
    await flush();
    // window.innerHeight is 768 in jsdom: a and b are in view, c and d only near it.
    expect(requested()).toEqual(["a.png", "b.png"]);
    expect(loadPublishedImage).toHaveBeenCalledWith("a.png", 256);

    await act(async () => pending.get("a.png")?.({ ok: true, value: new Blob(["a"]) }));
    await flush();
    expect(requested()).toEqual(["a.png", "b.png"]); // b is still on its way
    await act(async () => pending.get("b.png")?.({ ok: false, error: { message: "refused" } }));
    await flush();
    // A failed picture in view counts as done: the rest go on.
    expect(requested()).toEqual(["a.png", "b.png", "c.png", "d.png"]);
    expect(view.container.querySelector('[data-path="a.png"]')?.getAttribute("data-status")).toBe("ready");
    expect(view.container.querySelector('[data-path="b.png"]')?.getAttribute("data-status")).toBe("error");
  });

  it("holds the page from settling until each tile near the screen has drawn its picture or its failure", async () => {
    tops = { "a.png": 300, "b.png": 500, "c.png": 900 };
    render(
      <>
        {Object.keys(tops).map((p) => (
          <Tile key={p} path={p} />
        ))}
      </>,
    );
    act(reportPositions);
    await flush();
    // a and b are in view and load; c, near the screen, waits for them but holds the page already.
    expect(holdSettled).toHaveBeenCalledTimes(3);
    const released = [false, false, false];
    holdSettled.mock.calls.forEach(([hold], i) => void (hold as Promise<void>).then(() => (released[i] = true)));
    await act(async () => pending.get("a.png")?.({ ok: true, value: new Blob(["a"]) }));
    await flush();
    expect(released).toEqual([true, false, false]);
    await act(async () => pending.get("b.png")?.({ ok: false, error: { message: "refused" } }));
    await flush();
    expect(released).toEqual([true, true, false]);
    expect(requested()).toEqual(["a.png", "b.png", "c.png"]);
    await act(async () => pending.get("c.png")?.({ ok: true, value: new Blob(["c"]) }));
    await flush();
    expect(released).toEqual([true, true, true]);
  });

  it("lets the tiles below the fold go on when a tile in view goes away before its picture came", async () => {
    tops = { "a.png": 300, "c.png": 900 };
    const view = render(<Tile key="a" path="a.png" />);
    act(reportPositions);
    await flush();
    expect(requested()).toEqual(["a.png"]);
    // A new search replaces the tile in view; the next results' tiles below the fold do not wait for it.
    view.rerender(<Tile key="c" path="c.png" />);
    act(reportPositions);
    await flush();
    expect(requested()).toEqual(["a.png", "c.png"]);
  });

  it("does not hold tiles below the fold behind a picture in view that never arrives", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout"] });
    try {
      tops = { "a.png": 300, "c.png": 900 };
      render(
        <>
          <Tile path="a.png" />
          <Tile path="c.png" />
        </>,
      );
      act(reportPositions);
      await act(async () => {
        await Promise.resolve();
      });
      expect(requested()).toEqual(["a.png"]);
      await act(async () => {
        await vi.advanceTimersByTimeAsync(3000);
      });
      expect(requested()).toEqual(["a.png", "c.png"]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("reads a tile's thumbnail as the anon role without loading the API client", async () => {
    tops = { "u/a.png": 300 };
    published.add("u/a.png");
    const view = render(<Tile path="u/a.png" />);
    act(reportPositions);
    await waitFor(() => expect(view.container.querySelector("[data-path]")?.getAttribute("data-status")).toBe("ready"));
    expect(thumbnailRequests).toEqual([
      {
        url: "http://api.test/storage/v1/render/image/authenticated/generations/u/a.png?width=256&height=256&resize=cover&quality=75",
        headers: { apikey: "anon-key", Authorization: "Bearer anon-key", Accept: "image/webp,*/*;q=0.8" },
      },
    ]);
    expect(requested()).toEqual([]);
  });

  it("reads through the API client (as the current role) when the anon read is refused", async () => {
    tops = { "u/b.png": 300 };
    const view = render(<Tile path="u/b.png" />);
    act(reportPositions);
    await waitFor(() => expect(requested()).toEqual(["u/b.png"]));
    expect(thumbnailRequests).toHaveLength(1);
    await act(async () => pending.get("u/b.png")?.({ ok: true, value: new Blob(["b"]) }));
    await waitFor(() => expect(view.container.querySelector("[data-path]")?.getAttribute("data-status")).toBe("ready"));
  });
});
