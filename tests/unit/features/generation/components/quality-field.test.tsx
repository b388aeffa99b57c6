// The quality field promises no AI model: its cards say how much detail each level asks for, and the line
// under them says what quality changes on the engine that will draw (the Engine field's choice, else the
// deployment's default, as this device last heard it), or that it depends on the engine while none is known.
import { cleanup, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "#src/db/db.ts";
import { saveEngines } from "#src/db/engines.ts";
import { GeneratorForm } from "#src/features/generation/components/generator-form.tsx";
import { initialSettings, type GeneratorSettings } from "#src/features/generation/components/generator-settings.ts";
import { QualityField } from "#src/features/generation/components/setting-fields.tsx";

/** A run state that stays as given (the generator's comes from its queue). */
const runState = (active: boolean) => ({ active: () => active, subscribe: () => () => undefined });

beforeEach(async () => {
  await db.meta.clear();
  // The engine list is refreshed from the health function once per page; here it stays what the device holds.
  vi.spyOn(globalThis, "fetch").mockRejectedValue(new TypeError("offline"));
  vi.spyOn(console, "warn").mockImplementation(() => undefined);
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const qualityGroup = () => screen.getByRole("radiogroup", { name: "Quality" });

describe("the quality field", () => {
  it("never names an AI model on its cards", () => {
    render(<QualityField value="standard" onChange={() => undefined} engine="builtin" />);
    const text = qualityGroup().textContent ?? "";
    expect(text).toContain("Standard detail");
    expect(text).toContain("More detail");
    expect(text).toContain("Most detail");
    expect(text).not.toMatch(/AI/);
  });

  it("says the built-in renderer is no AI model and draws the same scene finer", () => {
    render(<QualityField value="high" onChange={() => undefined} engine="builtin" />);
    expect(document.body.textContent).toContain("The built-in procedural renderer (not an AI model)");
    expect(document.body.textContent).toContain("draws the same scene at every quality");
  });

  it.each([
    ["replicate", "FLUX Schnell at Standard, FLUX Dev at High and FLUX 1.1 Pro at Ultra"],
    ["runware", "FLUX Schnell at Standard and FLUX Dev at High and Ultra"],
    ["openai", "draws the same way at every quality"],
    ["gemini", "draws the same way at every quality"],
    ["comfyui", "more sampling steps"],
  ])("says what quality changes on %s", (engine, words) => {
    render(<QualityField value="standard" onChange={() => undefined} engine={engine} />);
    expect(document.body.textContent).toContain(words);
  });

  it("says it depends on the engine while no engine is known", () => {
    render(<QualityField value="standard" onChange={() => undefined} engine={null} />);
    expect(document.body.textContent).toContain("What quality changes depends on the engine that draws");
  });
});

function Form() {
  const [settings, setSettings] = useState<GeneratorSettings>(initialSettings());
  return (
    <GeneratorForm
      settings={settings}
      update={(k, v) => setSettings((s) => ({ ...s, [k]: v }))}
      onReset={() => setSettings(initialSettings())}
      onGenerate={() => undefined}
      run={runState(false)}
      submitting={false}
      notice={null}
      concurrency={2}
      onConcurrency={() => undefined}
    />
  );
}

describe("the generator's quality words follow the engine that will draw", () => {
  it("describes the deployment's default, then the engine the person picks", async () => {
    await saveEngines(db, {
      available: ["replicate", "builtin"],
      default: "replicate",
      checkedAt: "2026-11-26T10:00:00.000Z",
    });
    render(<Form />);
    expect(await screen.findByText(/^Replicate draws with FLUX Schnell/)).toBeTruthy();
    await userEvent.selectOptions(screen.getByRole("combobox", { name: "Engine" }), "builtin");
    expect(await screen.findByText(/^The built-in procedural renderer \(not an AI model\)/)).toBeTruthy();
    expect(screen.queryByText(/^Replicate draws with/)).toBeNull();
  });

  it("describes the built-in renderer where it is the only engine", async () => {
    await saveEngines(db, { available: ["builtin"], default: "builtin", checkedAt: "2026-11-26T10:00:00.000Z" });
    render(<Form />);
    expect(await screen.findByText(/^The built-in procedural renderer \(not an AI model\)/)).toBeTruthy();
    expect(within(qualityGroup()).queryByText(/AI model/)).toBeNull();
  });
});
