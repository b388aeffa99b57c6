// Bare sends of a batch to generate-image, as a client that costs next to nothing makes them: this Node
// process, or a blank page in Chromium through page.evaluate (bench/sends-floor-bench.mjs,
// bench/client-cost-bench.mjs).
// The functions handed to page.evaluate run in the browser, where these exist.
/* global document */
import { json, moveToTier } from "./app.mjs";

const PASSWORD = "correct-horse-battery";

/** What every send of a batch asks for after its label and number ("A batch 3, a red fox in the snow"). */
export const BATCH_SUBJECT = "a red fox in the snow";

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
 * `settings` (style, quality, aspect_ratio, ...) go in every send's body; without them the server's
 * defaults apply. Each send's prompt is "<label> <n>, <subject>".
 */
export async function runBatch(options) {
  const { api, headers, concurrency, count, streamed, label, inPage, settings = {} } = options;
  // BATCH_SUBJECT when not given (a function run in the page cannot read this module's constants).
  const subject = options.subject ?? "a red fox in the snow";
  const providerMs = (timing) => Number(/provider;dur=([\d.]+)/.exec(timing ?? "")?.[1] ?? NaN);
  const keep = async (url) => {
    if (!inPage) return void (await (await fetch(url)).arrayBuffer());
    const img = document.createElement("img");
    img.width = 256;
    img.height = 256;
    img.alt = "";
    img.src = url;
    await img.decode();
    document.body.replaceChildren(img);
  };
  /** One send: `freed` when its lane may take the next task, `done` with its render time once kept. */
  const send = (prompt) => {
    let free;
    const freed = new Promise((r) => (free = r));
    const done = (async () => {
      const res = await fetch(`${api}/functions/v1/generate-image`, {
        method: "POST",
        headers: streamed ? { ...headers, Accept: "text/event-stream" } : headers,
        body: JSON.stringify({ ...settings, request_id: crypto.randomUUID(), prompt }),
      });
      if (!res.ok) throw new Error(`generate-image answered ${res.status}: ${await res.text()}`);
      let answer;
      let timing = res.headers.get("server-timing");
      if ((res.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
        const reader = res.body.getReader();
        const decoder = new TextDecoder();
        let text = "";
        for (;;) {
          const { done: ended, value } = await reader.read();
          if (ended) break;
          text += decoder.decode(value, { stream: true });
          if (/^event: drawn$/m.test(text)) free();
        }
        timing = JSON.parse(/^event: timing\ndata: (.*)$/m.exec(text)?.[1] ?? "null");
        const data = /^event: (answer|error)\ndata: (.*)$/m.exec(text);
        if (data?.[1] !== "answer") throw new Error(`the stream ended without an answer: ${text.slice(-300)}`);
        answer = JSON.parse(data[2]);
      } else answer = await res.json();
      free();
      await keep(answer.generation.image_url);
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
        const one = send(`${label} ${i + 1}, ${subject}`);
        all.push(one.done);
        await one.freed;
      }
    }),
  );
  const renders = await Promise.all(all);
  return { wall: performance.now() - start, render: renders.reduce((a, b) => a + b, 0) };
}
