import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { GenerationWithImage } from "#src/db/queries.ts";
import { PreviewPanel } from "#src/features/generation/components/preview-panel.tsx";
import { afterFreshShown, rememberFreshImage } from "#src/sync/fresh-images.ts";

let made = 0;
const revoked: string[] = [];
beforeEach(() => {
  made = 0;
  revoked.length = 0;
  URL.createObjectURL = vi.fn(() => `blob:test/${++made}`);
  URL.revokeObjectURL = vi.fn((url: string) => void revoked.push(url));
});
afterEach(() => vi.restoreAllMocks());

function generation(n: number, patch: Partial<GenerationWithImage> = {}): GenerationWithImage {
  return {
    id: `g${n}`,
    userId: "u1",
    prompt: `picture ${n}`,
    negativePrompt: "",
    style: "watercolor",
    quality: "standard",
    aspectRatio: "16:9",
    width: 1536,
    height: 1024,
    seed: 42,
    provider: "builtin",
    model: "procedural",
    imagePath: `u1/g${n}.png`,
    isPublic: 0,
    isSaved: 0,
    createdAt: new Date(Date.UTC(2026, 10, 22, 10, 0, 60 - n)).toISOString(),
    image: new Blob([new Uint8Array([n])], { type: "image/png" }),
    ...patch,
  };
}

describe("preview panel", () => {
  it("invites to create when idle and empty", () => {
    render(<PreviewPanel progress={null} generations={[]} />);
    expect(screen.getByText("Ready to Create")).toBeTruthy();
    expect(screen.getByText("Enter a prompt and generate your first image")).toBeTruthy();
  });

  it("shows progress while a task runs, honestly about what draws", () => {
    render(<PreviewPanel progress={{ taskId: "t1", progress: 40 }} generations={[]} />);
    expect(screen.getByText("Generating Your Masterpiece")).toBeTruthy();
    expect(screen.getByText("40% Complete")).toBeTruthy();
    expect(screen.getByText(/built-in procedural renderer/)).toBeTruthy();
    expect(screen.queryByText(/AI is crafting/)).toBeNull();
    expect(screen.getByRole("progressbar").getAttribute("aria-valuenow")).toBe("40");
  });

  it("has a just-made image's keeping wait until the preview has drawn it from the answer's URL", async () => {
    rememberFreshImage("g7", "https://storage.example/g7.png");
    render(<PreviewPanel progress={null} generations={[generation(7, { image: undefined })]} />);
    const img = (await screen.findByRole("img", { name: "picture 7" })) as HTMLImageElement;
    expect(img.src).toBe("https://storage.example/g7.png");
    let kept = false;
    void afterFreshShown("g7", 60_000).then(() => (kept = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(kept).toBe(false);
    fireEvent.load(img);
    await waitFor(() => expect(kept).toBe(true));
  });

  it("shows the latest image with the prompt as alt text at its real aspect ratio, and its downloads", async () => {
    render(<PreviewPanel progress={null} generations={[generation(1)]} />);
    const region = screen.getByRole("region", { name: "Preview" });
    const img = (await within(region).findByRole("img", { name: "picture 1" })) as HTMLImageElement;
    expect(img.src).toBe("blob:test/1");
    expect(img.parentElement!.style.aspectRatio).toBe("1536 / 1024");
    expect(screen.getByText(/drawn by the built-in procedural renderer/)).toBeTruthy();
    for (const name of ["Download PNG", "Download JPG", "Download WebP"])
      expect(screen.getByRole("button", { name })).toBeTruthy();
    expect(screen.queryByText("Recent Generations")).toBeNull();
  });

  it("shows generations 2 to 5 as Recent Generations", async () => {
    const list = Array.from({ length: 6 }, (_, i) => generation(i + 1));
    render(<PreviewPanel progress={null} generations={list} />);
    expect(screen.getByText("Recent Generations")).toBeTruthy();
    const thumbs = screen.getAllByRole("button", { name: /^Show: / });
    expect(thumbs.map((b) => b.getAttribute("aria-label"))).toEqual([
      "Show: picture 2",
      "Show: picture 3",
      "Show: picture 4",
      "Show: picture 5",
    ]);
    await userEvent.click(thumbs[1]);
    expect(await screen.findByRole("img", { name: "picture 3" })).toBeTruthy();
  });

  it("revokes the object URL when the image changes", async () => {
    const { rerender } = render(<PreviewPanel progress={null} generations={[generation(1)]} />);
    await screen.findByRole("img", { name: "picture 1" });
    rerender(<PreviewPanel progress={null} generations={[generation(2), generation(1)]} />);
    await screen.findByRole("img", { name: "picture 2" });
    expect(revoked).toContain("blob:test/1");
  });
});
