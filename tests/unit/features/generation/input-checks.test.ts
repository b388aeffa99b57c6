// The app's own input checks before anything is queued: prompt text the database cannot store (NUL,
// lone surrogates) is refused in every place the app validates a prompt, and a reference image is
// accepted within the server's limits (4096 px a side, 16 M pixels) and refused beyond them with the
// right message, its format and size read from its bytes.
import { afterEach, describe, expect, it, vi } from "vitest";
import { VALIDATION_MESSAGES } from "#shared/vocabulary/errors.ts";
import { unstorableMessage } from "#shared/vocabulary/text.ts";
import { REFERENCE_IMAGE_MAX_PIXELS, REFERENCE_IMAGE_MAX_SIDE } from "#shared/vocabulary/generation.ts";
import { initialSettings, validateSettings } from "#src/features/generation/components/generator-settings.ts";
import { validateSettings as validateQueued } from "#src/features/generation/use-generation.ts";
import { prepareReference, referenceSizeError } from "#src/lib/reference-image.ts";

const NUL = "a fox\u0000 in snow";
const LONE = "a fox \ud83e in snow";

describe("prompt text the database cannot store", () => {
  it("is refused by the generator's settings check, for the prompt and the negative prompt", () => {
    const base = initialSettings();
    expect(validateSettings({ ...base, prompt: NUL }).prompt).toBe(unstorableMessage("The prompt"));
    expect(validateSettings({ ...base, prompt: "a cat", negativePrompt: "\udc00" }).negativePrompt).toBe(
      unstorableMessage("The negative prompt"),
    );
    expect(validateSettings({ ...base, prompt: "a cat \u{1F431}", negativePrompt: "\u{1F600}" })).toEqual({});
  });

  it("is refused before a task is queued", () => {
    const s = {
      prompt: "a cat",
      negativePrompt: "",
      style: "photorealistic",
      quality: "standard",
      aspectRatio: "1:1",
      seed: null,
    } as Parameters<typeof validateQueued>[0];
    expect(validateQueued(s)).toBeNull();
    expect(validateQueued({ ...s, prompt: LONE })).toBe(unstorableMessage("The prompt"));
    expect(validateQueued({ ...s, prompt: "\u0000" })).toBe(unstorableMessage("The prompt"));
    expect(validateQueued({ ...s, negativePrompt: "blur\u0000" })).toBe(unstorableMessage("The negative prompt"));
  });
});

const file = (bytes: Uint8Array, type: string, name = "photo.jpg") =>
  new File([bytes as Uint8Array<ArrayBuffer>], name, { type });

/** A canvas that records what is drawn on it and exports a fixed JPEG data URL. */
function stubCanvas() {
  const drawn: number[][] = [];
  const getContext = vi.spyOn(HTMLCanvasElement.prototype, "getContext").mockImplementation(
    () =>
      ({
        fillRect: () => {},
        drawImage: (...a: unknown[]) => drawn.push(a.slice(1) as number[]),
        fillStyle: "",
      }) as never,
  );
  const toDataURL = vi
    .spyOn(HTMLCanvasElement.prototype, "toDataURL")
    .mockImplementation(() => "data:image/jpeg;base64,AAAA");
  return {
    drawn,
    restore: () => {
      getContext.mockRestore();
      toDataURL.mockRestore();
    },
  };
}

describe("reference image limits", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("states the server's limits: 4096 px a side and 16 M pixels", () => {
    expect(referenceSizeError(REFERENCE_IMAGE_MAX_SIDE, 3900)).toBeNull();
    expect(referenceSizeError(4000, 4000)).toBeNull();
    expect(referenceSizeError(4000, 3000)).toBeNull(); // 12 MP
    expect(referenceSizeError(REFERENCE_IMAGE_MAX_SIDE + 1, 100)).toBe(VALIDATION_MESSAGES.referenceTooLarge);
    expect(referenceSizeError(4096, 4000)).toBe(VALIDATION_MESSAGES.referenceTooLarge);
    expect(4096 * 4000).toBeGreaterThan(REFERENCE_IMAGE_MAX_PIXELS);
    expect(VALIDATION_MESSAGES.referenceTooLarge).toMatch(/4096 pixels on a side and 16 million pixels/);
  });

  it("accepts a 16 MP picture, and refuses a larger one with the size message, not 'not an image'", async () => {
    vi.stubGlobal("createImageBitmap", async () => ({ width: 4096, height: 3900, close: () => {} }));
    const canvas = stubCanvas();
    try {
      const big = file(new Uint8Array(3_000_000), "image/jpeg");
      expect(await prepareReference(big)).toMatchObject({ ok: true });
      for (const [width, height] of [
        [5000, 3000],
        [4096, 4096],
      ]) {
        vi.stubGlobal("createImageBitmap", async () => ({ width, height, close: () => {} }));
        expect(await prepareReference(big)).toEqual({ ok: false, message: VALIDATION_MESSAGES.referenceTooLarge });
        expect(await prepareReference(big, { alwaysRedraw: true })).toEqual({
          ok: false,
          message: VALIDATION_MESSAGES.referenceTooLarge,
        });
      }
      expect(await prepareReference(file(new TextEncoder().encode("%PDF-1.7"), "application/pdf"))).toEqual({
        ok: false,
        message: VALIDATION_MESSAGES.notAnImage,
      });
    } finally {
      canvas.restore();
    }
  });

  it("shrinks a large picture within the limits to 1024 px a side instead of refusing it", async () => {
    vi.stubGlobal("createImageBitmap", async () => ({ width: 4000, height: 3000, close: () => {} }));
    const canvas = stubCanvas();
    try {
      const big = file(new Uint8Array(3_000_000), "image/jpeg");
      expect(await prepareReference(big)).toEqual({ ok: true, dataUrl: "data:image/jpeg;base64,AAAA" });
      expect(canvas.drawn).toEqual([[0, 0, 1024, 768]]);
      expect(await prepareReference(big, { alwaysRedraw: true })).toEqual({
        ok: true,
        dataUrl: "data:image/jpeg;base64,AAAA",
      });
    } finally {
      canvas.restore();
    }
  });
});
