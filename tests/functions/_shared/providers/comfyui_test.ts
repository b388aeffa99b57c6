import assert from "node:assert/strict";
import { ok } from "../../../../supabase/functions/_shared/errors.ts";
import { type ComfyUiConfig, createComfyUiProvider } from "../../../../supabase/functions/_shared/providers/comfyui.ts";
import {
  defaultWorkflow,
  parseWorkflow,
  type Workflow,
} from "../../../../supabase/functions/_shared/providers/comfyui-workflow.ts";
import { DEFAULT_SELF_HOSTED_STEPS } from "../../../../supabase/functions/_shared/providers/self-hosted.ts";
import { type ComfyModes, startComfyFake } from "../../fakes/comfyui-fake.ts";
import { noDeadline, providerInput, referenceImage } from "../../fakes/provider-input.ts";
import { seedDecides, unreachableFails } from "../../fakes/provider-cases.ts";
import { assertPng, failureOf, generateAndClose, generateOk, withFake } from "../../fakes/provider-run.ts";

/** The adapter for a server at `baseUrl`: the built-in workflow and steps unless `config` says otherwise. */
const comfyAt = (baseUrl: string, config: Partial<ComfyUiConfig> = {}) =>
  createComfyUiProvider({
    baseUrl,
    auth: null,
    workflow: ok(defaultWorkflow()),
    checkpoint: null,
    steps: DEFAULT_SELF_HOSTED_STEPS,
    pollIntervalMs: 5,
    fetch,
    ...config,
  });

function setup(modes: Partial<ComfyModes> = {}, config: Partial<ComfyUiConfig> = {}) {
  const fake = startComfyFake(modes);
  return { fake, provider: comfyAt(fake.url, config) };
}

type Graph = Record<string, { class_type: string; inputs: Record<string, unknown> }>;
const queuedGraph = (fake: ReturnType<typeof startComfyFake>) =>
  (fake.received.find((q) => q.path === "/prompt")!.body as { prompt: Graph }).prompt;

const reference = referenceImage();

Deno.test("the built-in workflow is patched with prompt, negative prompt, seed, steps and size, then polled and viewed", async () => {
  await withFake(setup({ pollsToFinish: 3 }), async ({ fake, provider }) => {
    const r = await provider.generate(
      providerInput({ aspectRatio: "16:9", width: 1536, height: 1024, negativePrompt: "fog", quality: "ultra" }),
      noDeadline,
    );
    assert.ok(r.ok, JSON.stringify(!r.ok && r.error));
    const queued = fake.received.find((q) => q.path === "/prompt")!.body as { prompt: Graph; client_id: string };
    assert.equal(queued.client_id, providerInput().requestId);
    const g = queued.prompt;
    assert.equal(g["2"].inputs.text, "a lighthouse at dusk, photorealistic style");
    assert.equal(g["3"].inputs.text, "fog");
    assert.deepEqual([g["4"].inputs.width, g["4"].inputs.height, g["4"].inputs.batch_size], [1536, 1024, 1]);
    assert.deepEqual([g["5"].inputs.seed, g["5"].inputs.steps, g["5"].inputs.denoise], [42, 40, 1]);
    const [id] = fake.prompts.keys();
    const paths = fake.received.map((q) => q.path.split("?")[0]);
    assert.deepEqual(paths, ["/prompt", `/history/${id}`, `/history/${id}`, `/history/${id}`, "/view"]);
    assert.match(fake.received.at(-1)!.path, /^\/view\?filename=promptcanvas_\d+_\.png&subfolder=&type=output$/);
    assert.equal(r.value.seed, 42);
    assert.equal(r.value.model, "sd_xl_base_1.0.safetensors");
    assertPng(r.value.bytes, 1536, 1024);
  });
});

