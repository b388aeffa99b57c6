import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { LazyPromptEditor } from "../../../../src/features/generation/components/lazy-prompt-editor";
import { validatePrompt } from "#shared/vocabulary/prompt.ts";

afterEach(cleanup);

describe("LazyPromptEditor", () => {
  it("says 'Loading editor…' until the editor arrives", async () => {
    render(<LazyPromptEditor value="" onChange={() => undefined} />);
    expect(screen.getByRole("status").textContent).toContain("Loading editor…");
    expect(await screen.findByLabelText("Prompt")).toBeTruthy();
    expect(screen.getByText("500 characters left")).toBeTruthy();
  });

  it("takes a 500-character prompt of emoji whole and counts it as the check does", async () => {
    const prompt = "\u{1F3A8}".repeat(500); // 1,000 UTF-16 units
    render(<LazyPromptEditor value={prompt} onChange={() => undefined} />);
    const field = (await screen.findByLabelText("Prompt")) as HTMLTextAreaElement;
    expect(field.value).toBe(prompt);
    // No maxLength: the browser would count UTF-16 units and cut the prompt at 250 emoji.
    expect(field.maxLength).toBe(-1);
    expect(screen.getByText("0 characters left")).toBeTruthy();
    expect(validatePrompt(prompt)).toBeNull();
  });
});
