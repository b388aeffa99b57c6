// Which provider serves a request, from the environment's keys and DEFAULT_PROVIDER.
import assert from "node:assert/strict";
import { configuredProviders } from "../../../../supabase/functions/_shared/providers/configured.ts";
import {
  DEFAULT_PROVIDER_TIMEOUT_MS,
  isProviderId,
  providersFromEnv,
} from "../../../../supabase/functions/_shared/providers/select.ts";

const envOf = (vars: Record<string, string>) => (k: string) => vars[k];

Deno.test("with no provider key the built-in engine serves every request", () => {
  const registry = providersFromEnv(envOf({}), fetch);
  assert.deepEqual(registry.available, ["builtin"]);
  assert.equal(registry.select(null).id, "builtin");
  assert.equal(registry.select("replicate").id, "builtin");
  assert.equal(registry.select(null).model({ quality: "ultra" } as never), "builtin-procedural-v1");
  assert.equal(registry.select(null).kind, "procedural");
});

Deno.test("a requested provider serves when configured; otherwise DEFAULT_PROVIDER, else the first configured", () => {
  const keys = { REPLICATE_API_TOKEN: "r8_x", RUNWARE_API_KEY: "rw", OPENAI_API_KEY: "" };
  const plain = providersFromEnv(envOf(keys), fetch);
  assert.deepEqual(plain.available, ["replicate", "runware", "builtin"]);
  assert.equal(plain.select(null).id, "replicate");
  assert.equal(plain.select("runware").id, "runware");
  assert.equal(plain.select("builtin").id, "builtin");
  assert.equal(plain.select("openai").id, "replicate");
  const withDefault = providersFromEnv(envOf({ ...keys, DEFAULT_PROVIDER: "runware" }), fetch);
  assert.equal(withDefault.select(null).id, "runware");
  assert.equal(withDefault.select("openai").id, "runware");
  const unconfiguredDefault = providersFromEnv(envOf({ ...keys, DEFAULT_PROVIDER: "openai" }), fetch);
  assert.equal(unconfiguredDefault.select(null).id, "replicate");
});

Deno.test("PROVIDER_TIMEOUT_MS bounds every provider call; a nonsense value keeps the default", () => {
  assert.equal(providersFromEnv(envOf({ PROVIDER_TIMEOUT_MS: "2500" }), fetch).timeoutMs, 2500);
  assert.equal(providersFromEnv(envOf({ PROVIDER_TIMEOUT_MS: "soon" }), fetch).timeoutMs, DEFAULT_PROVIDER_TIMEOUT_MS);
});

Deno.test("BFL_API_KEY switches on Black Forest Labs' API, after the providers configured before it", () => {
  const registry = providersFromEnv(envOf({ BFL_API_KEY: "bfl", RUNWARE_API_KEY: "rw" }), fetch);
  assert.deepEqual(registry.available, ["runware", "bfl", "builtin"]);
  assert.equal(registry.select("bfl").id, "bfl");
  assert.equal(registry.select("bfl").model({ quality: "ultra" } as never), "flux-pro-1.1");
});

Deno.test("FAL_KEY switches on fal's queue with FLUX schnell", () => {
  const registry = providersFromEnv(envOf({ FAL_KEY: "id:secret" }), fetch);
  assert.deepEqual(registry.available, ["fal", "builtin"]);
  assert.equal(registry.select(null).model({ quality: "high" } as never), "fal-ai/flux/schnell");
});

Deno.test("GEMINI_API_KEY switches on Gemini, with GEMINI_IMAGE_MODEL or gemini-2.5-flash-image", () => {
  const plain = providersFromEnv(envOf({ GEMINI_API_KEY: "g" }), fetch);
  assert.deepEqual(plain.available, ["gemini", "builtin"]);
  assert.equal(plain.select("gemini").model({} as never), "gemini-2.5-flash-image");
  const chosen = providersFromEnv(
    envOf({ GEMINI_API_KEY: "g", GEMINI_IMAGE_MODEL: "gemini-3-pro-image-preview" }),
    fetch,
  );
  assert.equal(chosen.select("gemini").model({} as never), "gemini-3-pro-image-preview");
});

Deno.test("A1111_URL switches on a self-hosted AUTOMATIC1111/Forge, named by its checkpoint when one is set", () => {
  const plain = providersFromEnv(envOf({ A1111_URL: "http://127.0.0.1:7860" }), fetch);
  assert.deepEqual(plain.available, ["a1111", "builtin"]);
  assert.equal(plain.select(null).model({} as never), "automatic1111");
  const pinned = providersFromEnv(envOf({ A1111_URL: "http://gpu:7860", A1111_CHECKPOINT: "dreamshaper_8" }), fetch);
  assert.equal(pinned.select("a1111").model({} as never), "dreamshaper_8");
});

Deno.test("COMFYUI_URL switches on a self-hosted ComfyUI with the built-in workflow, or COMFYUI_WORKFLOW's", () => {
  const plain = providersFromEnv(envOf({ COMFYUI_URL: "http://127.0.0.1:8188" }), fetch);
  assert.deepEqual(plain.available, ["comfyui", "builtin"]);
  assert.equal(plain.select(null).model({} as never), "sd_xl_base_1.0.safetensors");
  const own = JSON.stringify({
    "1": { class_type: "UNETLoader", inputs: { unet_name: "flux1-schnell.safetensors", weight_dtype: "default" } },
  });
  const custom = providersFromEnv(envOf({ COMFYUI_URL: "http://gpu:8188", COMFYUI_WORKFLOW: own }), fetch);
  assert.equal(custom.select("comfyui").model({} as never), "flux1-schnell.safetensors");
});

Deno.test("health's list of configured engines is the registry's, in the same order with the same default", () => {
  const envs: Record<string, string>[] = [
    {},
    { BFL_API_KEY: "b", REPLICATE_API_TOKEN: "r8" },
    { BFL_API_KEY: "b", DEFAULT_PROVIDER: "bfl", OPENAI_API_KEY: " " },
    { FAL_KEY: "id:secret", BFL_API_KEY: "b", DEFAULT_PROVIDER: "fal" },
    { GEMINI_API_KEY: "g", FAL_KEY: "id:secret", DEFAULT_PROVIDER: "gemini" },
    { A1111_URL: "http://127.0.0.1:7860", REPLICATE_API_TOKEN: "r8", DEFAULT_PROVIDER: "a1111" },
    {
      REPLICATE_API_TOKEN: "r8",
      RUNWARE_API_KEY: "rw",
      OPENAI_API_KEY: "sk",
      BFL_API_KEY: "b",
      FAL_KEY: "f",
      GEMINI_API_KEY: "g",
      A1111_URL: "http://a",
      COMFYUI_URL: "http://c",
      DEFAULT_PROVIDER: "comfyui",
    },
  ];
  for (const vars of envs) {
    const registry = providersFromEnv(envOf(vars), fetch);
    const listed = configuredProviders(envOf(vars));
    assert.deepEqual(listed.available, registry.available);
    assert.equal(listed.default, registry.select(null).id);
  }
});

Deno.test("a request may name every engine by its id; other names are not engines", () => {
  for (const id of ["builtin", "replicate", "runware", "openai", "bfl", "fal", "gemini", "a1111", "comfyui"]) {
    assert.ok(isProviderId(id), id);
  }
  for (const name of ["midjourney", "BFL", "comfy", "", null]) assert.equal(isProviderId(name), false);
});
