// The generate-image call's answer as the function streams it to a caller that listens for `drawn`
// (supabase/functions/generate-image/handler.ts, decision 123), read through supabase-js's shape: for a
// text/event-stream answer `functions.invoke` hands over the Response unread.
import { describe, expect, it, vi } from "vitest";
import { generateImage, type GenerateRequest, type InvokeFn } from "#src/api/generate.ts";
import { generationRow } from "../../support/records.ts";

const request: GenerateRequest = {
  requestId: "t1",
  prompt: "a lighthouse",
  negativePrompt: "",
  style: "photorealistic",
  quality: "standard",
  aspectRatio: "1:1",
  seed: null,
};

const answer = {
  generation: { ...generationRow("t1", "alice"), image_url: "https://backend.test/storage/v1/object/sign/x.png" },
  quota: { remaining: 3, daily_limit: 5, reset_at: "2026-11-26T00:00:00.000Z" },
  replayed: false,
};

/** A streamed answer whose chunks arrive one by one (each a string, split anywhere). */
function stream(chunks: string[], opts: { breakOff?: boolean } = {}): Response {
  const encoder = new TextEncoder();
  let i = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(encoder.encode(chunks[i++]));
      else if (opts.breakOff) controller.error(new TypeError("network error"));
      else controller.close();
    },
  });
  return new Response(body, { headers: { "Content-Type": "text/event-stream" } });
}

const event = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

function invokeWith(response: Response, seen: { headers?: Record<string, string> }[] = []): InvokeFn {
  return async (_name, options) => {
    seen.push({ headers: options.headers });
    return { data: response, error: null };
  };
}

describe("generateImage, streamed", () => {
  it("asks for events only when the caller listens, hears drawn before the answer, and answers it", async () => {
    const order: string[] = [];
    const seen: { headers?: Record<string, string> }[] = [];
    const whole = event("drawn", {}) + event("timing", "provider;dur=200, total;dur=230") + event("answer", answer);
    // Split mid-event and mid-line: the reader must join chunks.
    const chunks = [whole.slice(0, 7), whole.slice(7, 30), whole.slice(30)];
    const result = await generateImage(request, invokeWith(stream(chunks), seen), {
      onDrawn: () => order.push("drawn"),
    });
    order.push("answered");
    expect(seen[0].headers?.Accept).toBe("text/event-stream");
    expect(order).toEqual(["drawn", "answered"]);
    expect(result).toEqual({ ok: true, value: answer });
  });

  it("reads the stream to its end after the answer instead of cancelling it (no aborted request)", async () => {
    let cancelled = false;
    let closedRead = false;
    const encoder = new TextEncoder();
    const parts = [event("drawn", {}) + event("timing", "total;dur=1") + event("answer", answer)];
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = parts.shift();
        if (next !== undefined) controller.enqueue(encoder.encode(next));
        else {
          // The close comes a moment after the last event, as it does over a network.
          await new Promise((resolve) => setTimeout(resolve, 20));
          if (cancelled) return;
          closedRead = true;
          controller.close();
        }
      },
      cancel() {
        cancelled = true;
      },
    });
    const response = new Response(body, { headers: { "Content-Type": "text/event-stream" } });
    const result = await generateImage(request, invokeWith(response), { onDrawn: () => undefined });
    expect(result).toEqual({ ok: true, value: answer });
    await vi.waitFor(() => expect(closedRead).toBe(true));
    expect(cancelled).toBe(false);
  });

  it("cancels a stream that stays open after its answer, once the drain's wait is over", async () => {
    vi.useFakeTimers();
    try {
      let cancelled = false;
      const encoder = new TextEncoder();
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(encoder.encode(event("drawn", {}) + event("answer", answer)));
        },
        cancel() {
          cancelled = true;
        },
      });
      const response = new Response(body, { headers: { "Content-Type": "text/event-stream" } });
      const result = await generateImage(request, invokeWith(response), { onDrawn: () => undefined });
      expect(result.ok).toBe(true);
      expect(cancelled).toBe(false);
      await vi.advanceTimersByTimeAsync(5_000);
      expect(cancelled).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it("turns an error event into the catalogue's error with the server's code and wait", async () => {
    const body = { error: { code: "rate_limit", message: "slow down", retryable: true, retry_after: 3 }, status: 429 };
    const result = await generateImage(request, invokeWith(stream([event("drawn", {}), event("error", body)])), {
      onDrawn: () => undefined,
    });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe("rate_limit");
      expect(result.error.retryAfterMs).toBe(3000);
    }
  });

  it("calls a stream that ends or breaks before its answer a network error (the send is made again)", async () => {
    for (const response of [stream([event("drawn", {})]), stream([event("drawn", {})], { breakOff: true })]) {
      const result = await generateImage(request, invokeWith(response), { onDrawn: () => undefined });
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error.code).toBe("network_error");
    }
  });

  it("without a listener sends no Accept header and reads a plain answer", async () => {
    const seen: { name: string; headers?: Record<string, string> }[] = [];
    const result = await generateImage(request, async (name, options) => {
      seen.push({ name, headers: options.headers });
      return { data: answer, error: null };
    });
    expect(seen[0].headers?.Accept).toBeUndefined();
    expect(result).toEqual({ ok: true, value: answer });
  });
});
