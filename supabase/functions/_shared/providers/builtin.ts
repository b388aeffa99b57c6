// The built-in engine as a provider: a deterministic procedural renderer, not an AI model. It is the
// default when no provider key is configured, so the product works with no account and no network.
// Its PNG carries the generation's recipe (recipe-metadata/png.ts) from the moment it is drawn.
import { appError, fail, ok, type Result } from "../errors.ts";
import { renderPng } from "../engine/render.ts";
import type { ImageProvider, ProviderImage } from "./types.ts";

export const BUILTIN_MODEL = "builtin-procedural-v1";

export type RenderFn = typeof renderPng;

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
        reference: ref ? { width: ref.width, height: ref.height, rgba: ref.rgba } : null,
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
      }).then((bytes) => ok<ProviderImage>({ bytes, seed: input.seed, model: BUILTIN_MODEL }));
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
