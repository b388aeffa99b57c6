// fal's queue API (queue.fal.run) running FLUX.1 [schnell]: submit, then follow the answer's own
// `status_url` until COMPLETED and read its `response_url`. Quality is the step count (4 / 8 / 12, the
// model's range is 1–12). `has_nsfw_concepts` marks an image the safety checker blacked out: nsfw_content.
// A request still queued or running at the deadline is cancelled through its `cancel_url`.
import { type AppError, appError, fail, ok, type Result } from "../errors.ts";
import { styledPrompt } from "../generation-options.ts";
import { finished, pending, type PollStep, pollUntilDone } from "./poll.ts";
import {
  classifyFailureText,
  classifyHttpError,
  downloadOutput,
  type FetchFn,
  fitSize,
  mayCarryKey,
  providerFetch,
  readJson,
  trimBase,
} from "./provider-http.ts";
import type { ImageProvider, ProviderImage, ProviderInput } from "./types.ts";

export interface FalConfig {
  /** fal's key (`key_id:key_secret`), sent as `Authorization: Key …`. */
  apiKey: string;
  /** Origin of the queue (default https://queue.fal.run); the model's path is appended. */
  baseUrl: string;
  pollIntervalMs: number;
  fetch: FetchFn;
}

export const FAL_MODEL = "fal-ai/flux/schnell";
const STEPS = { standard: 4, high: 8, ultra: 12 } as const;
/** fal's documented limits on custom sizes are unconfirmed; 256–2048 in steps of 16 holds every product size. */
const SIDES = { min: 256, max: 2048, multiple: 16 };
/** fal's hosts (the queue, its backup, the media CDN); only these, and the configured host, get our key. */
const FAL_HOSTS = [".fal.run", ".falrun.com", ".fal.ai"];

interface Queued {
  request_id?: string;
  status_url?: string;
  response_url?: string;
  cancel_url?: string;
}
interface QueueStatus {
  status?: string;
  error?: unknown;
}
interface FalOutput {
  images?: { url?: string }[];
  seed?: number;
  has_nsfw_concepts?: boolean[];
}

/**
 * The model's input. Schnell takes no negative prompt and no image; the checker stays on, and no
 * `acceleration` is asked for, so the seed redraws the same picture.
 */
export function falInput(input: ProviderInput): Record<string, unknown> {
  return {
    prompt: styledPrompt(input.prompt, input.style),
    image_size: fitSize(input.width, input.height, SIDES),
    num_inference_steps: STEPS[input.quality],
    seed: input.seed,
    num_images: 1,
    enable_safety_checker: true,
    output_format: "png",
  };
}

/** fal marks a 504 caused by the caller's own timeout; any other failure is classified as usual. */
async function classifyFal(res: Response): Promise<AppError> {
  if (res.status === 504 && /^user$/i.test(res.headers.get("x-fal-request-timeout-type") ?? "")) {
    await res.body?.cancel();
    return appError("timeout", { detail: "fal: request timeout (user)" });
  }
  return classifyHttpError(res, "fal");
}

export function createFalProvider(config: FalConfig): ImageProvider {
  const base = trimBase(config.baseUrl);
  const headers = { Authorization: `Key ${config.apiKey}`, accept: "application/json" };

  async function call(url: string, init: RequestInit, signal: AbortSignal): Promise<Result<unknown>> {
    if (!mayCarryKey(url, base, FAL_HOSTS)) {
      return fail(appError("server_error", { retryable: false, detail: "fal: queue URL on an unexpected host" }));
    }
    const sent = await providerFetch(
      config.fetch,
      url,
      { ...init, headers: { ...headers, ...init.headers } },
      signal,
      "fal",
    );
    if (!sent.ok) return sent;
    if (!sent.value.ok) return fail(await classifyFal(sent.value));
    return readJson(sent.value, signal, "fal");
  }

  function cancel(url: string | undefined): void {
    if (!url || !mayCarryKey(url, base, FAL_HOSTS)) return;
    // Best effort, after our own deadline: a request left in the queue still runs and costs money.
    config
      .fetch(url, { method: "PUT", headers, signal: AbortSignal.timeout(5_000) })
      .then((r) => r.body?.cancel())
      .catch(() => {});
  }

  async function run(input: ProviderInput, signal: AbortSignal): Promise<Result<FalOutput>> {
    const submitted = await call(
      `${base}/${FAL_MODEL}`,
      { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(falInput(input)) },
      signal,
    );
    if (!submitted.ok) return submitted;
    const queued = submitted.value as Queued;
    if (typeof queued.request_id !== "string" || !queued.request_id) {
      return fail(appError("server_error", { detail: "fal: submit answered no request_id" }));
    }
    // The answer's own URLs are used as given (status and result drop the model's last path segment).
    const requests = `${base}/${FAL_MODEL.split("/").slice(0, -1).join("/")}/requests/${queued.request_id}`;
    const statusUrl = queued.status_url ?? `${requests}/status`;
    const responseUrl = queued.response_url ?? requests;
    const onDeadline = () => cancel(queued.cancel_url ?? `${requests}/cancel`);

    const done = await pollUntilDone(async (): Promise<PollStep<true>> => {
      const polled = await call(statusUrl, { method: "GET" }, signal);
      if (!polled.ok) return finished(polled);
      const status = polled.value as QueueStatus;
      if (status.status !== "COMPLETED") return pending;
      if (status.error) return finished(fail(classifyFailureText(String(status.error), "fal")));
      return finished(ok(true));
    }, { intervalMs: config.pollIntervalMs, signal, provider: "fal", onDeadline });
    if (!done.ok) return done;
    const result = await call(responseUrl, { method: "GET" }, signal);
    return result as Result<FalOutput>;
  }

  return {
    id: "fal",
    kind: "ai-model",
    model: () => FAL_MODEL,
    async generate(input, signal): Promise<Result<ProviderImage>> {
      const output = await run(input, signal);
      if (!output.ok) return output;
      const { images, has_nsfw_concepts: flagged, seed } = output.value;
      // A flagged image is delivered blacked out: never store it.
      if (flagged?.[0] === true) return fail(appError("nsfw_content", { detail: "fal: has_nsfw_concepts" }));
      const url = images?.[0]?.url;
      if (typeof url !== "string" || !url) {
        return fail(appError("server_error", { detail: "fal: no image in the result" }));
      }
      const bytes = await downloadOutput(config.fetch, url, signal, "fal");
      if (!bytes.ok) return bytes;
      return ok({ bytes: bytes.value, seed: typeof seed === "number" ? seed : input.seed, model: FAL_MODEL });
    },
  };
}
