// The names people read for what drew an image. Records keep the provider's id and the model's
// machine id (black-forest-labs/flux-schnell, runware:100@1, builtin-procedural-v1); the preview and
// the image details show a human name instead, and say plainly when no AI model was involved.

const PROVIDER_NAMES: Readonly<Record<string, string>> = {
  replicate: "Replicate",
  runware: "Runware",
  openai: "OpenAI-style API",
  bfl: "Black Forest Labs",
  fal: "fal",
  gemini: "Google Gemini",
  a1111: "AUTOMATIC1111 / Forge (self-hosted)",
  comfyui: "ComfyUI (self-hosted)",
};

const MODEL_NAMES: Readonly<Record<string, string>> = {
  "black-forest-labs/flux-schnell": "FLUX.1 Schnell",
  "black-forest-labs/flux-dev": "FLUX.1 Dev",
  "black-forest-labs/flux-1.1-pro": "FLUX 1.1 Pro",
  "google/nano-banana": "Google Nano Banana",
  "runware:100@1": "FLUX.1 Schnell",
  "runware:101@1": "FLUX.1 Dev",
  "dall-e-3": "DALL·E 3",
  "dall-e-2": "DALL·E 2",
  "gpt-image-1": "GPT Image 1",
};

const BUILTIN_RENDERER_NAME = "Built-in procedural renderer (not an AI model)";

/** A model's human name; an id this list does not know is shown as it is (it is still its real name). */
export function modelName(model: string): string {
  return MODEL_NAMES[model.trim().toLowerCase()] ?? model.trim();
}

/** An engine's name for people ("Replicate"; the built-in renderer's plain name); an unknown id as it is. */
export function providerName(provider: string): string {
  return provider === "builtin" ? "Built-in renderer" : (PROVIDER_NAMES[provider] ?? provider);
}

/** What drew an image, for people: "FLUX.1 Dev via Replicate", or the built-in renderer's name. */
export function engineName(provider: string, model: string | null | undefined): string {
  if (provider === "builtin") return BUILTIN_RENDERER_NAME;
  const via = PROVIDER_NAMES[provider] ?? provider;
  const name = model ? modelName(model) : "";
  return name ? `${name} via ${via}` : via;
}