Deno.test("an operator's workflow is found from its sampler whatever its ids; COMFYUI_CHECKPOINT replaces the model", async () => {
  const custom: Workflow = {
    loader: { class_type: "CheckpointLoaderSimple", inputs: { ckpt_name: "sd_xl_base_1.0.safetensors" } },
    pos: { class_type: "CLIPTextEncode", inputs: { text: "placeholder", clip: ["loader", 1] } },
    neg: { class_type: "CLIPTextEncode", inputs: { text: "", clip: ["loader", 1] } },
    size: { class_type: "EmptyLatentImage", inputs: { width: 512, height: 512, batch_size: 4 } },
    sample: {
      class_type: "KSamplerAdvanced",
      inputs: {
        model: ["loader", 0],
        positive: ["pos", 0],
        negative: ["neg", 0],
        latent_image: ["size", 0],
        noise_seed: 1,
        steps: 50,
        cfg: 5,
        sampler_name: "dpmpp_2m",
        scheduler: "karras",
        add_noise: "enable",
        start_at_step: 0,
        end_at_step: 10000,
        return_with_leftover_noise: "disable",
      },
    },
    decode: { class_type: "VAEDecode", inputs: { samples: ["sample", 0], vae: ["loader", 2] } },
    show: { class_type: "PreviewImage", inputs: { images: ["decode", 0] } },
  };
  const workflow = parseWorkflow(JSON.stringify(custom));
  await withFake(setup({}, { workflow, checkpoint: "dreamshaper_8.safetensors" }), async ({ fake, provider }) => {
    assert.equal(provider.model(providerInput()), "dreamshaper_8.safetensors");
    const r = await generateOk(provider, providerInput({ negativePrompt: "blur" }));
    const g = queuedGraph(fake);
    assert.equal(g.pos.inputs.text, "a lighthouse at dusk, photorealistic style");
    assert.equal(g.neg.inputs.text, "blur");
    assert.deepEqual([g.sample.inputs.noise_seed, g.sample.inputs.steps, g.sample.inputs.cfg], [42, 20, 5]);
    assert.deepEqual([g.size.inputs.width, g.size.inputs.batch_size], [1024, 1]);
    assert.equal(g.loader.inputs.ckpt_name, "dreamshaper_8.safetensors");
    assert.equal(r.value.model, "dreamshaper_8.safetensors");
    // A PreviewImage-only graph answers a temporary image, which is kept all the same.
    assert.match(fake.received.at(-1)!.path, /type=temp$/);
  });
});

