import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { LazyPromptEditor } from "../../../../src/features/generation/components/lazy-prompt-editor";
import { promptError } from "../../../../src/features/generation/components/prompt-editor";

afterEach(cleanup);

describe("LazyPromptEditor", () => {
  it("says 'Loading editor…' until the editor arrives", async () => {
    render(<LazyPromptEditor value="" onChange={() => undefined} />);
    expect(screen.getByRole("status").textContent).toContain("Loading editor…");
    expect(await screen.findByLabelText("Prompt")).toBeTruthy();
    expect(screen.getByText("500 characters left")).toBeTruthy();
  });

  it("requires a prompt after trimming", () => {
    expect(promptError("   ")).toBe("Please enter a prompt");
    expect(promptError("a cat")).toBeNull();
    expect(promptError("x".repeat(501))).toMatch(/500 characters/);
  });
});
