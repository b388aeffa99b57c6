import assert from "node:assert/strict";
import { createOpenAiProvider } from "../../../../supabase/functions/_shared/providers/openai.ts";
import { sniffImage } from "../../../../supabase/functions/_shared/image/sniff.ts";
import { type OpenAiMode, startOpenAiFake } from "../../fakes/openai-fake.ts";
import { expiredFileFails, testFailures } from "../../fakes/provider-cases.ts";
import { assertPng, failureOf, generateAndClose, generateOk, withFake } from "../../fakes/provider-run.ts";
import { providerInput } from "../../fakes/provider-input.ts";
import { ASPECT_RATIOS } from "../../../../supabase/functions/_shared/vocabulary/generation.ts";

function setup(mode: OpenAiMode = "ok", opts: { model?: string; apiKey?: string } = {}) {
  const fake = startOpenAiFake(mode);
  const provider = createOpenAiProvider({
    apiKey: opts.apiKey ?? fake.apiKey,
    baseUrl: `${fake.url}/v1`,
    model: opts.model ?? "dall-e-3",
    fetch,
  });
  return { fake, provider };
}

Deno.test(
  "asks for one image of 1024x1024 for square and 1792x1024 for any other ratio, and downloads its url",
  async () => {
    const { fake, provider } = setup();
    try {
      for (const aspectRatio of ASPECT_RATIOS) {
        const r = await generateOk(provider, providerInput({ aspectRatio }));
        assert.equal(r.value.seed, null);
        assert.equal(r.value.model, "dall-e-3");
        assert.equal(sniffImage(r.value.bytes)?.width, aspectRatio === "1:1" ? 1024 : 1792);
      }
      const posts = fake.received.filter((q) => q.method === "POST");
      assert.deepEqual(
        posts.map((p) => p.body),
        ["1024x1024", "1792x1024", "1792x1024"].map((size) => ({
          model: "dall-e-3",
          prompt: "a lighthouse at dusk, photorealistic style",
          n: 1,
          size,
        })),
      );
      assert.equal(posts[0].path, "/v1/images/generations");
      assert.equal(posts[0].headers.get("authorization"), `Bearer ${fake.apiKey}`);
    } finally {
      await fake.close();
    }
  },
);

Deno.test("a GPT image model answers b64_json and gets its own landscape size", async () => {
  await withFake(setup("ok", { model: "gpt-image-1" }), async ({ fake, provider }) => {
    const r = await generateOk(provider, providerInput({ aspectRatio: "16:9" }));
    assertPng(r.value.bytes, 1536, 1024);
    assert.equal((fake.received[0].body as { size: string }).size, "1536x1024");
  });
});

testFailures(
  (mode, code) => `the ${mode} answer is ${code}`,
  setup,
  [
    ["nsfw_content", false, ["content_policy", "moderation_blocked"]],
    ["insufficient_credits", false, ["billing_limit", "insufficient_quota"]],
    ["rate_limit", true, ["rate_limited"]],
    ["server_error", true, ["server_error", "overloaded"]],
  ],
  (error, mode) => {
    if (mode === "rate_limited") assert.equal(error.retryAfter, 20);
  },
);

Deno.test("an incorrect API key is our misconfiguration: server_error, not auth_required", async () => {
  failureOf(await generateAndClose(setup("ok", { apiKey: "sk-wrong" })), "server_error", false);
});

Deno.test("a url that expired before the download is a retryable server_error", async () => {
  await expiredFileFails(setup());
});

Deno.test(
  "the fake enforces the images API: sizes per model, n=1 for dall-e-3, no dall-e-3 edits, x-request-id",
  async () => {
    const fake = startOpenAiFake();
    const auth = { Authorization: `Bearer ${fake.apiKey}` };
    try {
      const bad = await fetch(`${fake.url}/v1/images/generations`, {
        method: "POST",
        headers: { ...auth, "Content-Type": "application/json" },
        body: JSON.stringify({ model: "dall-e-3", prompt: "x", n: 2, size: "1024x1024" }),
      });
      assert.equal(bad.status, 400);
      assert.ok(bad.headers.get("x-request-id"));
      assert.equal((await bad.json()).error.param, "n");
      /** An edit of a one-byte PNG sent as `field` to `model`. */
      const edit = (model: string, field: string) => {
        const form = new FormData();
        form.set("model", model);
        form.set("prompt", "x");
        form.append(field, new Blob([new Uint8Array([1])], { type: "image/png" }), "a.png");
        return fetch(`${fake.url}/v1/images/edits`, { method: "POST", headers: auth, body: form });
      };
      const refused = await edit("dall-e-3", "image");
      assert.equal(refused.status, 400);
      assert.equal((await refused.json()).error.param, "model");
      const edit2 = await edit("gpt-image-1", "image[]");
      assert.equal(edit2.status, 200);
      assert.ok((await edit2.json()).data[0].b64_json);
    } finally {
      await fake.close();
    }
  },
);
