// Composition of generate-image: everything the handler touches, built once from the environment and
// the platform. index.ts passes Deno.env and the runtime's fetch; the local backend passes its own
// environment and its render worker pool, so both serve the same handler with the same wiring.
import { createSupabaseStore } from "../_shared/supabase-store.ts";
import type { RenderFn } from "../_shared/providers/builtin.ts";
import { providersFromEnv } from "../_shared/providers/select.ts";
import type { DecodedImage } from "../_shared/image/decode.ts";
import { DECODE_BUDGET_MS } from "../_shared/image/limits.ts";
import type { ImageResult } from "../_shared/image/result.ts";
import { DEFAULT_CONFIG, type Deps } from "./handler.ts";

export interface Platform {
  fetch?: typeof fetch;
  /** Renders the built-in engine's image; the engine's renderPng in this isolate by default. */
  render?: RenderFn;
  /** Runs work after the answer is sent; the edge runtime's EdgeRuntime.waitUntil by default, where it exists. */
  background?: (work: Promise<void>) => void;
  /**
   * Decodes an untrusted reference image off the event loop, ending it after `budgetMs`
   * (image_too_slow); the local backend's render pool. Without it the decode runs in this isolate,
   * bounded by the header checks and the platform's own CPU limit.
   */
  decode?: (file: Uint8Array, budgetMs: number) => Promise<ImageResult<DecodedImage>>;
}

/** Supabase's edge runtime keeps an isolate alive for the promises given to EdgeRuntime.waitUntil. */
function edgeRuntimeBackground(): Platform["background"] {
  const runtime = (globalThis as { EdgeRuntime?: { waitUntil?: (work: Promise<unknown>) => void } }).EdgeRuntime;
  const waitUntil = runtime?.waitUntil;
  return waitUntil ? (work) => waitUntil.call(runtime, work) : undefined;
}

export function createDeps(env: (name: string) => string | undefined, platform: Platform = {}): Deps {
  const fetchFn = platform.fetch ?? fetch;
  const need = (k: string) => env(k) ?? "";
  const offLoop = platform.decode;
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
    log: (event, fields) => console.warn(JSON.stringify({ fn: "generate-image", event, ...fields })),
    config: DEFAULT_CONFIG,
    background: platform.background ?? edgeRuntimeBackground(),
    decode: offLoop && ((file) => offLoop(file, DECODE_BUDGET_MS)),
  };
}
