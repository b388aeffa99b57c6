import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ProgressBar, normalizeProgress } from "#src/ui/progress-bar.tsx";

describe("progress bar", () => {
  it("is indeterminate without a value, loading below the maximum and complete at it", () => {
    expect(normalizeProgress(null).state).toBe("indeterminate");
    expect(normalizeProgress(undefined).state).toBe("indeterminate");
    expect(normalizeProgress(40)).toEqual({ value: 40, max: 100, state: "loading" });
    expect(normalizeProgress(100).state).toBe("complete");
  });

  it("clamps the value to 0..max", () => {
    expect(normalizeProgress(140)).toEqual({ value: 100, max: 100, state: "complete" });
    expect(normalizeProgress(-5)).toEqual({ value: 0, max: 100, state: "loading" });
    expect(normalizeProgress(30, 20)).toEqual({ value: 20, max: 20, state: "complete" });
  });

  it("falls back to the default maximum when the maximum is not greater than 0", () => {
    expect(normalizeProgress(50, 0).max).toBe(100);
    expect(normalizeProgress(50, -10).max).toBe(100);
    expect(normalizeProgress(50, Number.NaN).max).toBe(100);
  });

  it("draws a clamped value and no value at all when indeterminate", () => {
    render(
      <>
        <ProgressBar label="Known" value={250} />
        <ProgressBar label="Unknown" />
      </>,
    );
    const known = screen.getByRole("progressbar", { name: "Known" });
    expect(known.getAttribute("aria-valuenow")).toBe("100");
    expect(known.getAttribute("aria-valuemax")).toBe("100");
    expect(known.dataset.state).toBe("complete");
    const unknown = screen.getByRole("progressbar", { name: "Unknown" });
    expect(unknown.hasAttribute("aria-valuenow")).toBe(false);
    expect(unknown.dataset.state).toBe("indeterminate");
  });

  it("fills its track by transform alone, so the compositor draws every change", () => {
    render(<ProgressBar label="Half" value={30} max={60} />);
    const bar = screen.getByRole("progressbar", { name: "Half" });
    const fill = bar.firstElementChild as HTMLElement;
    expect(fill.style.transform).toBe("scaleX(0.5)");
    expect(fill.style.width).toBe("");
    expect(fill.className).toContain("transition-transform");
  });
});
