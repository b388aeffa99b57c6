import assert from "node:assert/strict";
import { createGeminiProvider, DEFAULT_GEMINI_MODEL } from "../../../../supabase/functions/_shared/providers/gemini.ts";
import { type GeminiMode, startGeminiFake } from "../../fakes/gemini-fake.ts";
import { closedPortUrl, noDeadline, providerInput, referenceImage } from "../../fakes/provider-input.ts";
import { testFailures } from "../../fakes/provider-cases.ts";
import { assertPng, failureOf, generateAndClose, generateOk, timesOut, withFake } from "../../fakes/provider-run.ts";

function setup(mode: GeminiMode = "ok", opts: { apiKey?: string; model?: string } = {}) {
  const fake = startGeminiFake(mode);
  const provider = createGeminiProvider({
    apiKey: opts.apiKey ?? fake.apiKey,
    baseUrl: fake.url,
    model: opts.model ?? DEFAULT_GEMINI_MODEL,
    fetch,
  });
  return { fake, provider };
}

Deno.test("asks generateContent for text and an image, and decodes the inline PNG it answers", async () => {
  await withFake(setup(), async ({ fake, provider }) => {
    const r = await generateOk(provider, providerInput({ aspectRatio: "16:9", width: 1536, height: 1024 }));
    const [call] = fake.received;
    assert.equal(call.path, "/v1beta/models/gemini-2.5-flash-image:generateContent");
    assert.equal(call.headers.get("x-goog-api-key"), fake.apiKey);
    assert.deepEqual(call.body, {
      contents: [{ role: "user", parts: [{ text: "a lighthouse at dusk, photorealistic style" }] }],
      generationConfig: { responseModalities: ["TEXT", "IMAGE"], imageConfig: { aspectRatio: "16:9" } },
    });
    assert.equal(r.value.model, "gemini-2.5-flash-image");
    // Gemini documents no seed for images: none is sent, none is recorded.
    assert.equal(r.value.seed, null);
    assertPng(r.value.bytes, 1344, 768);
  });
});

Deno.test("the reference image goes along as inline data, and the nano-banana style adds no words", async () => {
  await withFake(setup(), async ({ fake, provider }) => {
    const reference = referenceImage("image/jpeg", "/9j/4AAQ");
    await generateOk(provider, providerInput({ style: "nano-banana", reference }));
    const parts = (fake.received[0].body as { contents: { parts: unknown[] }[] }).contents[0].parts;
    assert.deepEqual(parts, [{ text: "a lighthouse at dusk" }, {
      inlineData: { mimeType: "image/jpeg", data: "/9j/4AAQ" },
    }]);
  });
});

Deno.test("a configured model is the one asked and recorded", async () => {
  await withFake(setup("ok", { model: "gemini-3-pro-image-preview" }), async ({ fake, provider }) => {
    const r = await generateOk(provider);
    assert.equal(r.value.model, "gemini-3-pro-image-preview");
    assert.equal(fake.received[0].path, "/v1beta/models/gemini-3-pro-image-preview:generateContent");
  });
});

testFailures(
  (mode, code) => `a 200 answer with ${mode} and no image is ${code}`,
  setup,
  [
    ["nsfw_content", false, ["prompt_blocked", "image_safety"]],
    ["server_error", true, ["no_image", "text_only"]],
  ],
  (error, _, code) => {
    if (code === "server_error") assert.match(error.message, /without a picture/);
  },
);

Deno.test("429 RESOURCE_EXHAUSTED is a rate limit for its RetryInfo delay, not spent credit", async () => {
  const error = failureOf(await generateAndClose(setup("rate_limited")), "rate_limit", true);
  assert.equal(error.retryAfter, 27);
});

testFailures((mode, code) => `Google's ${mode} error is ${code}`, setup, [
  ["insufficient_credits", false, ["billing"]],
  ["server_error", false, ["permission"]],
  ["server_error", true, ["internal", "unavailable"]],
  ["timeout", true, ["deadline"]],
]);

Deno.test("a key Google refuses (400 API_KEY_INVALID) and an unknown model are our misconfiguration", async () => {
  failureOf(await generateAndClose(setup("ok", { apiKey: "wrong" })), "server_error", false);
  failureOf(await generateAndClose(setup("ok", { model: "gemini-0-image" })), "server_error", false);
});

Deno.test("a slow answer past the deadline is a timeout; an unreachable API a network_error", async () => {
  const slow = setup();
  slow.fake.mode.delayMs = 400;
  await timesOut(slow, 80);
  const provider = createGeminiProvider({
    apiKey: "k",
    baseUrl: await closedPortUrl(),
    model: DEFAULT_GEMINI_MODEL,
    fetch,
  });
  failureOf(await provider.generate(providerInput(), noDeadline), "network_error", true);
});

Deno.test("the fake answers in words only when no image is asked for, and refuses unknown ratios", async () => {
  const fake = startGeminiFake();
  const post = (generationConfig: unknown) =>
    fetch(`${fake.url}/v1beta/models/gemini-2.5-flash-image:generateContent?key=${fake.apiKey}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ contents: [{ parts: [{ text: "a cat" }] }], generationConfig }),
    });
  try {
    const words = await (await post({})).json();
    assert.equal(words.candidates[0].content.parts.some((p: object) => "inlineData" in p), false);
    const badRatio = await post({ responseModalities: ["IMAGE"], imageConfig: { aspectRatio: "7:5" } });
    assert.equal(badRatio.status, 400);
    assert.equal((await badRatio.json()).error.status, "INVALID_ARGUMENT");
  } finally {
    await fake.close();
  }
});
