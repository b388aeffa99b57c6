// Black Forest Labs' own API (api.bfl.ai): FLUX.1 [dev] for standard and high quality (20 and 28 steps),
// FLUX 1.1 [pro] for ultra. Every task is asynchronous: the submit answers an id and a `polling_url`,
// which is followed as given (the global host hands tasks to regional ones) until the task is Ready; its
// `result.sample` URL lives 10 minutes, so it is downloaded at once. A moderated request or result is
// nsfw_content.
import { appError, fail, ok, type Result } from "../errors.ts";
import { styledPrompt } from "../generation-options.ts";
import { finished, pending, type PollStep, pollUntilDone } from "./poll.ts";
import {
  classifyFailureText,
  dataUrlPayload,
  downloadOutput,
  type FetchFn,
  fetchJson,
  fitSize,
  mayCarryKey,
  trimBase,
} from "./provider-http.ts";
import type { ImageProvider, ProviderImage, ProviderInput } from "./types.ts";

export interface BflConfig {
  apiKey: string;
  /** Origin of the API (default https://api.bfl.ai); `/v1/<model>` is appended. */
  baseUrl: string;
  pollIntervalMs: number;
  fetch: FetchFn;
}

const PLAN = {
  standard: { model: "flux-dev", steps: 20 },
  high: { model: "flux-dev", steps: 28 },
  ultra: { model: "flux-pro-1.1", steps: null },
} as const;

/** Both models take sides of 256–1440 px in multiples of 32. */
const SIDES = { min: 256, max: 1440, multiple: 32 };
/** BFL's default moderation level (0 strictest, 6 most permissive). */
const SAFETY_TOLERANCE = 2;
/** Hosts BFL answers polling URLs on (global, regional, legacy); only these, and the configured host, get our key. */
const BFL_HOSTS = [".bfl.ai", ".bfl.ml"];

interface Submitted {
  id?: string;
  polling_url?: string;
}
interface TaskResult {
  status?: string;
  result?: { sample?: string; seed?: number } | null;
  details?: unknown;
}
interface Drawn {
  url: string;
  seed: number | null;
}

export function bflModel(input: Pick<ProviderInput, "quality">): string {
  return PLAN[input.quality].model;
}

/**
 * The task body. Neither model takes a negative prompt or an image count; `prompt_upsampling` stays off,
 * since a language model rewriting the prompt would keep the seed from redrawing the same picture.
 */
export function bflBody(input: ProviderInput): Record<string, unknown> {
  const plan = PLAN[input.quality];
  return {
    prompt: styledPrompt(input.prompt, input.style),
    ...fitSize(input.width, input.height, SIDES),
    seed: input.seed,
    prompt_upsampling: false,
    safety_tolerance: SAFETY_TOLERANCE,
    output_format: "png",
    ...(plan.steps === null ? {} : { steps: plan.steps }),
    ...(input.reference ? { image_prompt: dataUrlPayload(input.reference.dataUrl) } : {}),
  };
}

function settle(task: TaskResult): PollStep<Drawn> {
  const status = task.status ?? "";
  if (status === "Ready") {
    const url = task.result?.sample;
    if (typeof url !== "string" || !url) {
      return finished(fail(appError("server_error", { detail: "bfl: Ready without result.sample" })));
    }
    const seed = typeof task.result?.seed === "number" ? task.result.seed : null;
    return finished(ok({ url, seed }));
  }
  if (status === "Request Moderated" || status === "Content Moderated") {
    return finished(fail(appError("nsfw_content", { detail: `bfl: ${status}` })));
  }
  if (status === "Error") {
    const text = typeof task.details === "string" ? task.details : JSON.stringify(task.details ?? "task failed");
    return finished(fail(classifyFailureText(text, "bfl")));
  }
  if (status === "Task not found") {
    // The id is unknown or expired: a new attempt submits a new task.
    return finished(fail(appError("server_error", { detail: "bfl: Task not found" })));
  }
  return pending;
}

export function createBflProvider(config: BflConfig): ImageProvider {
  const base = trimBase(config.baseUrl).replace(/\/v1$/, "");
  const headers = { "x-key": config.apiKey, accept: "application/json" };

  async function run(input: ProviderInput, signal: AbortSignal): Promise<Result<Drawn>> {
    const submitted = await fetchJson(
      config.fetch,
      `${base}/v1/${bflModel(input)}`,
      {
        method: "POST",
        headers: { ...headers, "Content-Type": "application/json" },
        body: JSON.stringify(bflBody(input)),
      },
      signal,
      "bfl",
    );
    if (!submitted.ok) return submitted;
    const task = submitted.value as Submitted;
    if (typeof task.id !== "string" || !task.id) {
      return fail(appError("server_error", { detail: "bfl: submit answered no id" }));
    }
    // Legacy hosts answered only the id; current ones a polling URL that must be used as it is.
    const pollUrl = task.polling_url ?? `${base}/v1/get_result?id=${encodeURIComponent(task.id)}`;
    if (!mayCarryKey(pollUrl, base, BFL_HOSTS)) {
      return fail(appError("server_error", { retryable: false, detail: "bfl: polling_url on an unexpected host" }));
    }
    return pollUntilDone(async () => {
      const polled = await fetchJson(config.fetch, pollUrl, { headers }, signal, "bfl");
      return polled.ok ? settle(polled.value as TaskResult) : finished(polled);
    }, { intervalMs: config.pollIntervalMs, signal, provider: "bfl" });
  }

  return {
    id: "bfl",
    kind: "ai-model",
    model: (input) => bflModel(input),
    async generate(input, signal): Promise<Result<ProviderImage>> {
      const drawn = await run(input, signal);
      if (!drawn.ok) return drawn;
      const bytes = await downloadOutput(config.fetch, drawn.value.url, signal, "bfl");
      if (!bytes.ok) return bytes;
      return ok({ bytes: bytes.value, seed: drawn.value.seed ?? input.seed, model: bflModel(input) });
    },
  };
}
