// The built-in engine as a provider: a deterministic procedural renderer, not an AI model. It is the
// default when no provider key is configured, so the product works with no account and no network.
// Its PNG carries the generation's recipe (recipe-metadata/png.ts) from the moment it is drawn. Where the
// platform renders in a pool (the local backend), the render carries the person's priority and the
// request's deadline: a paid tier's render starts before a free one's, and a render whose request has
// given up never starts (docs/decisions/153-paid-renders-start-first.md). In an edge isolate each request
// renders on its own, and both are unused.
import { appError, fail, ok, type Result } from "../errors.ts";
import { renderPng } from "../engine/render.ts";
import { isTier, type Tier } from "../vocabulary/tiers.ts";
import type { ImageProvider, ProviderImage } from "./types.ts";

export const BUILTIN_MODEL = "builtin-procedural-v1";

/** How a render waits for the platform's renderer, where it has to wait (the local backend's pool). */
export interface RenderOptions {
  /** Higher starts first among jobs waiting for a process; equal ones in the order they came. 0 by default. */
  priority?: number;
  /** Aborted while the job still waits: it leaves the queue, rejected, and is never drawn. */
  signal?: AbortSignal;
}

export type RenderFn = (input: Parameters<typeof renderPng>[0], options?: RenderOptions) => Promise<Uint8Array>;

/** Premium before pro before free (docs/decisions/153-paid-renders-start-first.md). */
export const RENDER_PRIORITY: Readonly<Record<Tier, number>> = { free: 0, pro: 1, premium: 2 };

/** The render priority of the tier the quota reads; a tier the product does not know waits as free. */
export function renderPriorityOf(tier: string): number {
  return isTier(tier) ? RENDER_PRIORITY[tier] : RENDER_PRIORITY.free;
}

export function createBuiltinProvider(render: RenderFn = renderPng): ImageProvider {
  return {
    id: "builtin",
    kind: "procedural",
    model: () => BUILTIN_MODEL,
    async generate(input, signal): Promise<Result<ProviderImage>> {
      if (signal.aborted) return fail(appError("timeout", { detail: "builtin: deadline reached" }));
      const ref = input.reference;
      const rendering = render({
        prompt: input.prompt,
        negativePrompt: input.negativePrompt,
        style: input.style,
        width: input.width,
        height: input.height,
        seed: input.seed,
        quality: input.quality,
        reference: ref ? { width: ref.width, height: ref.height, rgba: ref.rgba, cells: ref.cells } : null,
        recipe: {
          prompt: input.prompt,
          negativePrompt: input.negativePrompt,
          style: input.style,
          quality: input.quality,
          aspectRatio: input.aspectRatio,
          width: input.width,
          height: input.height,
          seed: input.seed,
          provider: "builtin",
          model: BUILTIN_MODEL,
        },
      }, { priority: input.priority, signal }).then((bytes) =>
        ok<ProviderImage>({ bytes, seed: input.seed, model: BUILTIN_MODEL })
      );
      let onAbort = () => {};
      const deadline = new Promise<Result<ProviderImage>>((resolve) => {
        onAbort = () => resolve(fail(appError("timeout", { detail: "builtin: deadline reached" })));
        signal.addEventListener("abort", onAbort, { once: true });
      });
      try {
        return await Promise.race([rendering, deadline]);
      } catch (e) {
        return fail(
          appError("server_error", { detail: `builtin: ${e instanceof Error ? e.message : "render failed"}` }),
        );
      } finally {
        signal.removeEventListener("abort", onAbort);
      }
    },
  };
}
