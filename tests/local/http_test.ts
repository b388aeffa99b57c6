// Reading a request body: within its limit it is read whole; past it, BodyTooLarge; and a body that breaks
// off (the client closed the connection mid-request) is BodyUnreadable, which the services answer 400
// without logging a server fault.
import assert from "node:assert/strict";
import { BodyTooLarge, BodyUnreadable, readBody } from "../../supabase/local/http.ts";

const post = (body: BodyInit, headers: HeadersInit = {}) =>
  new Request("http://local.test/rest/v1/items", { method: "POST", body, headers });

Deno.test("a body within the limit is read whole, and one past it is too large", async () => {
  assert.deepEqual(await readBody(post("hello"), 10), new TextEncoder().encode("hello"));
  await assert.rejects(readBody(post("x".repeat(11)), 10), BodyTooLarge);
  await assert.rejects(readBody(post("x", { "content-length": "11" }), 10), BodyTooLarge);
});

Deno.test("a body that breaks off is unreadable, not a server fault", async () => {
  const broken = new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(new Uint8Array(4));
      c.error(new Deno.errors.BadResource("Cannot read body as underlying resource unavailable"));
    },
  });
  const error = await readBody(post(broken), 1_000).then(
    () => null,
    (e) => e,
  );
  assert.ok(error instanceof BodyUnreadable, String(error));
  assert.ok(error.cause instanceof Deno.errors.BadResource);
});

Deno.test("a client that goes away mid-upload leaves the server an unreadable body", async () => {
  const { promise: seen, resolve } = Promise.withResolvers<unknown>();
  const server = Deno.serve({ port: 0, onListen() {} }, async (req) => {
    try {
      await readBody(req, 1_000_000);
      resolve(null);
      return new Response("read");
    } catch (e) {
      resolve(e);
      return new Response(null, { status: 400 });
    }
  });
  const { promise: sentSome, resolve: sent } = Promise.withResolvers<void>();
  const body = new ReadableStream<Uint8Array>({
    async start(c) {
      c.enqueue(new Uint8Array(1000));
      await new Promise((r) => setTimeout(r, 100));
      sent();
    },
  });
  const client = new AbortController();
  const request = fetch(`http://127.0.0.1:${server.addr.port}/`, {
    method: "POST",
    body,
    signal: client.signal,
    duplex: "half",
  } as RequestInit).catch(() => null);
  await sentSome;
  client.abort();
  await request;
  assert.ok((await seen) instanceof BodyUnreadable);
  await server.shutdown();
});
