// Which provider serves a request: the one it asks for when that one is configured, else
// DEFAULT_PROVIDER when configured, else the first configured remote provider, else the built-in
// engine (always available). Remote providers are configured by their keys (or, self-hosted, their URLs)
// in the environment, in configured.ts's order.
import { ok } from "../errors.ts";
import { createA1111Provider } from "./a1111.ts";
import { createBflProvider } from "./bfl.ts";
import { createBuiltinProvider, type RenderFn } from "./builtin.ts";
import { createComfyUiProvider } from "./comfyui.ts";
import { defaultWorkflow, parseWorkflow } from "./comfyui-workflow.ts";
import { createFalProvider } from "./fal.ts";
import { createGeminiProvider, DEFAULT_GEMINI_MODEL } from "./gemini.ts";
import { createOpenAiProvider } from "./openai.ts";
import type { FetchFn } from "./provider-http.ts";
import { createReplicateProvider } from "./replicate.ts";
import { createRunwareProvider } from "./runware.ts";
import { parseSteps } from "./self-hosted.ts";
import { type ImageProvider, PROVIDER_IDS, type ProviderId } from "./types.ts";

/** Whole budget of one provider call: create, wait or poll, and download (the function's wall clock is 150 s). */
export const DEFAULT_PROVIDER_TIMEOUT_MS = 110_000;
export const DEFAULT_REPLICATE_POLL_MS = 1_000;
/** How often the other asynchronous engines (BFL, fal, ComfyUI) are asked whether an image is done. */
export const DEFAULT_POLL_MS = 1_000;

export interface ProviderRegistry {
  /** Configured providers, remote ones first in preference order, the built-in engine last. */
  available: ProviderId[];
  timeoutMs: number;
  select(requested: ProviderId | null): ImageProvider;
}

export function isProviderId(v: unknown): v is ProviderId {
  return typeof v === "string" && (PROVIDER_IDS as readonly string[]).includes(v);
}

export function createProviderRegistry(
  providers: ImageProvider[],
  opts: { defaultProvider?: string | null; timeoutMs?: number } = {},
): ProviderRegistry {
  const byId = new Map<ProviderId, ImageProvider>(providers.map((p) => [p.id, p]));
  if (!byId.has("builtin")) byId.set("builtin", createBuiltinProvider());
  const remote = providers.filter((p) => p.id !== "builtin").map((p) => p.id);
  const fallback = isProviderId(opts.defaultProvider) && byId.has(opts.defaultProvider) ?
    byId.get(opts.defaultProvider)! :
    byId.get(remote[0] ?? "builtin")!;
  return {
    available: [...remote, "builtin"],
    timeoutMs: opts.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS,
    select: (requested) => (requested && byId.get(requested)) || fallback,
  };
}

type Env = (name: string) => string | undefined;

function positive(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value !== undefined && Number.isFinite(n) && n > 0 ? n : fallback;
}

/** `render` draws the built-in engine's images (a worker pool on the local backend). */
export function providersFromEnv(env: Env, fetchFn: FetchFn, render?: RenderFn): ProviderRegistry {
  const get = (k: string) => env(k)?.trim() || undefined;
  const timeoutMs = positive(get("PROVIDER_TIMEOUT_MS"), DEFAULT_PROVIDER_TIMEOUT_MS);
  const providers: ImageProvider[] = [];
  const replicateToken = get("REPLICATE_API_TOKEN");
  if (replicateToken) {
    providers.push(
      createReplicateProvider({
        token: replicateToken,
        baseUrl: get("REPLICATE_BASE_URL") ?? "https://api.replicate.com",
        pollIntervalMs: positive(get("REPLICATE_POLL_INTERVAL_MS"), DEFAULT_REPLICATE_POLL_MS),
        timeoutMs,
        fetch: fetchFn,
      }),
    );
  }
  const runwareKey = get("RUNWARE_API_KEY");
  if (runwareKey) {
    providers.push(
      createRunwareProvider({
        apiKey: runwareKey,
        baseUrl: get("RUNWARE_BASE_URL") ?? "https://api.runware.ai",
        fetch: fetchFn,
      }),
    );
  }
  const openAiKey = get("OPENAI_API_KEY");
  if (openAiKey) {
    providers.push(
      createOpenAiProvider({
        apiKey: openAiKey,
        baseUrl: get("OPENAI_BASE_URL") ?? "https://api.openai.com/v1",
        model: get("OPENAI_IMAGE_MODEL") ?? "dall-e-3",
        fetch: fetchFn,
      }),
    );
  }
  const bflKey = get("BFL_API_KEY");
  if (bflKey) {
    providers.push(
      createBflProvider({
        apiKey: bflKey,
        baseUrl: get("BFL_BASE_URL") ?? "https://api.bfl.ai",
        pollIntervalMs: positive(get("BFL_POLL_INTERVAL_MS"), DEFAULT_POLL_MS),
        fetch: fetchFn,
      }),
    );
  }
  const falKey = get("FAL_KEY");
  if (falKey) {
    providers.push(
      createFalProvider({
        apiKey: falKey,
        baseUrl: get("FAL_BASE_URL") ?? "https://queue.fal.run",
        pollIntervalMs: positive(get("FAL_POLL_INTERVAL_MS"), DEFAULT_POLL_MS),
        fetch: fetchFn,
      }),
    );
  }
  const geminiKey = get("GEMINI_API_KEY");
  if (geminiKey) {
    providers.push(
      createGeminiProvider({
        apiKey: geminiKey,
        baseUrl: get("GEMINI_BASE_URL") ?? "https://generativelanguage.googleapis.com",
        model: get("GEMINI_IMAGE_MODEL") ?? DEFAULT_GEMINI_MODEL,
        fetch: fetchFn,
      }),
    );
  }
  const a1111Url = get("A1111_URL");
  if (a1111Url) {
    providers.push(
      createA1111Provider({
        baseUrl: a1111Url,
        auth: get("A1111_AUTH") ?? null,
        checkpoint: get("A1111_CHECKPOINT") ?? null,
        steps: parseSteps(get("A1111_STEPS")),
        fetch: fetchFn,
      }),
    );
  }
  const comfyUrl = get("COMFYUI_URL");
  if (comfyUrl) {
    const workflow = get("COMFYUI_WORKFLOW");
    providers.push(
      createComfyUiProvider({
        baseUrl: comfyUrl,
        auth: get("COMFYUI_AUTH") ?? null,
        workflow: workflow ? parseWorkflow(workflow) : ok(defaultWorkflow()),
        checkpoint: get("COMFYUI_CHECKPOINT") ?? null,
        steps: parseSteps(get("COMFYUI_STEPS")),
        pollIntervalMs: positive(get("COMFYUI_POLL_INTERVAL_MS"), DEFAULT_POLL_MS),
        fetch: fetchFn,
      }),
    );
  }
  providers.push(createBuiltinProvider(render));
  return createProviderRegistry(providers, { defaultProvider: get("DEFAULT_PROVIDER"), timeoutMs });
}
