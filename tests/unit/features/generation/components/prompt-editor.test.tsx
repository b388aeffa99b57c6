import { useState } from "react";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import PromptEditor from "#src/features/generation/components/prompt-editor.tsx";

function Harness({ onSubmit, canSubmit = true }: { onSubmit: () => void; canSubmit?: boolean }) {
  const [value, setValue] = useState("");
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      <PromptEditor value={value} onChange={setValue} />
      <button type="submit" disabled={!canSubmit}>
        Generate
      </button>
    </form>
  );
}

describe("prompt editor", () => {
  it("generates on Ctrl+Enter and Cmd+Enter, as the Generate button would", async () => {
    const onSubmit = vi.fn();
    render(<Harness onSubmit={onSubmit} />);
    const field = screen.getByLabelText("Prompt");
    await userEvent.type(field, "a red fishing boat");
    await userEvent.keyboard("{Control>}{Enter}{/Control}");
    expect(onSubmit).toHaveBeenCalledTimes(1);
    await userEvent.keyboard("{Meta>}{Enter}{/Meta}");
    expect(onSubmit).toHaveBeenCalledTimes(2);
    expect((field as HTMLTextAreaElement).value).toBe("a red fishing boat");
    expect(field.getAttribute("aria-keyshortcuts")).toBe("Control+Enter Meta+Enter");
  });

  it("keeps Enter and Shift+Enter for new lines, and does nothing while Generate is disabled", async () => {
    const onSubmit = vi.fn();
    const { unmount } = render(<Harness onSubmit={onSubmit} />);
    const field = screen.getByLabelText("Prompt") as HTMLTextAreaElement;
    await userEvent.type(field, "one{Enter}two{Shift>}{Enter}{/Shift}three");
    expect(field.value).toBe("one\ntwo\nthree");
    expect(onSubmit).not.toHaveBeenCalled();
    unmount();

    render(<Harness onSubmit={onSubmit} canSubmit={false} />);
    await userEvent.type(screen.getByLabelText("Prompt"), "a cat{Control>}{Enter}{/Control}");
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
