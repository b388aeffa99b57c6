// The background fill: fetches what the plan asks for (thumbnails of all, full images within the
// budget), skips an image that fails, stops when the connection goes, and waits its turn per fetch.
import { Blob as NodeBlob } from "node:buffer";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { GenerationRow } from "#shared/vocabulary/rows.ts";
import { openAppDb, type AppDb } from "#src/db/db.ts";
import { toGenerationRecord } from "#src/db/generation-record.ts";
import { getImage, storeImage } from "#src/db/images.ts";
import { offlineSummary } from "#src/db/offline-library.ts";
import { err, ok } from "#src/lib/result.ts";
import { trackForeground } from "#src/sync/foreground.ts";
import { INTERACTION_QUIET_MS, backgroundTurn, fillOnce, type FillDeps } from "#src/sync/pull-images.ts";
import { generationRow } from "../../support/records.ts";

let db: AppDb;
afterEach(async () => {
  await db?.delete();
});

const blob = (size: number) => new NodeBlob([new Uint8Array(size)], { type: "image/png" }) as unknown as Blob;
const row = (n: number, over: Partial<GenerationRow> = {}): GenerationRow =>
  generationRow(`g${n}`, "alice", {
    created_at: `2026-11-22T10:00:0${n}.000Z`,
    image_path: `alice/g${n}.png`,
    ...over,
  });

function deps(over: Partial<FillDeps> = {}): FillDeps & { fetched: string[] } {
  const fetched: string[] = [];
  return {
    db,
    fetched,
    fetchImage: async (path) => {
      fetched.push(path);
      return ok(blob(1_000_000));
    },
    thumbnail: async () => "data:image/webp;base64,AA",
    budget: async () => 1_500_000,
    turn: async () => undefined,
    online: () => true,
    keptByQueue: () => false,
    whileQuiet: (start) => start(),
    ...over,
  };
}

