// The page's side of the worker protocol, against a port that answers as the worker does (the worker
// itself runs in Chromium: tests/e2e/upscale.spec.ts).
import { describe, expect, it } from "vitest";
import { UpscaleSession, type Port } from "../../../../src/features/upscale/upscale-client";
import type { UpscaleAnswer, UpscaleRequest } from "../../../../src/features/upscale/upscale-protocol";

class ScriptedPort extends EventTarget implements Port {
  sent: UpscaleRequest[] = [];
  terminated = false;
  postMessage(message: UpscaleRequest) {
    this.sent.push(message);
  }
  answer(data: UpscaleAnswer) {
    this.dispatchEvent(new MessageEvent("message", { data }));
  }
  terminate() {
    this.terminated = true;
  }
  onmessage = null;
  onmessageerror = null;
  onerror = null;
}

const png = new Blob([new Uint8Array([1])], { type: "image/png" });

describe("an upscale session", () => {
  it("sends the image and scale, reports the backend and progress, and resolves with the result", async () => {
    const port = new ScriptedPort();
    const session = new UpscaleSession(port);
    const seen: unknown[] = [];
    const job = session.run(png, {
      scale: 2,
      onStarted: (backend, model) => seen.push([backend, model]),
      onProgress: (done) => seen.push(done),
    });
    expect(port.sent).toEqual([{ type: "upscale", job: 1, image: png, scale: 2 }]);
    port.answer({ type: "started", job: 1, backend: "webgl", model: "medium" });
    port.answer({ type: "progress", job: 1, done: 0.5 });
    port.answer({ type: "progress", job: 2, done: 0.9 });
    port.answer({ type: "done", job: 1, image: png, width: 2, height: 2, ms: 10 });
    await expect(job.result).resolves.toEqual({
      image: png,
      width: 2,
      height: 2,
      ms: 10,
      backend: "webgl",
      model: "medium",
    });
    expect(seen).toEqual([["webgl", "medium"], 0.5]);
  });

  it("asks the worker to stop on cancel and resolves as cancelled when it has", async () => {
    const port = new ScriptedPort();
    const session = new UpscaleSession(port);
    session.run(png, { scale: 2 });
    const second = session.run(png, { scale: 4 });
    second.cancel();
    expect(port.sent.at(-1)).toEqual({ type: "cancel", job: 2 });
    port.answer({ type: "cancelled", job: 2 });
    await expect(second.result).resolves.toBe("cancelled");
  });

  it("rejects with the worker's words when the upscale failed, and ends the worker on dispose", async () => {
    const port = new ScriptedPort();
    const session = new UpscaleSession(port);
    const job = session.run(png, { scale: 4 });
    port.answer({ type: "failed", job: 1, message: "No backend" });
    await expect(job.result).rejects.toThrow("No backend");
    session.dispose();
    expect(port.terminated).toBe(true);
  });
});
