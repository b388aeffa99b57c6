import assert from "node:assert/strict";
import { createReplicateProvider } from "../../../../supabase/functions/_shared/providers/replicate.ts";
import { type ReplicateModes, startReplicateFake } from "../../fakes/replicate-fake.ts";
import { closedPortUrl, noDeadline, providerInput, referenceImage } from "../../fakes/provider-input.ts";
import { expiredFileFails, testFailures } from "../../fakes/provider-cases.ts";
import { assertPng, failureOf, generateAndClose, generateOk, timesOut, withFake } from "../../fakes/provider-run.ts";

function setup(modes: Partial<ReplicateModes> = {}, opts: { timeoutMs?: number; token?: string } = {}) {
  const fake = startReplicateFake(modes);
  const provider = createReplicateProvider({
    token: opts.token ?? fake.token,
    baseUrl: fake.url,
    pollIntervalMs: 5,
    timeoutMs: opts.timeoutMs ?? 10_000,
    fetch,
  });
  return { fake, provider };
}

const creates = (fake: ReturnType<typeof startReplicateFake>) =>
  fake.received.filter((r) => r.method === "POST" && r.path.endsWith("/predictions"));

Deno.test("standard quality runs flux-schnell with Prefer: wait and stores the first output of the array", async () => {
  await withFake(setup(), async ({ fake, provider }) => {
    const r = await generateOk(provider, providerInput({ aspectRatio: "16:9", width: 1536, height: 1024 }));
    const [create] = creates(fake);
    assert.equal(create.path, "/v1/models/black-forest-labs/flux-schnell/predictions");
    assert.equal(create.headers.get("authorization"), `Bearer ${fake.token}`);
    assert.match(create.headers.get("prefer") ?? "", /^wait(=\d+)?$/);
    assert.deepEqual(create.body, {
      input: {
        prompt: "a lighthouse at dusk, photorealistic style",
        aspect_ratio: "16:9",
        num_outputs: 1,
        seed: 42,
        output_format: "png",
        go_fast: false,
      },
    });
    assert.equal(r.value.model, "black-forest-labs/flux-schnell");
    assert.equal(r.value.seed, 42);
    assertPng(r.value.bytes, 1344, 768);
  });
});

Deno.test(
  "high quality runs flux-dev and passes the reference image; ultra runs flux-1.1-pro with a single URL output",
  async () => {
    const { fake, provider } = setup();
    try {
      const reference = referenceImage();
      const high = await provider.generate(providerInput({ quality: "high", reference }), noDeadline);
      assert.ok(high.ok);
      assert.equal(high.value.model, "black-forest-labs/flux-dev");
      const ultra = await generateOk(provider, providerInput({ quality: "ultra", reference }));
      assert.equal(ultra.value.model, "black-forest-labs/flux-1.1-pro");
      const [devCall, proCall] = creates(fake);
      assert.equal(devCall.path, "/v1/models/black-forest-labs/flux-dev/predictions");
      assert.equal((devCall.body as { input: { image: string } }).input.image, reference.dataUrl);
      assert.equal(proCall.path, "/v1/models/black-forest-labs/flux-1.1-pro/predictions");
      assert.equal((proCall.body as { input: { image_prompt: string } }).input.image_prompt, reference.dataUrl);
      assert.equal("num_outputs" in (proCall.body as { input: object }).input, false);
      // A seed must redraw its picture: no fp8 fast path, no prompt rewriting.
      assert.equal((devCall.body as { input: { go_fast: boolean } }).input.go_fast, false);
      assert.equal((proCall.body as { input: { prompt_upsampling: boolean } }).input.prompt_upsampling, false);
      const pro = [...fake.predictions.values()].find((p) => p.model.endsWith("flux-1.1-pro"))!;
      assert.equal(typeof pro.output, "string");
    } finally {
      await fake.close();
    }
  },
);

Deno.test("the nano-banana style runs google/nano-banana, which takes no seed", async () => {
  await withFake(setup(), async ({ fake, provider }) => {
    const r = await generateOk(provider, providerInput({ style: "nano-banana", quality: "ultra" }));
    assert.equal(r.value.model, "google/nano-banana");
    assert.equal(r.value.seed, null);
    assert.equal(creates(fake)[0].path, "/v1/models/google/nano-banana/predictions");
    assert.deepEqual((creates(fake)[0].body as { input: object }).input, {
      prompt: "a lighthouse at dusk",
      aspect_ratio: "1:1",
      output_format: "png",
    });
  });
});

