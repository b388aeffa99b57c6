// The local functions host's wall clock over a streamed answer (supabase/local/functions/functions.ts):
// as on the hosted platform, a function's time includes the body it streams after its headers.
import assert from "node:assert/strict";
import { withinWallClock } from "../../supabase/local/functions/functions.ts";

function eventStream(parts: { text: string; afterMs: number }[]): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      for (const part of parts) {
        await new Promise((r) => setTimeout(r, part.afterMs));
        controller.enqueue(encoder.encode(part.text));
      }
      controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } });
}

/** A stream that says "drawn" at once and "answer" `afterMs` later. */
const drawnThenAnswer = (afterMs: number) =>
  eventStream([{ text: "event: drawn\ndata: {}\n\n", afterMs: 0 }, { text: "event: answer\ndata: 1\n\n", afterMs }]);

Deno.test("a stream that ends within the wall clock passes through whole, status and headers kept", async () => {
  const res = withinWallClock(drawnThenAnswer(10), 1_000);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-type"), "text/event-stream");
  assert.equal(await res.text(), "event: drawn\ndata: {}\n\nevent: answer\ndata: 1\n\n");
});

Deno.test("a stream still going when the wall clock runs out is cut off: the reader sees it break", async () => {
  const res = withinWallClock(drawnThenAnswer(300), 50);
  const reader = res.body!.getReader();
  const first = await reader.read();
  assert.equal(new TextDecoder().decode(first.value), "event: drawn\ndata: {}\n\n");
  await assert.rejects(reader.read(), /wall-clock limit/);
  // The cut-off source's timer finishes on its own; wait for it so no timer outlives the test.
  await new Promise((r) => setTimeout(r, 300));
});
