import assert from "node:assert/strict";
import { createRunwareProvider } from "../../../../supabase/functions/_shared/providers/runware.ts";
import { type RunwareMode, startRunwareFake } from "../../fakes/runware-fake.ts";
import { closedPortUrl, noDeadline, providerInput } from "../../fakes/provider-input.ts";
import { expiredFileFails, testFailures } from "../../fakes/provider-cases.ts";
import { assertPng, failureOf, generateAndClose, withFake } from "../../fakes/provider-run.ts";

function setup(mode: RunwareMode = "ok", apiKey?: string) {
  const fake = startRunwareFake(mode);
  const provider = createRunwareProvider({ apiKey: apiKey ?? fake.apiKey, baseUrl: fake.url, fetch });
  return { fake, provider };
}

Deno.test("sends one imageInference task in an array and stores the image its URL points to", async () => {
  await withFake(setup(), async ({ fake, provider }) => {
    const r = await provider.generate(
      providerInput({ aspectRatio: "9:16", width: 1024, height: 1536, negativePrompt: "fog", seed: 7 }),
      noDeadline,
    );
    assert.ok(r.ok, JSON.stringify(!r.ok && r.error));
    const [call] = fake.received;
    assert.equal(call.path, "/v1");
    assert.equal(call.headers.get("authorization"), `Bearer ${fake.apiKey}`);
    assert.ok(Array.isArray(call.body));
    const [task] = call.body as Record<string, unknown>[];
    assert.match(String(task.taskUUID), /^[0-9a-f-]{36}$/);
    assert.deepEqual(
      { ...task, taskUUID: "x" },
      {
        taskType: "imageInference",
        taskUUID: "x",
        positivePrompt: "a lighthouse at dusk, photorealistic style",
        negativePrompt: "fog",
        model: "runware:100@1",
        width: 1024,
        height: 1536,
        numberResults: 1,
        seed: 7,
        outputType: "URL",
        outputFormat: "PNG",
        checkNSFW: true,
      },
    );
    assert.equal(r.value.seed, 7);
    assert.equal(r.value.model, "runware:100@1");
    assertPng(r.value.bytes, 1024, 1536);
  });
});

Deno.test("high and ultra quality use FLUX dev (runware:101@1)", async () => {
  await withFake(setup(), async ({ provider }) => {
    for (const quality of ["high", "ultra"] as const) {
      const r = await provider.generate(providerInput({ quality }), noDeadline);
      assert.ok(r.ok);
      assert.equal(r.value.model, "runware:101@1");
    }
  });
});

Deno.test("a result flagged NSFWContent is nsfw_content", async () => {
  failureOf(await generateAndClose(setup("nsfw")), "nsfw_content");
});

testFailures(
  (mode, code) => `the ${mode} answer is ${code}`,
  setup,
  [
    ["insufficient_credits", false, ["insufficient_credits"]],
    ["rate_limit", true, ["overloaded_429"]],
    ["server_error", true, ["overloaded_503", "overloaded_504", "server_error"]],
    ["timeout", true, ["timeout_provider"]],
  ],
  (error, _, code) => {
    if (code === "rate_limit") assert.equal(error.retryAfter, 60);
  },
);

Deno.test("an invalid API key is our misconfiguration: server_error, not auth_required", async () => {
  failureOf(await generateAndClose(setup("ok", "wrong")), "server_error", false);
});

Deno.test("an expired image URL is a retryable server_error", async () => {
  await expiredFileFails(setup());
});

Deno.test("an unreachable API is a network_error and a missed deadline a timeout", async () => {
  const unreachable = createRunwareProvider({ apiKey: "k", baseUrl: await closedPortUrl(), fetch });
  const r = await unreachable.generate(providerInput(), noDeadline);
  assert.ok(!r.ok);
  assert.equal(r.error.code, "network_error");
  const stalled = createRunwareProvider({
    apiKey: "k",
    baseUrl: "http://127.0.0.1:1",
    fetch: (_url, init) =>
      new Promise((_, reject) =>
        init?.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")))
      ),
  });
  const t = await stalled.generate(providerInput(), AbortSignal.timeout(50));
  assert.ok(!t.ok);
  assert.equal(t.error.code, "timeout");
});

Deno.test(
  "the fake enforces Runware's rules: arrays only, auth task, sizes in steps of 64, async polling",
  async () => {
    const fake = startRunwareFake();
    const post = (body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${fake.url}/v1`, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...headers },
        body: JSON.stringify(body),
      });
    try {
      const notArray = await post({ taskType: "imageInference" }, { Authorization: `Bearer ${fake.apiKey}` });
      assert.equal(notArray.status, 400);
      await notArray.body?.cancel();
      const task = {
        taskType: "imageInference",
        taskUUID: crypto.randomUUID(),
        positivePrompt: "a cat",
        model: "runware:100@1",
        width: 1000,
        height: 1024,
      };
      const badSize = await post([{ taskType: "authentication", apiKey: fake.apiKey }, task]);
      assert.equal(badSize.status, 400);
      assert.equal((await badSize.json()).errors[0].parameter, "width");
      const queued = await post([{ ...task, width: 1024, deliveryMethod: "async" }], {
        Authorization: `Bearer ${fake.apiKey}`,
      });
      assert.equal((await queued.json()).data[0].status, "processing");
      const statuses: string[] = [];
      for (let i = 0; i < 2; i++) {
        const polled = await post([{ taskType: "getResponse", taskUUID: task.taskUUID }], {
          Authorization: `Bearer ${fake.apiKey}`,
        });
        statuses.push((await polled.json()).data[0].status);
      }
      assert.deepEqual(statuses, ["processing", "success"]);
    } finally {
      await fake.close();
    }
  },
);
