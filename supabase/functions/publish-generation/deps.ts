// Composition of publish-generation, built once from the environment and the platform. index.ts passes
// Deno.env (the image check then runs in this isolate); the local backend passes its environment and
// its render pool's classify, so the check runs off the server's event loop, as generate-image's
// reference decode does.
import type { ImageResult } from "../_shared/image/result.ts";
import { CLASSIFY_BUDGET_MS, classifyImageFile } from "../_shared/moderation/classify-file.ts";
import type { ImageScores } from "../_shared/moderation/image-verdict.ts";
import { createPromptCheck } from "../_shared/moderation/prompt-check.ts";
import { createTermsReader } from "../_shared/moderation/terms.ts";
import type { Deps } from "./handler.ts";
import { createSupabasePublisher } from "./publisher.ts";

export interface Platform {
  fetch?: typeof fetch;
  /**
   * The image check of a stored image off the event loop, ended after `budgetMs` of CPU time
   * (image_too_slow); the local backend's render pool. Without it the check runs in this isolate.
   */
  classify?: (file: Uint8Array, budgetMs: number) => Promise<ImageResult<ImageScores>>;
}

export function createDeps(env: (name: string) => string | undefined, platform: Platform = {}): Deps {
  const fetchFn = platform.fetch ?? fetch;
  const url = env("SUPABASE_URL") ?? "";
  const serviceRoleKey = env("SUPABASE_SERVICE_ROLE_KEY") ?? "";
  const log = (event: string, fields: Record<string, unknown>) =>
    console.warn(JSON.stringify({ fn: "publish-generation", event, ...fields }));
  const offLoop = platform.classify;
  return {
    publisher: createSupabasePublisher({
      url,
      anonKey: env("SUPABASE_ANON_KEY") ?? "",
      serviceRoleKey,
      fetch: fetchFn,
    }),
    checkPrompt: createPromptCheck({ terms: createTermsReader({ url, serviceRoleKey, fetch: fetchFn }), log }),
    classify: offLoop ? (file) => offLoop(file, CLASSIFY_BUDGET_MS) : classifyImageFile,
    now: () => Date.now(),
    log,
  };
}
