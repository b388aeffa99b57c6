import assert from "node:assert/strict";
import { createBflProvider } from "../../../../supabase/functions/_shared/providers/bfl.ts";
import { type BflModes, startBflFake } from "../../fakes/bfl-fake.ts";
import { noDeadline, providerInput, referenceImage } from "../../fakes/provider-input.ts";
import { refusedFields, seedDecides, testFailures, unreachableFails } from "../../fakes/provider-cases.ts";
import { assertPng, failureOf, generateAndClose, generateOk, timesOut, withFake } from "../../fakes/provider-run.ts";

function setup(modes: Partial<BflModes> = {}, apiKey?: string) {
  const fake = startBflFake(modes);
  const provider = createBflProvider({ apiKey: apiKey ?? fake.apiKey, baseUrl: fake.url, pollIntervalMs: 5, fetch });
  return { fake, provider };
}

const reference = referenceImage();

Deno.test("standard quality submits FLUX dev at 20 steps, follows polling_url to its Ready sample", async () => {
  await withFake(setup({ pollsToFinish: 3 }), async ({ fake, provider }) => {
    const r = await generateOk(provider);
    const [submit, ...rest] = fake.received;
    assert.equal(submit.path, "/v1/flux-dev");
    assert.equal(submit.headers.get("x-key"), fake.apiKey);
    assert.deepEqual(submit.body, {
      prompt: "a lighthouse at dusk, photorealistic style",
      width: 1024,
      height: 1024,
      seed: 42,
      prompt_upsampling: false,
      safety_tolerance: 2,
      output_format: "png",
      steps: 20,
    });
    // The polls went to the regional server the answer named, with the key; the sample without it.
    const polls = rest.filter((q) => q.path.startsWith("/v1/get_result"));
    assert.equal(polls.length, 3);
    assert.ok(polls.every((q) => q.headers.get("x-key") === fake.apiKey));
    const download = rest.find((q) => q.path.startsWith("/delivery/"))!;
    assert.equal(download.headers.get("x-key"), null);
    assert.equal(r.value.model, "flux-dev");
    assert.equal(r.value.seed, 42);
    assertPng(r.value.bytes, 1024, 1024);
  });
});

Deno.test("sides are fitted to 1440 in steps of 32; high is FLUX dev at 28 steps, ultra FLUX 1.1 pro", async () => {
  await withFake(setup(), async ({ fake, provider }) => {
    const wide = { aspectRatio: "16:9", width: 1536, height: 1024 } as const;
    const high = await generateOk(provider, providerInput({ ...wide, quality: "high" }));
    assertPng(high.value.bytes, 1440, 960);
    const ultra = await generateOk(provider, providerInput({ quality: "ultra", reference }));
    assert.equal(ultra.value.model, "flux-pro-1.1");
    const [devCall, proCall] = fake.received.filter((q) => q.method === "POST");
    assert.equal((devCall.body as { steps: number }).steps, 28);
    assert.equal(proCall.path, "/v1/flux-pro-1.1");
    assert.equal("steps" in (proCall.body as object), false);
    // BFL takes the Redux image as bare base64, not as a data URL.
    assert.equal((proCall.body as { image_prompt: string }).image_prompt, "iVBORw0KGgo=");
  });
});

Deno.test("the same recipe and seed give the same bytes; another seed gives another picture", () =>
  seedDecides(setup(), 7));

testFailures<BflModes["outcome"]>(
  (outcome, code) => `a task ending ${outcome} is ${code}`,
  (outcome) => setup({ outcome }),
  [
    ["nsfw_content", false, ["request_moderated", "content_moderated"]],
    ["server_error", true, ["error", "task_not_found"]],
  ],
);

Deno.test("402 on submit is insufficient_credits; a refused key is our misconfiguration", async () => {
  failureOf(await generateAndClose(setup({ submitStatus: 402 })), "insufficient_credits", false);
  failureOf(await generateAndClose(setup({}, "wrong")), "server_error", false);
  failureOf(await generateAndClose(setup({ submitStatus: 403 })), "server_error", false);
});

Deno.test("a 422 validation answer is a server_error no retry can fix", async () => {
  failureOf(await generateAndClose(setup({ submitStatus: 422 })), "server_error", false);
});

Deno.test("429 is rate_limit for as long as Retry-After says, the default 60 s without it", async () => {
  const withHeader = failureOf(
    await generateAndClose(setup({ submitStatus: 429, retryAfter: "9" })),
    "rate_limit",
    true,
  );
  assert.equal(withHeader.retryAfter, 9);
  const without = failureOf(await generateAndClose(setup({ submitStatus: 429 })), "rate_limit", true);
  assert.equal(without.retryAfter, 60);
});

Deno.test("past the limit of active tasks the submit is refused with 429: rate_limit", async () => {
  await withFake(setup({ maxActive: 1, pollsToFinish: 1_000_000 }), async ({ provider }) => {
    const first = provider.generate(providerInput(), AbortSignal.timeout(300));
    await new Promise((r) => setTimeout(r, 50));
    const second = await provider.generate(providerInput(), noDeadline);
    failureOf(second, "rate_limit", true);
    failureOf(await first, "timeout", true);
  });
});

Deno.test("500 and 503 on submit, and 503 while polling, are retryable server_errors", async () => {
  for (const modes of [{ submitStatus: 500 }, { submitStatus: 503 }, { pollStatus: 503 }] as const) {
    failureOf(await generateAndClose(setup(modes)), "server_error", true);
  }
});

Deno.test("a sample URL past its lifetime is a retryable server_error saying the image expired", async () => {
  const error = failureOf(await generateAndClose(setup({ sampleTtlMs: -1 })), "server_error", true);
  assert.match(error.message, /expired/);
});

Deno.test("a slow submit and a task still pending at the deadline are timeouts", async () => {
  await timesOut(setup({ submitDelayMs: 400 }), 80);
  await timesOut(setup({ pollsToFinish: 1_000_000 }), 100);
});

Deno.test("a polling_url on a host that is not BFL's never receives the key", async () => {
  const started = setup({ pollingUrl: (id) => `http://localhost:9/v1/get_result?id=${id}` });
  const error = failureOf(await generateAndClose(started), "server_error", false);
  assert.match(error.detail ?? "", /unexpected host/);
  assert.equal(started.fake.region.received.length, 0);
});

Deno.test("an unreachable API is a network_error", async () => {
  await unreachableFails((baseUrl) => createBflProvider({ apiKey: "k", baseUrl, pollIntervalMs: 5, fetch }));
});

Deno.test("the fake holds the adapter to BFL's schema: sides in steps of 32, tolerance 0–6, known keys", async () => {
  const fake = startBflFake();
  try {
    const res = await fetch(`${fake.url}/v1/flux-pro-1.1`, {
      method: "POST",
      headers: { "x-key": fake.apiKey, "Content-Type": "application/json" },
      body: JSON.stringify({ prompt: "x", width: 1000, height: 1536, safety_tolerance: 7, negative_prompt: "y" }),
    });
    assert.deepEqual(await refusedFields(res), [
      "height",
      "negative_prompt",
      "safety_tolerance",
      "width",
    ]);
  } finally {
    await fake.close();
  }
});
