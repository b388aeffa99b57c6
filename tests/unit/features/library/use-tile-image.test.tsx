// Grid tiles read their bytes in one batch per render and keep the object URLs for the next showing.
import { render, screen, waitFor } from "@testing-library/react";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "#src/db/db.ts";
import { resetDb, row, seed } from "./seed.ts";

// jsdom's Blob cannot cross fake-indexeddb; Node's (which, like the browser's, can) stands in.
await vi.hoisted(async () => {
  const { Blob: NodeBlob } = await import("node:buffer");
  globalThis.Blob = NodeBlob as unknown as typeof Blob;
});

vi.mock("#src/api/library.ts", () => ({
  SIGNED_URL_SECONDS: 3600,
  signedImageUrl: vi.fn(async (path: string) => ({ ok: true, value: `https://storage.test/${path}` })),
}));

const { prefetchTileImages, useTileImage } = await import("#src/sync/use-tile-image.ts");

function Tiles({ ids }: { ids: string[] }) {
  return (
    <ul>
      {ids.map((id) => (
        <Tile key={id} id={id} />
      ))}
    </ul>
  );
}

function Tile({ id }: { id: string }) {
  const image = useTileImage({ id, imagePath: `u1/${id}.png` });
  return <li data-testid={id}>{image.src ?? "…"}</li>;
}

let made = 0;
beforeAll(() => {
  URL.createObjectURL = () => `blob:tile/${++made}`;
  URL.revokeObjectURL = () => undefined;
});
beforeEach(async () => {
  await resetDb();
});

describe("tile images", () => {
  it("reads the bytes of the tiles mounting together in one batch, and reuses their URLs", async () => {
    const rows = [row(), row(), row(), row()];
    const held = new Map(rows.slice(0, 3).map((r) => [r.id, new Blob([new Uint8Array([1])], { type: "image/webp" })]));
    await seed(rows, held);
    const bulkGet = vi.spyOn(db.images, "bulkGet");
    const ids = rows.map((r) => r.id);
    const first = render(<Tiles ids={ids} />);
    await waitFor(() => expect(screen.getByTestId(ids[2]).textContent).toMatch(/^blob:tile\//));
    expect(bulkGet).toHaveBeenCalledTimes(1);
    expect(bulkGet.mock.calls[0][0]).toEqual(ids);
    // The fourth has no bytes here: it shows the stored object through a signed URL.
    await waitFor(() => expect(screen.getByTestId(ids[3]).textContent).toBe(`https://storage.test/u1/${ids[3]}.png`));
    const urls = ids.slice(0, 3).map((id) => screen.getByTestId(id).textContent);
    expect(new Set(urls).size).toBe(3);
    first.unmount();

    // Scrolled back into view: the same URLs at once, without another read for the held ones.
    const before = made;
    render(<Tiles ids={ids.slice(0, 3)} />);
    expect(ids.slice(0, 3).map((id) => screen.getByTestId(id).textContent)).toEqual(urls);
    expect(made).toBe(before);
    expect(bulkGet).toHaveBeenCalledTimes(1);
    bulkGet.mockRestore();
  });

  it("reads ahead the rows about to enter in one read, so their tiles show a picture in their first render", async () => {
    const rows = Array.from({ length: 12 }, () => row());
    const held = new Map(rows.slice(0, 10).map((r) => [r.id, new Blob([new Uint8Array([2])], { type: "image/webp" })]));
    await seed(rows, held);
    const ids = rows.map((r) => r.id);
    const bulkGet = vi.spyOn(db.images, "bulkGet");

    // Nothing near is unread: no read.
    prefetchTileImages([], ids);
    await Promise.resolve();
    expect(bulkGet).not.toHaveBeenCalled();

    // One near tile is unread: everything ahead is read at once.
    prefetchTileImages(ids.slice(0, 2), ids);
    await waitFor(() => expect(bulkGet).toHaveBeenCalledTimes(1));
    expect(bulkGet.mock.calls[0][0]).toEqual(ids);
    await bulkGet.mock.results[0].value;
    await new Promise((resolve) => setTimeout(resolve, 0));
    // Drawn at once with their pictures: no tile waits for a read of its own.
    render(<Tiles ids={ids.slice(0, 10)} />);
    for (const id of ids.slice(0, 10)) expect(screen.getByTestId(id).textContent).toMatch(/^blob:tile\//);

    // The two without bytes here are known absent: asking near them again reads nothing.
    prefetchTileImages(ids.slice(10), ids.slice(10));
    await Promise.resolve();
    expect(bulkGet).toHaveBeenCalledTimes(1);
    bulkGet.mockRestore();
  });
});
