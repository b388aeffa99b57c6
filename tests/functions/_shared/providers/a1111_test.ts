import assert from "node:assert/strict";
import { type A1111Config, createA1111Provider } from "../../../../supabase/functions/_shared/providers/a1111.ts";
import { DEFAULT_SELF_HOSTED_STEPS, parseSteps } from "../../../../supabase/functions/_shared/providers/self-hosted.ts";
import { type A1111Modes, startA1111Fake } from "../../fakes/a1111-fake.ts";
import { noDeadline, providerInput, referenceImage } from "../../fakes/provider-input.ts";
import { seedDecides, unreachableFails } from "../../fakes/provider-cases.ts";
import { assertPng, failureOf, generateAndClose, generateOk, timesOut, withFake } from "../../fakes/provider-run.ts";

/** The adapter for a server at `baseUrl`: the default steps, no checkpoint or auth unless `config` says. */
const a1111At = (baseUrl: string, config: Partial<A1111Config> = {}) =>
  createA1111Provider({ baseUrl, auth: null, checkpoint: null, steps: DEFAULT_SELF_HOSTED_STEPS, fetch, ...config });

function setup(modes: Partial<A1111Modes> = {}, config: Partial<A1111Config> = {}) {
  const fake = startA1111Fake(modes);
  return { fake, provider: a1111At(fake.url, { auth: modes.auth ?? null, ...config }) };
}

Deno.test("txt2img gets the prompt, negative prompt, seed, size and steps; the picture comes back inline", async () => {
  await withFake(setup(), async ({ fake, provider }) => {
    const r = await provider.generate(
      providerInput({ aspectRatio: "16:9", width: 1536, height: 1024, negativePrompt: "fog", quality: "high" }),
      noDeadline,
    );
    assert.ok(r.ok, JSON.stringify(!r.ok && r.error));
    const [call] = fake.received;
    assert.equal(call.path, "/sdapi/v1/txt2img");
    assert.equal(call.headers.get("authorization"), null);
    assert.deepEqual(call.body, {
      prompt: "a lighthouse at dusk, photorealistic style",
      negative_prompt: "fog",
      seed: 42,
      steps: 30,
      cfg_scale: 7,
      width: 1536,
      height: 1024,
      batch_size: 1,
      n_iter: 1,
      send_images: true,
      save_images: false,
    });
    assert.equal(r.value.seed, 42);
    // The checkpoint the server drew with, as its `info` names it.
    assert.equal(r.value.model, "sd_xl_base_1.0");
    assertPng(r.value.bytes, 1536, 1024);
  });
});

Deno.test("a reference image goes to img2img, cropped to shape, at denoising strength 0.8", async () => {
  await withFake(setup(), async ({ fake, provider }) => {
    const reference = referenceImage();
    await generateOk(provider, providerInput({ reference }));
    const [call] = fake.received;
    assert.equal(call.path, "/sdapi/v1/img2img");
    const body = call.body as Record<string, unknown>;
    assert.deepEqual([body.init_images, body.denoising_strength, body.resize_mode], [[reference.dataUrl], 0.8, 1]);
  });
});

Deno.test("a configured checkpoint is asked for and recorded; steps per quality come from the operator", async () => {
  const { fake, provider } = setup({}, { checkpoint: "juggernautXL_v9", steps: parseSteps("8, 12,16") });
  try {
    const r = await generateOk(provider, providerInput({ quality: "ultra" }));
    const body = fake.received[0].body as Record<string, unknown>;
    assert.deepEqual(body.override_settings, { sd_model_checkpoint: "juggernautXL_v9" });
    assert.equal(body.steps, 16);
    assert.equal(r.value.model, "juggernautXL_v9");
  } finally {
    await fake.close();
  }
  assert.deepEqual(parseSteps("20,30"), DEFAULT_SELF_HOSTED_STEPS);
  assert.deepEqual(parseSteps("0,30,40"), DEFAULT_SELF_HOSTED_STEPS);
});

Deno.test("the same recipe and seed give the same bytes; another seed gives another picture", () =>
  seedDecides(setup(), 11));

Deno.test("--api-auth: the configured credentials are sent as Basic; wrong ones are our misconfiguration", async () => {
  const { fake, provider } = setup({ auth: "painter:s3cret" });
  try {
    await generateOk(provider);
    assert.equal(fake.received[0].headers.get("authorization"), `Basic ${btoa("painter:s3cret")}`);
  } finally {
    await fake.close();
  }
  failureOf(
    await generateAndClose(setup({ auth: "painter:s3cret" }, { auth: "painter:wrong" })),
    "server_error",
    false,
  );
  failureOf(await generateAndClose(setup({ auth: "painter:s3cret" }, { auth: null })), "server_error", false);
});

Deno.test("CUDA out of memory (500) is a retryable server_error", async () => {
  failureOf(await generateAndClose(setup({ outOfMemory: true })), "server_error", true);
});

Deno.test("a slow render past the deadline is a timeout; an unreachable server a network_error", async () => {
  await timesOut(setup({ delayMs: 400 }), 80);
  await unreachableFails((baseUrl) => a1111At(baseUrl));
});

Deno.test("the fake answers as the WebUI does: 422 for wrong types, 404 for an unknown sampler", async () => {
  const fake = startA1111Fake();
  const post = (body: unknown) =>
    fetch(`${fake.url}/sdapi/v1/txt2img`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  try {
    const wrongType = await post({ prompt: "x", steps: "many" });
    assert.equal(wrongType.status, 422);
    assert.deepEqual((await wrongType.json()).detail[0].loc, ["body", "steps"]);
    const sampler = await post({ prompt: "x", sampler_name: "Nope" });
    assert.equal(sampler.status, 404);
    assert.deepEqual(await sampler.json(), {
      error: "HTTPException",
      detail: "Sampler not found",
      body: "",
      errors: "",
    });
  } finally {
    await fake.close();
  }
});