describe("fillOnce", () => {
  it("leaves an image the queue is keeping to the queue, and neither fetches nor scales it", async () => {
    db = openAppDb("fill-left-to-queue");
    await db.generations.bulkPut([1, 2].map((n) => toGenerationRecord(row(n))));
    let thumbnails = 0;
    const d = deps({
      keptByQueue: (id) => id === "g2",
      thumbnail: async () => {
        thumbnails++;
        return "data:image/webp;base64,AA";
      },
    });
    expect(await fillOnce(d, "alice")).toEqual({ fetched: 1, failed: 0, stopped: "done" });
    expect(d.fetched).toEqual(["alice/g1.png"]);
    expect(thumbnails).toBe(1);
    expect(await getImage("g2", db)).toBeUndefined();
  });

  it("writes nothing for an image kept whole meanwhile (by the queue, a view or another tab)", async () => {
    db = openAppDb("fill-kept-meanwhile");
    await db.generations.bulkPut([toGenerationRecord(row(1))]);
    let turns = 0;
    const d = deps({
      // The plan is made (after the first turn); before the fetch's turn comes, the bytes and the thumbnail are kept.
      turn: async () => {
        if (++turns === 2) await storeImage("g1", { image: blob(900_000), thumbnail: "data:image/webp;base64,BB" }, db);
      },
    });
    expect(await fillOnce(d, "alice")).toEqual({ fetched: 0, failed: 0, stopped: "done" });
    expect(d.fetched).toEqual([]);
    expect((await getImage("g1", db))?.thumbnail).toBe("data:image/webp;base64,BB");
  });

  it("keeps every thumbnail, the saved full image and the newest within the budget", async () => {
    db = openAppDb("fill-all");
    await db.generations.bulkPut([1, 2, 3].map((n) => toGenerationRecord(row(n, { is_saved: n === 1 }))));
    const d = deps();
    expect(await fillOnce(d, "alice")).toEqual({ fetched: 3, failed: 0, stopped: "done" });
    expect(d.fetched).toEqual(["alice/g3.png", "alice/g2.png", "alice/g1.png"]);
    expect(await offlineSummary("alice", db)).toMatchObject({ thumbnails: 3, fullImages: 2, savedFullImages: 1 });
    expect((await getImage("g3", db))?.image).toBeDefined();
    expect((await getImage("g2", db))?.image).toBeUndefined();
    // A second pass has nothing to do.
    expect(await fillOnce(d, "alice")).toEqual({ fetched: 0, failed: 0, stopped: "done" });
  });

  it("skips an image that fails for the rest of the pass, and stops when offline", async () => {
    db = openAppDb("fill-fail");
    await db.generations.bulkPut([1, 2].map((n) => toGenerationRecord(row(n))));
    const failing = deps({
      fetchImage: async (path) =>
        path.endsWith("g2.png") ? err({ offline: false, error: {} as never }) : ok(blob(10)),
    });
    expect(await fillOnce(failing, "alice")).toEqual({ fetched: 1, failed: 1, stopped: "done" });
    const offline = deps({ fetchImage: async () => err({ offline: true, error: {} as never }) });
    expect((await fillOnce(offline, "alice")).stopped).toBe("offline");
    expect((await fillOnce(deps({ online: () => false }), "alice")).stopped).toBe("offline");
  });

  it("waits while a view is fetching what is on screen", async () => {
    let release!: () => void;
    const view = trackForeground(new Promise<void>((resolve) => (release = resolve)));
    const turn = vi.fn();
    const waiting = backgroundTurn().then(turn);
    await new Promise((r) => setTimeout(r, 50));
    expect(turn).not.toHaveBeenCalled();
    release();
    await view;
    await waiting;
    expect(turn).toHaveBeenCalled();
  });

  it("waits while the person scrolls, until a quiet while after the last scroll", async () => {
    const list = document.body.appendChild(document.createElement("div"));
    const turn = vi.fn();
    const started = performance.now();
    const waiting = backgroundTurn().then(() => turn(performance.now() - started));
    // An inner scroller (History's list) scrolling for 300 ms; scroll events do not bubble.
    for (let i = 0; i < 6; i++) {
      list.dispatchEvent(new Event("scroll"));
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(turn).not.toHaveBeenCalled();
    await waiting;
    expect(turn.mock.calls[0]![0]).toBeGreaterThanOrEqual(250 + INTERACTION_QUIET_MS - 20);
    list.remove();
  });

  it("takes a turn before each plan, each fetch and each write", async () => {
    db = openAppDb("fill-turns");
    await db.generations.bulkPut([1, 2].map((n) => toGenerationRecord(row(n))));
    const turn = vi.fn(async () => undefined);
    expect((await fillOnce(deps({ turn }), "alice")).fetched).toBe(2);
    // The first plan, two fetches and their writes, and the plan that finds nothing left.
    expect(turn).toHaveBeenCalledTimes(6);
  });

  it("does not plan while foreground work is under way (a send of the queue), and plans once it is over", async () => {
    db = openAppDb("fill-foreground");
    await db.generations.bulkPut([toGenerationRecord(row(1))]);
    let release!: () => void;
    const sending = trackForeground(new Promise<void>((resolve) => (release = resolve)));
    const planned = vi.spyOn(db.imageUse, "where");
    const d = deps({ turn: backgroundTurn });
    const pass = fillOnce(d, "alice");
    await new Promise((r) => setTimeout(r, 50));
    expect(planned).not.toHaveBeenCalled();
    release();
    await sending;
    expect(await pass).toEqual({ fetched: 1, failed: 0, stopped: "done" });
    expect(planned).toHaveBeenCalled();
  });

  it("plans again at once when the records, saved items or budget change mid-batch", async () => {
    db = openAppDb("fill-changed");
    await db.generations.bulkPut([1, 2, 3].map((n) => toGenerationRecord(row(n))));
    let budget = 0;
    let change = false;
    const d = deps({
      budget: async () => budget,
      fetchImage: async (path) => {
        d.fetched.push(path);
        // The person raises the budget while the first image is fetched.
        budget = 10_000_000;
        change = true;
        return ok(blob(1_000_000));
      },
    });
    const changed = () => {
      const seen = change;
      change = false;
      return seen;
    };
    expect(await fillOnce(d, "alice", () => false, changed)).toEqual({ fetched: 4, failed: 0, stopped: "done" });
    // g3's thumbnail under the old plan, then g2 and g1 whole under the new one, then g3's full image:
    // no image is fetched twice but the one the old plan had already taken.
    expect(d.fetched).toEqual(["alice/g3.png", "alice/g2.png", "alice/g1.png", "alice/g3.png"]);
    expect(await offlineSummary("alice", db)).toMatchObject({ thumbnails: 3, fullImages: 3 });
  });
});
