// Composition of generate-image: everything the handler touches, built once from the environment and
// the platform. index.ts passes Deno.env and the runtime's fetch; the local backend passes its own
// environment and its render worker pool, so both serve the same handler with the same wiring.
import { createSupabaseStore } from "../_shared/supabase-store.ts";
import type { RenderFn, RenderOptions } from "../_shared/providers/builtin.ts";
import { providersFromEnv } from "../_shared/providers/select.ts";
import type { DecodedImage } from "../_shared/image/decode.ts";
import { DECODE_BUDGET_MS } from "../_shared/image/limits.ts";
import type { ImageResult } from "../_shared/image/result.ts";
import { createPromptCheck } from "../_shared/moderation/prompt-check.ts";
import { createTermsReader } from "../_shared/moderation/terms.ts";
import { DEFAULT_CONFIG, type Deps } from "./handler.ts";

export interface Platform {
  fetch?: typeof fetch;
  /**
   * Renders the built-in engine's image; the engine's renderPng in this isolate by default. The local
   * backend's pool orders waiting renders by `options.priority` (the person's tier); Supabase's edge
   * runtime has no pool, each request renders in its own isolate, and the priority means nothing there.
   */
  render?: RenderFn;
  /** Runs work after the answer is sent; the edge runtime's EdgeRuntime.waitUntil by default, where it exists. */
  background?: (work: Promise<void>) => void;
  /**
   * Decodes an untrusted reference image off the event loop, ending it after `budgetMs`
   * (image_too_slow); the local backend's render pool. Without it the decode runs in this isolate,
   * bounded by the header checks and the platform's own CPU limit.
   */
  decode?: (file: Uint8Array, budgetMs: number, options?: RenderOptions) => Promise<ImageResult<DecodedImage>>;
}

/** Supabase's edge runtime keeps an isolate alive for the promises given to EdgeRuntime.waitUntil. */
function edgeRuntimeBackground(): Platform["background"] {
  const runtime = (globalThis as { EdgeRuntime?: { waitUntil?: (work: Promise<unknown>) => void } }).EdgeRuntime;
  const waitUntil = runtime?.waitUntil;
  return waitUntil ? (work) => waitUntil.call(runtime, work) : undefined;
}

/**
 * Publishes a generation through publish-generation, as its owner: the same checks as a person's own
 * publish. A refusal (the image check flagged it) is the function's to record; here it is only logged.
 */
function publishThroughFunction(
  url: string,
  anonKey: string,
  fetchFn: typeof fetch,
  log: Deps["log"],
): Deps["publish"] {
  return async (jwt, generationId) => {
    const res = await fetchFn(`${url}/functions/v1/publish-generation`, {
      method: "POST",
      headers: { authorization: `Bearer ${jwt}`, apikey: anonKey, "content-type": "application/json" },
      body: JSON.stringify({ generation_id: generationId }),
    });
    const answer = await res.json().catch(() => null) as { error?: { code?: string } } | null;
    if (!res.ok) log("publish.refused", { request_id: generationId, status: res.status, code: answer?.error?.code });
  };
}

export function createDeps(env: (name: string) => string | undefined, platform: Platform = {}): Deps {
  const fetchFn = platform.fetch ?? fetch;
  const need = (k: string) => env(k) ?? "";
  const offLoop = platform.decode;
  const log: Deps["log"] = (event, fields) => console.warn(JSON.stringify({ fn: "generate-image", event, ...fields }));
  const terms = createTermsReader({
    url: need("SUPABASE_URL"),
    serviceRoleKey: need("SUPABASE_SERVICE_ROLE_KEY"),
    fetch: fetchFn,
  });
  return {
    store: createSupabaseStore({
      url: need("SUPABASE_URL"),
      anonKey: need("SUPABASE_ANON_KEY"),
      serviceRoleKey: need("SUPABASE_SERVICE_ROLE_KEY"),
      fetch: fetchFn,
    }),
    providers: providersFromEnv(env, fetchFn, platform.render),
    fetch: fetchFn,
    now: () => Date.now(),
    log,
    config: DEFAULT_CONFIG,
    background: platform.background ?? edgeRuntimeBackground(),
    decode: offLoop && ((file, options) => offLoop(file, DECODE_BUDGET_MS, options)),
    checkPrompt: createPromptCheck({ terms, log }),
    publish: publishThroughFunction(need("SUPABASE_URL"), need("SUPABASE_ANON_KEY"), fetchFn, log),
  };
}
