// A self-hosted AUTOMATIC1111 or Forge WebUI started with `--api`: one blocking call to
// `/sdapi/v1/txt2img` (or `/img2img` from a reference image) that answers the picture as base64 and its
// parameters in `info`. Quality is the step count; the seed, the size and the negative prompt go as they
// are. Basic auth when the server was started with `--api-auth`. No content filter runs there.
import { appError, fail, ok, type Result } from "../errors.ts";
import { styledPrompt } from "../generation-options.ts";
import { decodeBase64, type FetchFn, fetchJson, trimBase } from "./provider-http.ts";
import { basicAuth, REFERENCE_DENOISE, type StepsByQuality } from "./self-hosted.ts";
import type { ImageProvider, ProviderImage, ProviderInput } from "./types.ts";

export interface A1111Config {
  /** The WebUI's address (e.g. http://127.0.0.1:7860), a proxy's path prefix included. */
  baseUrl: string;
  /** `user:password` for `--api-auth`, or null. */
  auth: string | null;
  /** A checkpoint title to draw with (`override_settings.sd_model_checkpoint`), or null for the loaded one. */
  checkpoint: string | null;
  steps: StepsByQuality;
  fetch: FetchFn;
}

const NAME = "automatic1111";
/** Classifier-free guidance for Stable Diffusion-class checkpoints (the WebUI's own default). */
const CFG_SCALE = 7;
/** img2img: crop the reference to the asked shape, then scale, so it is never stretched. */
const CROP_AND_RESIZE = 1;

interface A1111Answer {
  images?: unknown[];
  info?: unknown;
}

export function a1111Body(input: ProviderInput, config: Pick<A1111Config, "checkpoint" | "steps">) {
  return {
    prompt: styledPrompt(input.prompt, input.style),
    negative_prompt: input.negativePrompt,
    seed: input.seed,
    steps: config.steps[input.quality],
    cfg_scale: CFG_SCALE,
    width: input.width,
    height: input.height,
    batch_size: 1,
    n_iter: 1,
    send_images: true,
    save_images: false,
    ...(config.checkpoint ? { override_settings: { sd_model_checkpoint: config.checkpoint } } : {}),
    ...(input.reference ?
      {
        init_images: [input.reference.dataUrl],
        denoising_strength: REFERENCE_DENOISE,
        resize_mode: CROP_AND_RESIZE,
      } :
      {}),
  };
}

/** `info` is a JSON string holding the seed drawn with and the checkpoint's name. */
function infoOf(info: unknown): { seed?: unknown; sd_model_name?: unknown } {
  if (typeof info !== "string") return {};
  try {
    const parsed = JSON.parse(info);
    return parsed && typeof parsed === "object" ? parsed : {};
  } catch {
    return {};
  }
}

export function createA1111Provider(config: A1111Config): ImageProvider {
  const base = trimBase(config.baseUrl);
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    ...(config.auth ? { Authorization: basicAuth(config.auth) } : {}),
  };
  return {
    id: "a1111",
    kind: "ai-model",
    model: () => config.checkpoint ?? NAME,
    async generate(input, signal): Promise<Result<ProviderImage>> {
      const route = input.reference ? "img2img" : "txt2img";
      // The call blocks until the picture is drawn; the deadline's abort ends it.
      const answer = await fetchJson(
        config.fetch,
        `${base}/sdapi/v1/${route}`,
        { method: "POST", headers, body: JSON.stringify(a1111Body(input, config)) },
        signal,
        "a1111",
      );
      if (!answer.ok) return answer;
      const { images, info } = answer.value as A1111Answer;
      const first = images?.[0];
      if (typeof first !== "string" || !first) {
        return fail(appError("server_error", { detail: "a1111: no image in the answer" }));
      }
      const bytes = decodeBase64(first.startsWith("data:") ? first.slice(first.indexOf(",") + 1) : first);
      if (!bytes) return fail(appError("server_error", { detail: "a1111: unreadable base64 image" }));
      const parsed = infoOf(info);
      const seed = typeof parsed.seed === "number" && parsed.seed >= 0 ? parsed.seed : input.seed;
      const drawnWith = typeof parsed.sd_model_name === "string" && parsed.sd_model_name ? parsed.sd_model_name : null;
      return ok({ bytes, seed, model: config.checkpoint ?? drawnWith ?? NAME });
    },
  };
}
