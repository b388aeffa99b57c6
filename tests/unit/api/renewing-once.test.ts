import { describe, expect, it, vi } from "vitest";
import { renewingOnce } from "#src/api/auth.ts";

describe("renewingOnce", () => {
  it("renews a session the server refused and runs the work once more", async () => {
    const answers = ["refused", "done"];
    const work = vi.fn(async () => answers.shift()!);
    const renew = vi.fn(async () => true);
    expect(await renewingOnce(work, (r) => r === "refused", renew)).toBe("done");
    expect(work).toHaveBeenCalledTimes(2);
    expect(renew).toHaveBeenCalledTimes(1);
  });

  it("answers the refusal when the renewal fails, and never renews twice", async () => {
    const work = vi.fn(async () => "refused");
    const failing = vi.fn(async () => false);
    expect(await renewingOnce(work, (r) => r === "refused", failing)).toBe("refused");
    expect(work).toHaveBeenCalledTimes(1);
    const renewing = vi.fn(async () => true);
    expect(await renewingOnce(work, (r) => r === "refused", renewing)).toBe("refused");
    expect(work).toHaveBeenCalledTimes(3);
    expect(renewing).toHaveBeenCalledTimes(1);
  });

  it("leaves work that was not refused alone", async () => {
    const renew = vi.fn(async () => true);
    expect(
      await renewingOnce(
        async () => "done",
        (r) => r === "refused",
        renew,
      ),
    ).toBe("done");
    expect(renew).not.toHaveBeenCalled();
  });
});