Deno.test("an incomplete answer to Prefer: wait falls back to polling urls.get until it succeeds", async () => {
  await withFake(setup({ incompleteWait: true, pollsToFinish: 3 }), async ({ fake, provider }) => {
    await generateOk(provider);
    const gets = fake.received.filter((q) => q.method === "GET" && q.path.startsWith("/v1/predictions/"));
    assert.equal(gets.length, 3);
    assert.equal(gets[0].headers.get("authorization"), `Bearer ${fake.token}`);
  });
});

Deno.test("an output URL that has already expired is a retryable server_error", async () => {
  const error = await expiredFileFails(setup());
  assert.match(error.message, /expired/);
});

Deno.test("a succeeded prediction whose data was removed is a server_error", async () => {
  failureOf(await generateAndClose(setup({ outcome: "data_removed" })), "server_error");
});

testFailures<ReplicateModes["outcome"]>(
  (outcome, code) => `a prediction ending ${outcome} is classified ${code}`,
  (outcome) => setup({ outcome, incompleteWait: outcome === "oom" }),
  [
    ["nsfw_content", undefined, ["nsfw", "sensitive", "empty"]],
    ["server_error", undefined, ["oom", "canceled", "aborted"]],
  ],
);

Deno.test("402 Insufficient credit is insufficient_credits", async () => {
  failureOf(await generateAndClose(setup({ createStatus: 402 })), "insufficient_credits", false);
});

Deno.test("429 is rate_limit, waiting as long as Retry-After says, else as long as the body says", async () => {
  const withHeader = setup({ createStatus: 429, retryAfter: "12" });
  const withoutHeader = setup({ createStatus: 429 });
  try {
    const a = await withHeader.provider.generate(providerInput(), noDeadline);
    const b = await withoutHeader.provider.generate(providerInput(), noDeadline);
    assert.ok(!a.ok && !b.ok);
    assert.equal(a.error.code, "rate_limit");
    assert.equal(a.error.retryAfter, 12);
    assert.equal(a.error.retryable, true);
    assert.equal(b.error.code, "rate_limit");
    assert.equal(b.error.retryAfter, 30);
  } finally {
    await withHeader.fake.close();
    await withoutHeader.fake.close();
  }
});

Deno.test("500 and 503 on create, and 503 while polling, are retryable server_errors", async () => {
  for (
    const modes of [
      { createStatus: 500 },
      { createStatus: 503 },
      { incompleteWait: true, getStatus: 503 },
    ] as const
  ) {
    failureOf(await generateAndClose(setup(modes)), "server_error", true);
  }
});

Deno.test("a refused token is our misconfiguration: server_error, not auth_required", async () => {
  failureOf(await generateAndClose(setup({}, { token: "r8_wrong" })), "server_error", false);
});

Deno.test("a create that outlasts the deadline is a timeout", async () => {
  await timesOut(setup({ createDelayMs: 400 }), 80);
});

Deno.test("a prediction still running at the deadline is a timeout and is cancelled", async () => {
  await withFake(setup({ incompleteWait: true, pollsToFinish: 1_000_000 }), async ({ fake, provider }) => {
    const r = await provider.generate(providerInput(), AbortSignal.timeout(100));
    assert.ok(!r.ok);
    assert.equal(r.error.code, "timeout");
    await new Promise((resolve) => setTimeout(resolve, 50));
    const [p] = fake.predictions.values();
    assert.equal(p.status, "canceled");
  });
});

Deno.test("an unreachable API is a network_error", async () => {
  const provider = createReplicateProvider({
    token: "r8_x",
    baseUrl: await closedPortUrl(),
    pollIntervalMs: 5,
    timeoutMs: 5_000,
    fetch,
  });
  const r = await provider.generate(providerInput(), noDeadline);
  assert.ok(!r.ok);
  assert.equal(r.error.code, "network_error");
  assert.equal(r.error.retryable, true);
});

Deno.test("the fake holds the adapter to Replicate's schema: unknown input keys are a 422", async () => {
  const fake = startReplicateFake();
  try {
    const res = await fetch(`${fake.url}/v1/models/black-forest-labs/flux-schnell/predictions`, {
      method: "POST",
      headers: { Authorization: `Bearer ${fake.token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ input: { prompt: "x", negative_prompt: "y", num_outputs: 5 } }),
    });
    assert.equal(res.status, 422);
    const body = await res.json();
    assert.deepEqual(body.invalid_fields.map((f: { field: string }) => f.field).sort(), [
      "input.negative_prompt",
      "input.num_outputs",
    ]);
    const noVersion = await fetch(`${fake.url}/v1/predictions`, {
      method: "POST",
      headers: { Authorization: `Bearer ${fake.token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ input: { prompt: "x" } }),
    });
    assert.equal(noVersion.status, 422);
    await noVersion.body?.cancel();
  } finally {
    await fake.close();
  }
});
