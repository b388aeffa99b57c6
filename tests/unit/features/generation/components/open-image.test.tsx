// Files the installed app is launched with (the manifest's file_handlers) reach the open window through
// window.launchQueue: one with a recipe fills the generator, any other image becomes the reference.
import { render, waitFor } from "@testing-library/react";
import { encode } from "fast-png";
import { afterEach, describe, expect, it, vi } from "vitest";
import { writeRecipe } from "#shared/recipe-metadata/recipe-file.ts";
import type { ImageRecipe } from "#shared/recipe-metadata/recipe.ts";
import { useImagesFromOutside, type OpenedImageHandlers } from "#src/features/generation/components/open-image.tsx";

type Consumer = (params: { files: { getFile(): Promise<File> }[] }) => void;

const recipe: ImageRecipe = {
  prompt: "A lighthouse at dusk",
  negativePrompt: "",
  style: "watercolor",
  quality: "high",
  aspectRatio: "1:1",
  width: 2,
  height: 2,
  seed: 7,
  provider: "builtin",
  model: "builtin-procedural-v1",
};

function png(): Uint8Array {
  return encode({ width: 2, height: 2, data: new Uint8Array(16).fill(200), channels: 4 });
}

function Probe({ on }: { on: OpenedImageHandlers }) {
  useImagesFromOutside(on, "");
  return null;
}

afterEach(() => {
  delete (window as unknown as { launchQueue?: unknown }).launchQueue;
});

describe("files the app is launched with", () => {
  it("fill the generator when they carry a recipe", async () => {
    let consumer: Consumer | undefined;
    (window as unknown as { launchQueue: unknown }).launchQueue = { setConsumer: (c: Consumer) => (consumer = c) };
    const on = { remix: vi.fn(), reference: vi.fn() };
    render(<Probe on={on} />);
    const bytes = writeRecipe(png(), recipe)!;
    const file = new File([bytes as Uint8Array<ArrayBuffer>], "lighthouse.png", { type: "image/png" });
    consumer!({ files: [{ getFile: async () => file }] });
    await waitFor(() => expect(on.remix).toHaveBeenCalledTimes(1));
    expect(on.remix.mock.calls[0][0]).toMatchObject({ prompt: "A lighthouse at dusk", seed: 7, style: "watercolor" });
    expect(on.reference).not.toHaveBeenCalled();
  });

  it("are ignored when the launch carries none", () => {
    let consumer: Consumer | undefined;
    (window as unknown as { launchQueue: unknown }).launchQueue = { setConsumer: (c: Consumer) => (consumer = c) };
    const on = { remix: vi.fn(), reference: vi.fn() };
    render(<Probe on={on} />);
    consumer!({ files: [] });
    expect(on.remix).not.toHaveBeenCalled();
    expect(on.reference).not.toHaveBeenCalled();
  });
});
