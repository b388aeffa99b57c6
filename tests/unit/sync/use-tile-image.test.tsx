// A grid tile of an image this page's queue is keeping (decision 160): it waits for the queue's thumbnail
// rather than decode the full image at a tile's size, and shows the answer's URL only if no thumbnail came.
import { act, render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { imageKept, keepingImage, rememberFreshImage } from "#src/sync/fresh-images.ts";
import { useTileImage } from "#src/sync/use-tile-image.ts";

function Tile({ id }: { id: string }) {
  const { src } = useTileImage({ id, imagePath: `alice/${id}.png` });
  return <p data-testid={id}>{src ?? "(nothing yet)"}</p>;
}

const THUMBNAIL = "data:image/jpeg;base64,AAAA";

describe("useTileImage for an image the queue is keeping", () => {
  it("shows nothing while the queue keeps it, then the queue's thumbnail, never the full image", async () => {
    rememberFreshImage("t1", "http://storage.test/alice/t1.png?token=a");
    keepingImage("t1");
    render(<Tile id="t1" />);
    // The tile's own read of this device's bytes answers (none yet); it still waits for the queue.
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.getByTestId("t1").textContent).toBe("(nothing yet)");
    act(() => imageKept("t1", THUMBNAIL));
    await waitFor(() => expect(screen.getByTestId("t1").textContent).toBe(THUMBNAIL));
  });

  it("shows the answer's URL when the queue kept no thumbnail", async () => {
    const url = "http://storage.test/alice/t2.png?token=b";
    rememberFreshImage("t2", url);
    keepingImage("t2");
    render(<Tile id="t2" />);
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.getByTestId("t2").textContent).toBe("(nothing yet)");
    act(() => imageKept("t2", undefined));
    await waitFor(() => expect(screen.getByTestId("t2").textContent).toBe(url));
  });

  it("shows a just-made image's answer URL at once when the queue is not keeping it here", async () => {
    const url = "http://storage.test/alice/t3.png?token=c";
    rememberFreshImage("t3", url);
    render(<Tile id="t3" />);
    await waitFor(() => expect(screen.getByTestId("t3").textContent).toBe(url));
  });
});
