// Reading a request body: within its limit it is read whole; past it, BodyTooLarge; and a body that breaks
// off (the client closed the connection mid-request) is BodyUnreadable, which the services answer 400
// without logging a server fault.
import assert from "node:assert/strict";
import { BodyTooLarge, BodyUnreadable, drainable, readBody } from "../../supabase/local/http.ts";

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

/** A request whose body is `size` bytes in 64 KiB chunks, and how many of them have been pulled so far. */
function counted(size: number) {
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(c) {
      const n = Math.min(65_536, size - pulled);
      if (n <= 0) return c.close();
      pulled += n;
      c.enqueue(new Uint8Array(n));
    },
  }, { highWaterMark: 0 });
  return { req: post(body), pulled: () => pulled };
}

Deno.test("a refusal that never read the body, or stopped partway, drains it up to the cap", async () => {
  const unread = counted(300_000);
  const early = drainable(unread.req, 1_000_000);
  await early.drain(413);
  assert.equal(unread.pulled(), 300_000);

  const partway = counted(300_000);
  const tooLarge = drainable(partway.req, 1_000_000);
  await assert.rejects(readBody(tooLarge.req, 100_000), BodyTooLarge);
  await tooLarge.drain(413);
  assert.equal(partway.pulled(), 300_000);

  const huge = counted(5_000_000);
  const capped = drainable(huge.req, 1_000_000);
  await capped.drain(413);
  assert.ok(huge.pulled() >= 1_000_000 && huge.pulled() < 1_100_000, String(huge.pulled()));
});

Deno.test("a body the route reads whole, or streams into its answer, is left to it", async () => {
  const whole = counted(200_000);
  const read = drainable(whole.req, 1_000_000);
  assert.equal((await readBody(read.req, 1_000_000)).byteLength, 200_000);
  await read.drain(200);
  assert.equal(whole.pulled(), 200_000);

  const streamed = counted(200_000);
  const echo = drainable(streamed.req, 1_000_000);
  const answer = new Response(echo.req.body);
  await echo.drain(200);
  assert.equal((await answer.arrayBuffer()).byteLength, 200_000);
});

/** Writes raw HTTP/1.1 to a socket and reads until `answers` refusals have arrived, the socket ends, or 5 s pass. */
async function exchange(port: number, wire: Uint8Array[], answers: number): Promise<string> {
  const conn = await Deno.connect({ port, hostname: "127.0.0.1" });
  let open = true;
  // A server that neither reads the rest nor answers would hold the exchange forever: it fails instead.
  const deadline = setTimeout(() => (open = false, conn.close()), 5_000);
  const writing = (async () => {
    try {
      for (const part of wire) for (let off = 0; off < part.byteLength;) off += await conn.write(part.subarray(off));
    } catch {
      // The server closed the connection: what it answered is still read below.
    }
  })();
  let got = "";
  const buf = new Uint8Array(65_536);
  while ((got.match(/refused/g) ?? []).length < answers) {
    const n = await conn.read(buf).catch(() => null);
    if (n === null) break;
    got += new TextDecoder().decode(buf.subarray(0, n));
  }
  clearTimeout(deadline);
  if (open) conn.close();
  await writing;
  return got;
}

Deno.test("a large body refused before it is read still gets its answer, and the connection stays open", async () => {
  const size = 4_000_000;
  const server = Deno.serve({ port: 0, onListen() {} }, async (req) => {
    const request = drainable(req, 8_000_000);
    const res = new Response("refused", { status: 413 });
    await request.drain(res.status);
    return res;
  });
  const head = (n: number) =>
    new TextEncoder().encode(`POST /rest/v1/items HTTP/1.1\r\nhost: local.test\r\ncontent-length: ${n}\r\n\r\n`);
  const got = await exchange(server.addr.port, [head(size), new Uint8Array(size), head(5), new Uint8Array(5)], 2);
  await server.shutdown();
  assert.equal((got.match(/HTTP\/1\.1 413/g) ?? []).length, 2, got.slice(0, 300));
});
