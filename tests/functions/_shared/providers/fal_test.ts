import assert from "node:assert/strict";
import { createFalProvider } from "../../../../supabase/functions/_shared/providers/fal.ts";
import { type FalModes, startFalFake } from "../../fakes/fal-fake.ts";
import { noDeadline, providerInput } from "../../fakes/provider-input.ts";
import {
  expiredFileFails,
  refusedFields,
  seedDecides,
  testFailures,
  unreachableFails,
} from "../../fakes/provider-cases.ts";
import { assertPng, failureOf, generateAndClose, generateOk, timesOut, withFake } from "../../fakes/provider-run.ts";

function setup(modes: Partial<FalModes> = {}, apiKey?: string) {
  const fake = startFalFake(modes);
  const provider = createFalProvider({ apiKey: apiKey ?? fake.apiKey, baseUrl: fake.url, pollIntervalMs: 5, fetch });
  return { fake, provider };
}

Deno.test("submits FLUX schnell to the queue, polls status_url until COMPLETED, reads response_url", async () => {
  await withFake(setup({ pollsToFinish: 3 }), async ({ fake, provider }) => {
    const r = await generateOk(provider, providerInput({ aspectRatio: "9:16", width: 1024, height: 1536 }));
    const [submit, ...rest] = fake.received;
    assert.equal(submit.path, "/fal-ai/flux/schnell");
    assert.equal(submit.headers.get("authorization"), `Key ${fake.apiKey}`);
    assert.deepEqual(submit.body, {
      prompt: "a lighthouse at dusk, photorealistic style",
      image_size: { width: 1024, height: 1536 },
      num_inference_steps: 4,
      seed: 42,
      num_images: 1,
      enable_safety_checker: true,
      output_format: "png",
    });
    const [id] = fake.requests.keys();
    assert.deepEqual(
      rest.map((q) => q.path),
      [
        ...Array(3).fill(`/fal-ai/flux/requests/${id}/status`),
        `/fal-ai/flux/requests/${id}`,
        `/files/${id}.png`,
      ],
    );
    // The media file is fetched without the key.
    assert.equal(rest.at(-1)!.headers.get("authorization"), null);
    assert.equal(r.value.model, "fal-ai/flux/schnell");
    assert.equal(r.value.seed, 42);
    assertPng(r.value.bytes, 1024, 1536);
  });
});

Deno.test("quality is the step count: 4, 8 and 12", async () => {
  await withFake(setup(), async ({ fake, provider }) => {
    for (const quality of ["standard", "high", "ultra"] as const) {
      assert.ok((await provider.generate(providerInput({ quality }), noDeadline)).ok);
    }
    const steps = fake.received.filter((q) => q.method === "POST").map((q) =>
      (q.body as { num_inference_steps: number }).num_inference_steps
    );
    assert.deepEqual(steps, [4, 8, 12]);
  });
});

Deno.test("the same recipe and seed give the same bytes; another seed gives another picture", () =>
  seedDecides(setup(), 3));

Deno.test("has_nsfw_concepts [true] is nsfw_content and the blacked-out image is never fetched", async () => {
  const started = setup({ outcome: "nsfw" });
  failureOf(await generateAndClose(started), "nsfw_content", false);
  assert.equal(started.fake.received.some((q) => q.path.startsWith("/files/")), false);
});

Deno.test("a request that completes with an error is a retryable server_error", async () => {
  failureOf(await generateAndClose(setup({ outcome: "failed" })), "server_error", true);
});

testFailures((modes, code) => `the answer ${JSON.stringify(modes)} is ${code}`, setup, [
  ["server_error", false, [{ submitStatus: 401 }, { submitStatus: 422 }]],
  ["insufficient_credits", false, [{ submitStatus: 402 }, { submitStatus: 403 }]],
  ["server_error", true, [{ submitStatus: 500 }, { submitStatus: 503 }, { submitStatus: 504 }, { statusStatus: 503 }]],
  ["timeout", true, [{ submitStatus: 504, userTimeout: true }]],
]);

Deno.test("a wrong key is our misconfiguration: server_error, not auth_required", async () => {
  failureOf(await generateAndClose(setup({}, "wrong:key")), "server_error", false);
});

Deno.test("429 is rate_limit for as long as Retry-After says, the default 60 s without it", async () => {
  const withHeader = failureOf(await generateAndClose(setup({ submitStatus: 429, retryAfter: "4" })), "rate_limit");
  assert.equal(withHeader.retryAfter, 4);
  const without = failureOf(await generateAndClose(setup({ submitStatus: 429 })), "rate_limit");
  assert.equal(without.retryAfter, 60);
});

Deno.test("an expired media URL is a retryable server_error saying the image expired", async () => {
  const error = await expiredFileFails(setup());
  assert.match(error.message, /expired/);
});

Deno.test("a slow submit is a timeout; a request still queued at the deadline is a timeout and cancelled", async () => {
  await timesOut(setup({ submitDelayMs: 400 }), 80);
  await withFake(setup({ pollsToFinish: 1_000_000 }), async ({ fake, provider }) => {
    failureOf(await provider.generate(providerInput(), AbortSignal.timeout(100)), "timeout", true);
    await new Promise((r) => setTimeout(r, 50));
    const [request] = fake.requests.values();
    assert.equal(request.status, "CANCELLED");
    assert.ok(fake.received.some((q) => q.method === "PUT" && q.path.endsWith("/cancel")));
  });
});

Deno.test("an unreachable queue is a network_error", async () => {
  await unreachableFails((baseUrl) => createFalProvider({ apiKey: "k", baseUrl, pollIntervalMs: 5, fetch }));
});

Deno.test("the fake holds the adapter to fal's schema: steps 1–12, known keys, prompt required", async () => {
  const fake = startFalFake();
  try {
    const res = await fetch(`${fake.url}/fal-ai/flux/schnell`, {
      method: "POST",
      headers: { Authorization: `Key ${fake.apiKey}`, "Content-Type": "application/json" },
      body: JSON.stringify({ num_inference_steps: 28, negative_prompt: "x" }),
    });
    assert.deepEqual(await refusedFields(res), [
      "negative_prompt",
      "num_inference_steps",
      "prompt",
    ]);
  } finally {
    await fake.close();
  }
});
