import { Blob as NodeBlob } from "node:buffer";
import { describe, expect, it } from "vitest";
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
