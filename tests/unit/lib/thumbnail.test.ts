import { Blob as NodeBlob } from "node:buffer";
import { afterEach, describe, expect, it, vi } from "vitest";
import { toDataUrl } from "#src/lib/thumbnail.ts";

const blob = (bytes: Uint8Array, type: string) => new NodeBlob([bytes], { type }) as unknown as Blob;

describe("thumbnail data: URLs", () => {
  it("encodes a Blob's bytes and type as base64", async () => {
    expect(await toDataUrl(blob(new Uint8Array([1, 2, 3]), "image/webp"))).toBe("data:image/webp;base64,AQID");
    expect(await toDataUrl(blob(new Uint8Array([]), ""))).toBe("data:application/octet-stream;base64,");
  });

  it("encodes bytes larger than one chunk of the encoder without loss", async () => {
    const bytes = Uint8Array.from({ length: 100_000 }, (_, i) => (i * 31) % 256);
    const url = await toDataUrl(blob(bytes, "image/webp"));
    const decoded = Buffer.from(url.slice("data:image/webp;base64,".length), "base64");
    expect(decoded.equals(Buffer.from(bytes))).toBe(true);
  });
});

describe("thumbnails off the main thread", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  it("sends the image to the thumbnail worker and answers what it makes", async () => {
    const sent: unknown[] = [];
    class FakeWorker extends EventTarget {
      postMessage(message: { id: number; image: Blob }) {
        sent.push(message.image);
        queueMicrotask(() =>
          this.dispatchEvent(
            Object.assign(new Event("message"), { data: { id: message.id, url: "data:image/webp;base64,AA" } }),
          ),
        );
      }
      terminate() {}
    }
    vi.stubGlobal("Worker", FakeWorker);
    const { makeThumbnail } = await import("#src/lib/thumbnail.ts");
    const image = blob(new Uint8Array([1]), "image/png");
    expect(await makeThumbnail(image)).toBe("data:image/webp;base64,AA");
    expect(sent).toEqual([image]);
  });

  it("makes the thumbnail in this thread when the worker fails", async () => {
    class BrokenWorker extends EventTarget {
      postMessage() {
        queueMicrotask(() => this.dispatchEvent(new Event("error")));
      }
      terminate() {}
    }
    vi.stubGlobal("Worker", BrokenWorker);
    const { makeThumbnail } = await import("#src/lib/thumbnail.ts");
    // No createImageBitmap here: made in this thread, there is no thumbnail (and nothing hangs).
    expect(await makeThumbnail(blob(new Uint8Array([1]), "image/png"))).toBeUndefined();
  });
});
