import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { strFromU8, unzipSync } from "fflate";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "#src/db/db.ts";
import { toasts } from "#src/state/toasts.ts";
import { renderAt } from "../../../support/render-at.tsx";
import { signedInDevice } from "../../../support/signed-in.ts";
import { row, seed } from "./seed.ts";

// Dexie copies records for its cache except for the platform's own types, which it reads from the
// global scope once; jsdom's Blob cannot cross fake-indexeddb, so Node's (which, like the
// browser's, can) stands in as the page's Blob from the start.
await vi.hoisted(async () => {
  const { Blob: NodeBlob } = await import("node:buffer");
  globalThis.Blob = NodeBlob as unknown as typeof Blob;
});

const saved: { blob: Blob; name: string }[] = [];
vi.mock("#src/lib/image-export.ts", async (importOriginal) => ({
  ...(await importOriginal<typeof import("#src/lib/image-export.ts")>()),
  saveBlob: (blob: Blob, name: string) => saved.push({ blob, name }),
}));
vi.mock("#src/api/library.ts", () => ({
  SIGNED_URL_SECONDS: 3600,
  signedImageUrl: vi.fn(async () => ({ ok: false, error: { message: "offline" } })),
}));

const { default: SavedPage } = await import("#src/features/library/saved-page.tsx");

const png = (bytes: number[]) => new Blob([new Uint8Array(bytes)], { type: "image/png" });

beforeAll(() => {
  URL.createObjectURL = () => "blob:test";
  URL.revokeObjectURL = () => undefined;
});
signedInDevice({ clearToasts: true });
beforeEach(() => {
  saved.length = 0;
});

const renderPage = () => renderAt("/my-generations", <SavedPage />);

async function blobBytes(blob: Blob): Promise<Uint8Array> {
  return new Uint8Array(await blob.arrayBuffer());
}

describe("saved page", () => {
  it("lists only saved generations", async () => {
    await seed([row({ prompt: "kept fox", is_saved: true }), row({ prompt: "not kept", is_saved: false })]);
    renderPage();
    const list = await screen.findByRole("list", { name: "Saved generations" });
    expect(
      within(list)
        .getAllByRole("button")
        .map((b) => b.getAttribute("aria-label")),
    ).toEqual(["Open: kept fox"]);
  });

  it("downloads the selected images and their settings as one zip", async () => {
    const a = row({ prompt: "red fox, in snow", is_saved: true, seed: 7, style: "anime" });
    const b = row({ prompt: "a lighthouse", is_saved: true, seed: null });
    const c = row({ prompt: "left out", is_saved: true });
    await seed(
      [a, b, c],
      new Map([
        [a.id, png([137, 80, 78, 71, 1])],
        [b.id, png([137, 80, 78, 71, 2])],
        [c.id, png([137, 80, 78, 71, 3])],
      ]),
    );
    renderPage();
    await userEvent.click(await screen.findByRole("checkbox", { name: "Select: red fox, in snow" }));
    await userEvent.click(screen.getByRole("checkbox", { name: "Select: a lighthouse" }));
    expect(screen.getByRole("toolbar", { name: "Selection" }).textContent).toContain("2 selected");
    await userEvent.click(screen.getByRole("button", { name: "Download zip" }));
    await waitFor(() => expect(saved).toHaveLength(1));

    expect(saved[0].name).toMatch(/^promptcanvas-saved-\d{4}-\d{2}-\d{2}\.zip$/);
    const files = unzipSync(await blobBytes(saved[0].blob));
    expect(Object.keys(files).sort()).toEqual([
      "a-lighthouse.png",
      "red-fox-in-snow.png",
      "settings.csv",
      "settings.json",
    ]);
    expect([...files["red-fox-in-snow.png"]]).toEqual([137, 80, 78, 71, 1]);
    expect([...files["a-lighthouse.png"]]).toEqual([137, 80, 78, 71, 2]);
    const settings = JSON.parse(strFromU8(files["settings.json"])) as {
      file: string;
      prompt: string;
      seed: number | null;
      style: string;
    }[];
    expect(settings.map((s) => [s.file, s.prompt, s.seed, s.style])).toEqual([
      ["a-lighthouse.png", "a lighthouse", null, "photorealistic"],
      ["red-fox-in-snow.png", "red fox, in snow", 7, "anime"],
    ]);
    const csv = strFromU8(files["settings.csv"]).split("\r\n");
    expect(csv[0]).toBe(
      "file,id,prompt,negative_prompt,style,quality,aspect_ratio,width,height,seed,provider,model,created_at",
    );
    expect(csv).toContain(
      `red-fox-in-snow.png,${a.id},"red fox, in snow",,anime,standard,1:1,1024,1024,7,builtin,procedural-v1,${a.created_at}`,
    );
  });

  it("deletes the selected items after a confirmation", async () => {
    const a = row({ prompt: "first", is_saved: true });
    const b = row({ prompt: "second", is_saved: true });
    await seed([a, b]);
    renderPage();
    await userEvent.click(await screen.findByRole("checkbox", { name: "Select: first" }));
    await userEvent.click(screen.getByRole("button", { name: "Delete" }));
    const dialog = screen.getByRole("dialog", { name: "Delete 1 generation?" });
    expect(within(dialog).getByRole("button", { name: "Cancel" })).toBe(document.activeElement);
    await userEvent.click(within(dialog).getByRole("button", { name: "Delete" }));
    await waitFor(() => expect(toasts.items.map((t) => t.title)).toContain("Generation deleted"));
    await waitFor(() => expect(screen.queryByRole("checkbox", { name: "Select: first" })).toBeNull());
    expect(await db.generations.get(a.id)).toBeUndefined();
    expect(await db.generations.get(b.id)).toBeDefined();
  });
});
