import { useState } from "react";
import { act, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { VALIDATION_MESSAGES } from "#shared/vocabulary/errors.ts";
import { GeneratorForm, type FormNotice } from "#src/features/generation/components/generator-form.tsx";
import type { RunState } from "#src/features/generation/use-generation.ts";
import { initialSettings, type GeneratorSettings } from "#src/features/generation/components/generator-settings.ts";

/** A run state that stays as given (the generator's comes from its queue). */
const runState = (active: boolean) => ({ active: () => active, subscribe: () => () => undefined });

function Harness(props: {
  running?: boolean;
  run?: RunState;
  notice?: FormNotice | null;
  onGenerate?: (s: GeneratorSettings) => void;
  start?: Partial<GeneratorSettings>;
  defaultsReady?: boolean;
}) {
  const [settings, setSettings] = useState<GeneratorSettings>({ ...initialSettings(), ...props.start });
  const [concurrency, setConcurrency] = useState(2);
  return (
    <GeneratorForm
      settings={settings}
      update={(k, v) => setSettings((s) => ({ ...s, [k]: v }))}
      onReset={() => setSettings(initialSettings())}
      onGenerate={() => props.onGenerate?.(settings)}
      run={props.run ?? runState(props.running ?? false)}
      submitting={false}
      notice={props.notice ?? null}
      defaultsReady={props.defaultsReady}
      concurrency={concurrency}
      onConcurrency={setConcurrency}
    />
  );
}

const generateButton = () => screen.getByRole("button", { name: /^(Generate|Queue)/ }) as HTMLButtonElement;

describe("generator form", () => {
  it("disables Generate with a blank prompt and says why once the prompt was edited", async () => {
    render(<Harness />);
    expect(generateButton().disabled).toBe(true);
    await userEvent.type(await screen.findByLabelText("Prompt"), "   ");
    expect(generateButton().disabled).toBe(true);
    expect(screen.getByText(VALIDATION_MESSAGES.promptRequired)).toBeTruthy();
    await userEvent.type(screen.getByLabelText("Prompt"), "a red fox");
    expect(generateButton().disabled).toBe(false);
    // The counter counts what is sent: the prompt trimmed, so the leading spaces are not counted.
    expect(screen.getByText("491 characters left")).toBeTruthy();
  });

  it("follows a run's start and end on Generate, as the queue says them", async () => {
    let active = false;
    const listeners = new Set<() => void>();
    const run: RunState = {
      active: () => active,
      subscribe: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    };
    const flip = (to: boolean) =>
      act(() => {
        active = to;
        listeners.forEach((l) => l());
      });
    const onGenerate = vi.fn();
    render(<Harness run={run} onGenerate={onGenerate} start={{ prompt: "a cat" }} />);
    expect(generateButton().getAttribute("aria-disabled")).toBeNull();
    flip(true);
    expect(generateButton().getAttribute("aria-disabled")).toBe("true");
    await userEvent.click(generateButton());
    expect(onGenerate).not.toHaveBeenCalled();
    flip(false);
    expect(generateButton().getAttribute("aria-disabled")).toBeNull();
    await userEvent.click(generateButton());
    expect(onGenerate).toHaveBeenCalledTimes(1);
  });

  it("disables Generate while a generation runs (still focusable), but not the batch queue", async () => {
    const onGenerate = vi.fn();
    render(<Harness running onGenerate={onGenerate} start={{ prompt: "a cat" }} />);
    expect(generateButton().getAttribute("aria-disabled")).toBe("true");
    generateButton().focus();
    expect(document.activeElement).toBe(generateButton());
    await userEvent.keyboard("{Enter}");
    expect(onGenerate).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole("checkbox", { name: "Batch mode" }));
    expect(generateButton().getAttribute("aria-disabled")).toBeNull();
    expect(generateButton().disabled).toBe(false);
    expect(generateButton().textContent).toContain("Queue 4 tasks");
  });

  it("refuses a seed that is not a whole number", async () => {
    const onGenerate = vi.fn();
    render(<Harness onGenerate={onGenerate} start={{ prompt: "a cat" }} />);
    await userEvent.type(screen.getByLabelText("Seed"), "12x");
    await userEvent.click(generateButton());
    expect(onGenerate).not.toHaveBeenCalled();
    expect(screen.getByText(/The seed must be a whole number/)).toBeTruthy();
  });

  it("refuses a reference file that is not an image with the spec message", async () => {
    render(<Harness />);
    const input = screen.getByLabelText("Reference image") as HTMLInputElement;
    await userEvent.upload(input, new File(["hello"], "notes.txt", { type: "text/plain" }), { applyAccept: false });
    expect(await screen.findByText(VALIDATION_MESSAGES.notAnImage)).toBeTruthy();
  });

  it("reads an image reference as a data URL, previews it and removes it", async () => {
    render(<Harness />);
    const input = screen.getByLabelText("Reference image") as HTMLInputElement;
    await userEvent.upload(input, new File([new Uint8Array([137, 80, 78, 71])], "ref.png", { type: "image/png" }));
    const preview = (await screen.findByRole("img", { name: "Reference image: ref.png" })) as HTMLImageElement;
    expect(preview.src).toMatch(/^data:image\/png;base64,/);
    await userEvent.click(screen.getByRole("button", { name: "Remove reference image" }));
    expect(screen.queryByRole("img", { name: "Reference image: ref.png" })).toBeNull();
  });

  it("batch mode has a 1–10 slider that starts at 4", async () => {
    render(<Harness />);
    await userEvent.click(screen.getByRole("checkbox", { name: "Batch mode" }));
    const slider = screen.getByRole("slider", { name: "Batch count" }) as HTMLInputElement;
    expect([slider.min, slider.max, slider.step, slider.value]).toEqual(["1", "10", "1", "4"]);
  });

  it("shows the style picker's first 6 styles and all 27 on request", async () => {
    render(<Harness />);
    const pressed = () => screen.getAllByRole("button", { pressed: true });
    expect(screen.getByRole("button", { name: "Photorealistic" }).getAttribute("aria-pressed")).toBe("true");
    expect(screen.queryByRole("button", { name: "Nano Banana" })).toBeNull();
    await userEvent.click(screen.getByRole("button", { name: "Show all 27 styles" }));
    await userEvent.click(screen.getByRole("button", { name: "Nano Banana" }));
    expect(pressed().map((b) => b.getAttribute("aria-label"))).toEqual(["Nano Banana"]);
  });

  it("hands the settings to Generate and restores the defaults on Reset", async () => {
    const onGenerate = vi.fn();
    render(<Harness onGenerate={onGenerate} />);
    await userEvent.type(await screen.findByLabelText("Prompt"), "a lighthouse");
    await userEvent.click(screen.getByRole("radio", { name: /^Ultra/ }));
    await userEvent.click(screen.getByRole("radio", { name: /^16:9/ }));
    await userEvent.click(generateButton());
    expect(onGenerate).toHaveBeenCalledWith(
      expect.objectContaining({ prompt: "a lighthouse", quality: "ultra", aspectRatio: "16:9" }),
    );
    const input = screen.getByLabelText("Reference image") as HTMLInputElement;
    await userEvent.upload(input, new File([new Uint8Array([137, 80, 78, 71])], "ref.png", { type: "image/png" }));
    await screen.findByRole("img", { name: "Reference image: ref.png" });
    expect(input.files).toHaveLength(1);
    await userEvent.click(screen.getByRole("button", { name: "Reset" }));
    expect((screen.getByLabelText("Reference image") as HTMLInputElement).value).toBe("");
    expect(screen.queryByRole("img", { name: "Reference image: ref.png" })).toBeNull();
    expect((screen.getByLabelText("Prompt") as HTMLTextAreaElement).value).toBe("");
    expect((screen.getByRole("radio", { name: /^Standard/ }) as HTMLInputElement).checked).toBe(true);
  });

  it("refuses a picture it cannot prepare at once, dropping the previous one, and Reset clears the message", async () => {
    // jsdom decodes no image: a WebP cannot be redrawn here, so it is refused in the field, never sent.
    const onGenerate = vi.fn();
    render(<Harness onGenerate={onGenerate} start={{ prompt: "a lighthouse" }} />);
    const input = () => screen.getByLabelText("Reference image") as HTMLInputElement;
    await userEvent.upload(input(), new File([new Uint8Array([137, 80, 78, 71])], "ref.png", { type: "image/png" }));
    await screen.findByRole("img", { name: "Reference image: ref.png" });
    await userEvent.upload(input(), new File([new Uint8Array([82, 73, 70, 70])], "photo.webp", { type: "image/webp" }));
    expect((await screen.findByRole("alert")).textContent).toBe(VALIDATION_MESSAGES.notAnImage);
    expect(screen.queryByRole("img", { name: "Reference image: ref.png" })).toBeNull();
    await userEvent.click(generateButton());
    expect(onGenerate).toHaveBeenCalledWith(expect.objectContaining({ referenceImage: null }));
    await userEvent.click(screen.getByRole("button", { name: "Reset" }));
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("sets how many images of a batch are drawn at once before the batch is queued, within 1 to 4", async () => {
    render(<Harness />);
    expect(screen.queryByRole("button", { name: "Draw more images at once" })).toBeNull();
    await userEvent.click(screen.getByRole("checkbox", { name: "Batch mode" }));
    const more = screen.getByRole("button", { name: "Draw more images at once" }) as HTMLButtonElement;
    const fewer = screen.getByRole("button", { name: "Draw fewer images at once" }) as HTMLButtonElement;
    expect(screen.getByLabelText("Images drawn at once").textContent).toBe("2");
    await userEvent.click(more);
    await userEvent.click(more);
    expect(screen.getByLabelText("Images drawn at once").textContent).toBe("4");
    expect(more.disabled).toBe(true);
    for (let i = 0; i < 3; i++) await userEvent.click(fewer);
    expect(screen.getByLabelText("Images drawn at once").textContent).toBe("1");
    expect(fewer.disabled).toBe(true);
  });

  it("keeps style, quality and ratio unseen, and Generate waiting, until the saved defaults are in", async () => {
    const onGenerate = vi.fn();
    const { rerender } = render(
      <Harness defaultsReady={false} onGenerate={onGenerate} start={{ prompt: "a lighthouse" }} />,
    );
    const group = screen.getByTestId("saved-defaults");
    expect(group.className).toContain("invisible");
    expect(group.getAttribute("aria-busy")).toBe("true");
    expect(generateButton().getAttribute("aria-disabled")).toBe("true");
    await userEvent.click(generateButton());
    expect(onGenerate).not.toHaveBeenCalled();
    rerender(<Harness defaultsReady onGenerate={onGenerate} start={{ prompt: "a lighthouse" }} />);
    expect(screen.getByTestId("saved-defaults").className).not.toContain("invisible");
    await userEvent.click(generateButton());
    expect(onGenerate).toHaveBeenCalledTimes(1);
  });

  it("shows a notice with its link", () => {
    render(
      <Harness
        notice={{
          message: VALIDATION_MESSAGES.signInToGenerate,
          link: { label: "Sign in", to: "/auth?from=%2Fgenerate" },
        }}
      />,
    );
    expect(screen.getByRole("alert").textContent).toContain("Please sign in to generate images");
    expect(screen.getByRole("link", { name: "Sign in" }).getAttribute("href")).toBe("/auth?from=%2Fgenerate");
  });
});
