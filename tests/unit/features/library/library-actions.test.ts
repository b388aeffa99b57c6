import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { dismissToast, toasts } from "#src/state/toasts.ts";

const deleteGeneration = vi.fn();
vi.mock("#src/db/library.ts", () => ({ deleteGeneration, setSaved: vi.fn(), setPublished: vi.fn() }));

const { removeGenerations } = await import("#src/features/library/library-actions.ts");
const { loadSafely } = await import("#src/features/library/load-safely.ts");

const titles = () => toasts.items.map((t) => t.title);

beforeEach(() => {
  deleteGeneration.mockReset();
});
afterEach(() => {
  for (const t of [...toasts.items]) dismissToast(t.id);
});

describe("library actions", () => {
  it("says 'Failed to delete generation' when the write fails", async () => {
    deleteGeneration.mockImplementation(async () => {
      throw new Error("QuotaExceededError");
    });
    expect(await removeGenerations("u1", ["g1"])).toBe(0);
    expect(titles()).toEqual(["Failed to delete generation"]);
  });

  it("treats a generation the device no longer holds as a failure, not a success", async () => {
    deleteGeneration.mockResolvedValue(false);
    expect(await removeGenerations("u1", ["g1"])).toBe(0);
    expect(titles()).toEqual(["Failed to delete generation"]);
  });

  it("deletes several with one 'Generation deleted' toast", async () => {
    deleteGeneration.mockResolvedValue(true);
    expect(await removeGenerations("u1", ["g1", "g2"])).toBe(2);
    expect(deleteGeneration.mock.calls).toEqual([
      ["u1", "g1"],
      ["u1", "g2"],
    ]);
    expect(titles()).toEqual(["Generation deleted"]);
  });

  it("refuses without a signed-in person", async () => {
    expect(await removeGenerations(undefined, ["g1"])).toBe(0);
    expect(deleteGeneration).not.toHaveBeenCalled();
    expect(titles()).toEqual(["User not authenticated"]);
  });

  it("turns a failed read into its message", async () => {
    expect(await loadSafely(() => Promise.reject(new Error("DatabaseClosedError: gone")))).toEqual({
      error: "DatabaseClosedError: gone",
    });
  });
});
