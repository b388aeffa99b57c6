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
  it.each([
    { kept: THUMBNAIL, shows: THUMBNAIL, id: "t1" },
    { kept: undefined, shows: "http://storage.test/alice/t2.png?token=b", id: "t2" },
  ])(
    "shows nothing while the queue keeps it, then its thumbnail, or the answer's URL without one ($id)",
    async ({ kept, shows, id }) => {
      rememberFreshImage(id, `http://storage.test/alice/${id}.png?token=${id === "t1" ? "a" : "b"}`);
      keepingImage(id);
      render(<Tile id={id} />);
      // The tile's own read of this device's bytes answers (none yet); it still waits for the queue.
      await new Promise((r) => setTimeout(r, 50));
      expect(screen.getByTestId(id).textContent).toBe("(nothing yet)");
      act(() => imageKept(id, kept));
      await waitFor(() => expect(screen.getByTestId(id).textContent).toBe(shows));
    },
  );

  it("shows a just-made image's answer URL at once when the queue is not keeping it here", async () => {
    const url = "http://storage.test/alice/t3.png?token=c";
    rememberFreshImage("t3", url);
    render(<Tile id="t3" />);
    await waitFor(() => expect(screen.getByTestId("t3").textContent).toBe(url));
  });
});
