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

const { useTileImage } = await import("#src/features/library/use-tile-image.ts");

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
});
