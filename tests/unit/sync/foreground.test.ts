// Foreground work (src/sync/foreground.ts): what waits for it, and what runs only while none is under way.
import { describe, expect, it } from "vitest";
import { noForeground, trackForeground, whileNoForeground } from "#src/sync/foreground.ts";

describe("whileNoForeground", () => {
  it("stops its work while foreground work is under way and starts it again once all of it has settled", async () => {
    const log: string[] = [];
    const stop = whileNoForeground(() => {
      log.push("start");
      return () => log.push("stop");
    });
    expect(log).toEqual(["start"]);
    let end1!: () => void;
    let end2!: () => void;
    const one = trackForeground(new Promise<void>((r) => (end1 = r)));
    const two = trackForeground(new Promise<void>((r) => (end2 = r)));
    expect(log).toEqual(["start", "stop"]);
    end1();
    await one;
    expect(log).toEqual(["start", "stop"]);
    end2();
    await two;
    await noForeground();
    expect(log).toEqual(["start", "stop", "start"]);
    stop();
    expect(log).toEqual(["start", "stop", "start", "stop"]);
    await trackForeground(Promise.resolve());
    expect(log).toEqual(["start", "stop", "start", "stop"]);
  });
});
