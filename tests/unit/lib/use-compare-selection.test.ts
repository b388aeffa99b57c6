import { act, renderHook } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { useCompareSelection } from "#src/lib/use-compare-selection.ts";

describe("a grid's selection to compare", () => {
  it("is off until started, keeps the order picked, and forgets it when stopped", () => {
    const { result } = renderHook(() => useCompareSelection());
    expect(result.current.selecting).toBe(false);
    expect(result.current.grid).toBeUndefined();
    act(() => result.current.start());
    const grid = result.current.grid;
    expect(grid?.selected.size).toBe(0);
    act(() => result.current.toggle("b"));
    act(() => result.current.toggle("a"));
    expect(result.current.ids).toEqual(["b", "a"]);
    expect([...result.current.selected]).toEqual(["b", "a"]);
    // The grid's props change with the ids (its tiles re-render), and its toggle stays the same function.
    expect(result.current.grid).not.toBe(grid);
    expect(result.current.grid?.toggle).toBe(grid?.toggle);
    act(() => result.current.toggle("b"));
    expect(result.current.ids).toEqual(["a"]);
    act(() => result.current.stop());
    expect(result.current.selecting).toBe(false);
    expect(result.current.ids).toEqual([]);
  });
});
