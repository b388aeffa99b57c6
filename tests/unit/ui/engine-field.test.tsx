// The engine choice: hidden with one engine, the deployment's default first, an engine a link asked for
// that is not offered said so.
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { EngineField } from "#src/ui/engine-field.tsx";
import { applyLink, initialSettings, toRequest } from "#src/features/generation/components/generator-settings.ts";

describe("EngineField", () => {
  it("is not shown when the deployment offers one engine", () => {
    const { container } = render(
      <EngineField value="" onChange={() => undefined} engines={{ available: ["builtin"], default: "builtin" }} />,
    );
    expect(container.innerHTML).toBe("");
  });

  it("offers the default and every engine by name, and reports the choice", async () => {
    const onChange = vi.fn();
    render(
      <EngineField
        value=""
        onChange={onChange}
        engines={{ available: ["replicate", "a1111", "builtin"], default: "replicate" }}
      />,
    );
    const select = screen.getByLabelText("Engine");
    expect([...select.querySelectorAll("option")].map((o) => o.textContent)).toEqual([
      "Default (Replicate)",
      "Replicate",
      "AUTOMATIC1111 / Forge (self-hosted)",
      "Built-in renderer",
    ]);
    await userEvent.selectOptions(select, "a1111");
    expect(onChange).toHaveBeenCalledWith("a1111");
  });

  it("says so when a link asked for an engine this deployment does not offer", () => {
    render(
      <EngineField
        value="bfl"
        onChange={() => undefined}
        engines={{ available: ["fal", "builtin"], default: "fal" }}
      />,
    );
    expect(screen.getByText(/not offered here; the default draws instead/)).toBeTruthy();
  });
});

describe("the engine in the generator's request", () => {
  it("comes from a link and goes with the request; empty means the default", () => {
    const linked = applyLink(initialSettings(), { prompt: "a fox", engine: "comfyui" }, null);
    expect(toRequest(linked)).toMatchObject({ prompt: "a fox", provider: "comfyui" });
    expect(toRequest({ ...linked, provider: "" })).not.toHaveProperty("provider");
  });
});