Deno.test("a reference image is uploaded, scaled to the asked size, encoded and sampled from at denoise 0.8", async () => {
  await withFake(setup(), async ({ fake, provider }) => {
    const r = await provider.generate(
      providerInput({ reference, aspectRatio: "9:16", width: 1024, height: 1536 }),
      noDeadline,
    );
    assert.ok(r.ok, JSON.stringify(!r.ok && r.error));
    const name = `promptcanvas-${providerInput().requestId}.png`;
    assert.deepEqual([...fake.uploads.keys()], [name]);
    assert.deepEqual(fake.uploads.get(name), new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const g = queuedGraph(fake);
    assert.equal(g.promptcanvas_reference.inputs.image, name);
    assert.deepEqual([g.promptcanvas_scale.inputs.width, g.promptcanvas_scale.inputs.height], [1024, 1536]);
    assert.deepEqual(g.promptcanvas_encode.inputs.vae, ["1", 2]);
    assert.deepEqual(g["5"].inputs.latent_image, ["promptcanvas_encode", 0]);
    assert.equal(g["5"].inputs.denoise, 0.8);
    assertPng(r.value.bytes, 1024, 1536);
  });
});

Deno.test("the same recipe and seed give the same bytes; another seed gives another picture", () =>
  seedDecides(setup(), 5));

Deno.test("an execution error (CUDA out of memory) is a retryable server_error", async () => {
  failureOf(await generateAndClose(setup({ outcome: "error" })), "server_error", true);
});

Deno.test("a prompt that ran but saved no image is a server_error no retry can fix", async () => {
  failureOf(await generateAndClose(setup({ outcome: "no_output" })), "server_error", false);
});

Deno.test("a workflow the server refuses (400 node_errors: a checkpoint it lacks) is our misconfiguration", async () => {
  const started = setup({}, { checkpoint: "missing.safetensors" });
  const error = failureOf(await generateAndClose(started), "server_error", false);
  assert.match(error.detail ?? "", /value_not_in_list/);
});

Deno.test("an unusable COMFYUI_WORKFLOW fails every request without calling the server", async () => {
  for (
    const [text, why] of [
      ["{not json", /not JSON/],
      [JSON.stringify({ nodes: [], links: [] }), /API Format/],
      [JSON.stringify({ "1": { class_type: "SaveImage", inputs: {} } }), /no KSampler/],
    ] as const
  ) {
    const started = setup({}, { workflow: parseWorkflow(text) });
    const error = failureOf(await generateAndClose(started), "server_error", false);
    assert.match(error.detail ?? "", why);
    assert.equal(started.fake.received.length, 0);
  }
});

Deno.test("a saved image already gone from /view is a retryable server_error saying it expired", async () => {
  const error = failureOf(await generateAndClose(setup({ expired: true })), "server_error", true);
  assert.match(error.message, /expired/);
});

Deno.test("500 on /prompt and 503 on /history are retryable server_errors", async () => {
  failureOf(await generateAndClose(setup({ promptStatus: 500 })), "server_error", true);
  failureOf(await generateAndClose(setup({ historyStatus: 503 })), "server_error", true);
});

Deno.test("behind a Basic-auth proxy the configured credentials reach every call; none is our misconfiguration", async () => {
  const { fake, provider } = setup({ auth: "gpu:pass" }, { auth: "gpu:pass" });
  try {
    await generateOk(provider, providerInput({ reference }));
    assert.ok(fake.received.every((q) => q.headers.get("authorization") === `Basic ${btoa("gpu:pass")}`));
  } finally {
    await fake.close();
  }
  failureOf(await generateAndClose(setup({ auth: "gpu:pass" })), "server_error", false);
});

Deno.test("a slow /prompt is a timeout; a prompt still queued at the deadline is a timeout and taken off the queue", async () => {
  failureOf(await generateAndClose(setup({ promptDelayMs: 400 }), providerInput(), AbortSignal.timeout(80)), "timeout");
  await withFake(setup({ pollsToFinish: 1_000_000 }), async ({ fake, provider }) => {
    failureOf(await provider.generate(providerInput(), AbortSignal.timeout(100)), "timeout", true);
    await new Promise((r) => setTimeout(r, 50));
    const [p] = fake.prompts.values();
    assert.equal(p.state, "deleted");
    const removal = fake.received.find((q) => q.path === "/queue")!;
    assert.deepEqual(removal.body, { delete: [p.id] });
  });
});

Deno.test("an unreachable server is a network_error", async () => {
  await unreachableFails((baseUrl) => comfyAt(baseUrl));
});

Deno.test("the fake validates as ComfyUI does: no prompt, no outputs, unknown nodes, bad links", async () => {
  const fake = startComfyFake();
  const post = (body: unknown) =>
    fetch(`${fake.url}/prompt`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    }).then(async (r) => [r.status, await r.json()] as const);
  try {
    assert.deepEqual(await post({}), [400, { error: "no prompt", node_errors: [] }]);
    const noOutputs = await post({
      prompt: { "1": { class_type: "EmptyLatentImage", inputs: { width: 8, height: 8, batch_size: 1 } } },
    });
    assert.equal(noOutputs[1].error.type, "prompt_no_outputs");
    const unknown = await post({ prompt: { "1": { class_type: "MagicNode", inputs: {} } } });
    assert.equal(unknown[1].error.type, "invalid_prompt");
    const graph = defaultWorkflow();
    graph["6"].inputs.samples = ["99", 0];
    const badLink = await post({ prompt: graph });
    assert.equal(badLink[0], 400);
    assert.equal(badLink[1].node_errors["6"].errors[0].type, "bad_linked_input");
  } finally {
    await fake.close();
  }
});
