// Bare sends of a batch to generate-image, as a client that costs next to nothing makes them: this Node
// process, or a blank page in Chromium through page.evaluate (bench/sends-floor-bench.mjs,
// bench/client-cost-bench.mjs).
// The functions handed to page.evaluate run in the browser, where these exist.
/* global document */
import { json, moveToTier } from "./app.mjs";

const PASSWORD = "correct-horse-battery";

/** A new account on the pro tier (the free tier's 5 a day would cut the batches short); its headers. */
export async function proUser(app, secret, name = "floor") {
  const email = `${name}-${Date.now().toString(36)}@example.com`;
  const headers = { apikey: app.anonKey, "Content-Type": "application/json" };
  const credentials = JSON.stringify({ email, password: PASSWORD });
  await json(await fetch(`${app.api}/auth/v1/signup`, { method: "POST", headers, body: credentials }));
  return { ...(await moveToTier(app, secret, email, PASSWORD, "pro")), "x-timezone": "UTC" };
}

/**
 * A batch of `count` sends in `concurrency` lanes; answers its wall time (to the last image kept or
 * shown) and the sum of the function's render steps. Self-contained, so it runs as it is in Node and,
 * through page.evaluate, in the page: `inPage` shows each image in an <img> and waits for its decode.
 */
export async function runBatch({ api, headers, concurrency, count, streamed, label, inPage }) {
  const providerMs = (timing) => Number(/provider;dur=([\d.]+)/.exec(timing ?? "")?.[1] ?? NaN);
  /** Keeps the image: its bytes as streamed (a Blob), else fetched from `url`. */
  const keep = async (url, image) => {
    if (!inPage) {
      if (!image) await (await fetch(url)).arrayBuffer();
      return;
    }
    const img = document.createElement("img");
    img.width = 256;
    img.height = 256;
    img.alt = "";
    const local = image && URL.createObjectURL(image);
    img.src = local ?? url;
    await img.decode();
    document.body.replaceChildren(img);
    if (local) URL.revokeObjectURL(local);
  };
  /**
   * The events of a whole streamed answer (bytes): their data by name; an `image` event's raw bytes that
   * follow it (the generate-image function's `x-drawn-image: bytes`) as a Blob.
   */
  const eventsOf = (bytes) => {
    const events = new Map();
    const decoder = new TextDecoder();
    let at = 0;
    for (let end = bytes.indexOf(10, at); end >= 0; end = bytes.indexOf(10, end + 1)) {
      if (bytes[end + 1] !== 10) continue;
      const [head, ...data] = decoder.decode(bytes.subarray(at, end)).split("\ndata: ");
      const name = head.replace(/^event: /, "");
      at = end + 2;
      if (name === "image") {
        const { content_type: type, length } = JSON.parse(data[0]);
        events.set("image", new Blob([bytes.subarray(at, at + length)], { type }));
        at += length;
        end = at - 1;
      } else events.set(name, data.join("\n"));
    }
    return events;
  };
  /** One send: `freed` when its lane may take the next task, `done` with its render time once kept. */
  const send = (prompt) => {
    let free;
    const freed = new Promise((r) => (free = r));
    const done = (async () => {
      const res = await fetch(`${api}/functions/v1/generate-image`, {
        method: "POST",
        headers: streamed ? { ...headers, Accept: "text/event-stream", "x-drawn-image": "bytes" } : headers,
        body: JSON.stringify({ request_id: crypto.randomUUID(), prompt }),
      });
      if (!res.ok) throw new Error(`generate-image answered ${res.status}: ${await res.text()}`);
      let answer;
      let image;
      let timing = res.headers.get("server-timing");
      if ((res.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
        const reader = res.body.getReader();
        const chunks = [];
        let size = 0;
        for (;;) {
          const { done: ended, value } = await reader.read();
          if (ended) break;
          // `drawn` comes first, alone: the lane may send its next task.
          if (chunks.length === 0) free();
          chunks.push(value);
          size += value.length;
        }
        const bytes = new Uint8Array(size);
        chunks.reduce((offset, chunk) => (bytes.set(chunk, offset), offset + chunk.length), 0);
        const events = eventsOf(bytes);
        timing = JSON.parse(events.get("timing") ?? "null");
        if (!events.has("answer")) throw new Error(`the stream ended without an answer (${size} bytes)`);
        answer = JSON.parse(events.get("answer"));
        image = events.get("image");
      } else answer = await res.json();
      free();
      await keep(answer.generation.image_url, image);
      return providerMs(timing);
    })();
    done.catch(() => free());
    return { freed, done };
  };
  const start = performance.now();
  const all = [];
  await Promise.all(
    Array.from({ length: concurrency }, async (_, lane) => {
      for (let i = lane; i < count; i += concurrency) {
        const one = send(`${label} ${i + 1}, a red fox in the snow`);
        all.push(one.done);
        await one.freed;
      }
    }),
  );
  const renders = await Promise.all(all);
  return { wall: performance.now() - start, render: renders.reduce((a, b) => a + b, 0) };
}
