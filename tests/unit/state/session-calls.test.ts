import { describe, expect, it } from "vitest";
import { endingHereWhile, isEndingHere, sessionCall } from "../../../src/state/session-store";

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe("calls made with the session around a chosen end", () => {
  it("the end waits for the call in flight, and no call starts once it has begun", async () => {
    const order: string[] = [];
    const answer = deferred<string>();
    const read = sessionCall(() => (order.push("read sent"), answer.promise), "skipped");
    const ended = endingHereWhile(async () => {
      order.push("session ended");
    });
    await Promise.resolve();
    expect(isEndingHere()).toBe(true);
    // A call asked for while the end is under way is not sent: it answers its skipped value.
    let sentLate = false;
    await expect(sessionCall(async () => ((sentLate = true), "late"), "skipped")).resolves.toBe("skipped");
    expect(sentLate).toBe(false);
    expect(order).toEqual(["read sent"]);
    answer.resolve("rows");
    await expect(read).resolves.toBe("rows");
    await ended;
    expect(order).toEqual(["read sent", "session ended"]);
    expect(isEndingHere()).toBe(false);
  });

  it("a call that fails does not hold the end, and calls go out again once it is over", async () => {
    const failing = sessionCall(() => Promise.reject(new Error("offline")), "skipped");
    await expect(failing).rejects.toThrow("offline");
    let ran = false;
    await endingHereWhile(async () => void (ran = true));
    expect(ran).toBe(true);
    await expect(sessionCall(async () => "sent", "skipped")).resolves.toBe("sent");
  });
});
