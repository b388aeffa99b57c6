// The reference image takes exactly what Generate can send: the server decodes PNG, JPEG and GIF, so a
// picture in any other format the browser decodes (WebP here) is redrawn as a JPEG on the device, and
// one it cannot decode is refused at once with docs/spec.md §5's message.
import { afterEach, describe, expect, it, vi } from "vitest";
import { VALIDATION_MESSAGES } from "#shared/vocabulary/errors.ts";
import { prepareReference } from "#src/lib/reference-image.ts";

const file = (bytes: number[], type: string, name: string) => new File([new Uint8Array(bytes)], name, { type });
const WEBP = file([82, 73, 70, 70, 0, 0, 0, 0, 87, 69, 66, 80], "image/webp", "photo.webp");
const PNG = file([137, 80, 78, 71, 13, 10, 26, 10], "image/png", "photo.png");

function stubDecoder(decodes: boolean) {
  vi.stubGlobal("createImageBitmap", async () => {
    if (!decodes) throw new DOMException("The source image could not be decoded.", "InvalidStateError");
    return { width: 640, height: 480, close: () => {} };
  });
  vi.spyOn(HTMLCanvasElement.prototype, "getContext").mockImplementation(
    () => ({ fillRect: () => {}, drawImage: () => {}, fillStyle: "" }) as never,
  );
  vi.spyOn(HTMLCanvasElement.prototype, "toDataURL").mockImplementation(() => "data:image/jpeg;base64,REDRAWN");
}

describe("prepareReference", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it("redraws a small WebP as a JPEG, since the server reads no WebP", async () => {
    stubDecoder(true);
    expect(await prepareReference(WEBP)).toEqual({ ok: true, dataUrl: "data:image/jpeg;base64,REDRAWN" });
  });

  it("keeps a small PNG's own bytes", async () => {
    stubDecoder(true);
    const prepared = await prepareReference(PNG);
    expect(prepared.ok && prepared.dataUrl.startsWith("data:image/png;base64,")).toBe(true);
  });

  it("refuses a picture the browser cannot decode with the spec's message", async () => {
    stubDecoder(false);
    expect(await prepareReference(WEBP)).toEqual({ ok: false, message: VALIDATION_MESSAGES.notAnImage });
  });

  it("without a decoder, sends only a format the server reads and refuses the rest at once", async () => {
    vi.stubGlobal("createImageBitmap", undefined);
    expect(await prepareReference(WEBP)).toEqual({ ok: false, message: VALIDATION_MESSAGES.notAnImage });
    expect((await prepareReference(PNG)).ok).toBe(true);
  });
});
