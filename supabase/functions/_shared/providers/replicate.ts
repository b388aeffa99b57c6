// Replicate adapter: official black-forest-labs models by quality (schnell / dev / 1.1-pro) and
// google/nano-banana for that style. Creates a prediction with `Prefer: wait`, falls back to polling
// `urls.get` when the model is not done in time, takes the first output (array or single URL) and
// downloads it before Replicate deletes it (1 hour).
import { appError, fail, ok, type Result } from "../errors.ts";
import { styledPrompt } from "../generation-options.ts";
import { classifyFailureText, downloadOutput, type FetchFn, fetchJson, trimBase } from "./provider-http.ts";
import { sleep } from "./sleep.ts";
import type { ImageProvider, ProviderImage, ProviderInput } from "./types.ts";

export interface ReplicateConfig {
  token: string;
  /** Origin of the API; `/v1/...` is appended (a trailing /v1 is accepted too). */
  baseUrl: string;
  pollIntervalMs: number;
  /** The generation's whole time budget; the prediction is told to cancel itself soon after it. */
  timeoutMs: number;
  fetch: FetchFn;
}

const MODEL_BY_QUALITY = {
  standard: "black-forest-labs/flux-schnell",
  high: "black-forest-labs/flux-dev",
  ultra: "black-forest-labs/flux-1.1-pro",
} as const;

const NANO_BANANA = "google/nano-banana";
/** Replicate holds a `Prefer: wait` request for at most 60 s. */
const MAX_WAIT_S = 60;
/** Replicate's smallest Cancel-After. */
const MIN_CANCEL_AFTER_S = 5;

interface Prediction {
  id?: string;
  status?: string;
  output?: unknown;
  error?: unknown;
  data_removed?: boolean;
  urls?: { get?: string; cancel?: string };
}

export function replicateModel(input: Pick<ProviderInput, "quality" | "style">): string {
  return input.style === "nano-banana" ? NANO_BANANA : MODEL_BY_QUALITY[input.quality];
}

/**
 * The prediction input each model's schema accepts (none of them takes a negative prompt). Every request
 * carries a seed (the person's, or one derived from the request id) and the stored seed must redraw the
 * same picture, so FLUX schnell/dev run with `go_fast: false` (their fast fp8 path is not deterministic)
 * and FLUX 1.1 Pro with `prompt_upsampling: false` (a language model would rewrite the prompt).
 */
export function replicateInput(model: string, input: ProviderInput): Record<string, unknown> {
  const prompt = styledPrompt(input.prompt, input.style);
  const ref = input.reference?.dataUrl;
  switch (model) {
    case MODEL_BY_QUALITY.standard:
      return {
        prompt,
        aspect_ratio: input.aspectRatio,
        num_outputs: 1,
        seed: input.seed,
        output_format: "png",
        go_fast: false,
      };
    case MODEL_BY_QUALITY.high:
      return {
        prompt,
        aspect_ratio: input.aspectRatio,
        num_outputs: 1,
        seed: input.seed,
        output_format: "png",
        go_fast: false,
        ...(ref ? { image: ref } : {}),
      };
    case MODEL_BY_QUALITY.ultra:
      return {
        prompt,
        aspect_ratio: input.aspectRatio,
        seed: input.seed,
        output_format: "png",
        prompt_upsampling: false,
        ...(ref ? { image_prompt: ref } : {}),
      };
    default:
      return { prompt, aspect_ratio: input.aspectRatio, output_format: "png", ...(ref ? { image_input: [ref] } : {}) };
  }
}

function firstOutput(output: unknown): string | null {
  if (typeof output === "string" && output) return output;
  if (Array.isArray(output)) return output.find((o): o is string => typeof o === "string" && o.length > 0) ?? null;
  return null;
}

type Step = { done: true; result: Result<string> } | { done: false };

function settle(p: Prediction): Step {
  const status = p.status ?? "";
  if (status === "failed") {
    return { done: true, result: fail(classifyFailureText(String(p.error ?? "prediction failed"), "replicate")) };
  }
  if (status === "canceled" || status === "aborted") {
    return { done: true, result: fail(appError("server_error", { detail: `replicate: prediction ${status}` })) };
  }
  // File outputs can arrive while the status still says processing.
  const url = firstOutput(p.output);
  if (url) return { done: true, result: ok(url) };
  if (status === "succeeded") {
    if (p.data_removed) {
      return {
        done: true,
        result: fail(
          appError("server_error", {
            message: "The generated image expired before it could be stored. Please try again.",
            detail: "replicate: data_removed",
          }),
        ),
      };
    }
    // The safety checker drops flagged images; an empty output means every image was dropped.
    return { done: true, result: fail(appError("nsfw_content", { detail: "replicate: succeeded with no output" })) };
  }
  return { done: false };
}

export function createReplicateProvider(config: ReplicateConfig): ImageProvider {
  const base = trimBase(config.baseUrl).replace(/\/v1$/, "");
  const auth = { Authorization: `Bearer ${config.token}` };
  // Half the budget for the held request leaves the other half to poll, download and cancel.
  const waitS = Math.min(MAX_WAIT_S, Math.max(1, Math.floor(config.timeoutMs / 2000)));
  const cancelAfterS = Math.max(MIN_CANCEL_AFTER_S, Math.ceil(config.timeoutMs / 1000));

  async function get(url: string, signal: AbortSignal): Promise<Result<Prediction>> {
    return (await fetchJson(config.fetch, url, { headers: auth }, signal, "replicate")) as Result<Prediction>;
  }

  function cancel(p: Prediction): void {
    const url = p.urls?.cancel;
    if (!url) return;
    // Best effort, after our own deadline: a prediction left running still costs money.
    config
      .fetch(url, { method: "POST", headers: auth, signal: AbortSignal.timeout(5_000) })
      .then((r) => r.body?.cancel())
      .catch(() => {});
  }

  async function run(model: string, input: ProviderInput, signal: AbortSignal): Promise<Result<string>> {
    const first = await fetchJson(
      config.fetch,
      `${base}/v1/models/${model}/predictions`,
      {
        method: "POST",
        headers: {
          ...auth,
          "Content-Type": "application/json",
          Prefer: `wait=${waitS}`,
          "Cancel-After": `${cancelAfterS}s`,
        },
        body: JSON.stringify({ input: replicateInput(model, input) }),
      },
      signal,
      "replicate",
    );
    if (!first.ok) return first;
    let prediction = first.value as Prediction;
    for (;;) {
      const step = settle(prediction);
      if (step.done) return step.result;
      const pollUrl = prediction.urls?.get;
      if (!pollUrl) {
        return fail(appError("server_error", { detail: "replicate: incomplete prediction has no urls.get" }));
      }
      if (!(await sleep(config.pollIntervalMs, signal))) {
        cancel(prediction);
        return fail(appError("timeout", { detail: "replicate: deadline reached while polling" }));
      }
      const next = await get(pollUrl, signal);
      if (!next.ok) {
        if (next.error.code === "timeout") cancel(prediction);
        return next;
      }
      prediction = next.value;
    }
  }

  return {
    id: "replicate",
    kind: "ai-model",
    model: (input) => replicateModel(input),
    async generate(input, signal): Promise<Result<ProviderImage>> {
      const model = replicateModel(input);
      const url = await run(model, input, signal);
      if (!url.ok) return url;
      const bytes = await downloadOutput(config.fetch, url.value, signal, "replicate");
      if (!bytes.ok) return bytes;
      return ok({ bytes: bytes.value, seed: model === NANO_BANANA ? null : input.seed, model });
    },
  };
}
