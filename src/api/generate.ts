// The generate-image call (docs/architecture.md, "A generation, end to end"): sends one request with the
// client-minted request id and answers the stored row, a signed image URL and the quota after it, or the
// classified failure.
// A replay (the same id sent again after a reload) answers the stored row the same way, at no charge.
import type { AppliedCustomStyle } from "#shared/vocabulary/custom-styles.ts";
import type {
  GenerateImageAnswer,
  GenerateImageBody,
  GenerateImageDeleted,
} from "#shared/vocabulary/generate-image.ts";
import type { GenerationChoice } from "#shared/vocabulary/generation.ts";
import type { VaryKind } from "#shared/vocabulary/variations.ts";
import { err, ok, type Result } from "../lib/result";
import { deviceTimezone } from "../lib/time-zone";
import { supabase } from "./client";
import { toAppError, type AppError } from "./errors";

export type GenerateRequest = GenerationChoice & {
  requestId: string;
  seed: number | null;
  referenceImage?: string;
  provider?: string;
  /** The person's custom style as the task keeps it (decision 152): the server adds its words. */
  customStyle?: AppliedCustomStyle;
  /** The person's image this one varies (decision 155): the row links to it. */
  variation?: { parentId: string; kind: VaryKind };
};

/**
 * The function's answer, typed once for both sides (#shared/vocabulary/generate-image.ts): the stored
 * row, or, for a late retry of an image the person deleted since, that it is deleted.
 */
export type GenerateAnswer = GenerateImageAnswer | GenerateImageDeleted;

/** The shape of supabase-js `functions.invoke`, so tests can pass their own. */
export type InvokeFn = (
  name: string,
  options: { body: Record<string, unknown>; headers?: Record<string, string> },
) => Promise<{ data: unknown; error: unknown }>;

const defaultInvoke: InvokeFn = (name, options) => supabase().functions.invoke(name, options);

function isAnswer(data: unknown): data is GenerateAnswer {
  const d = data as Partial<GenerateImageAnswer & GenerateImageDeleted> | null;
  if (!d || typeof d !== "object" || !d.quota) return false;
  return Boolean((d.generation?.id && d.generation.image_url) || typeof d.deleted?.id === "string");
}

/** A FunctionsHttpError keeps the Response in `context`: read the `{ error: { code, ... } }` body. */
async function readFailure(error: unknown): Promise<unknown> {
  const context = (error as { context?: unknown } | null)?.context;
  if (!(context instanceof Response)) return error;
  try {
    const body = (await context.clone().json()) as unknown;
    return body && typeof body === "object" && "error" in body ? { ...body, status: context.status } : error;
  } catch {
    return { message: (error as Error).message, status: context.status };
  }
}

/** How a caller hears the send's progress: `onDrawn` as the server has made the image, before the answer. */
export type GenerateListeners = { onDrawn?: () => void };

/** How long the rest of a settled stream (its close, right behind the last event) is waited for. */
const DRAIN_MS = 5_000;

/**
 * Reads what follows the last event to the stream's end, off the caller's path: the server closes the
 * stream right after its last event, so this costs nothing, where a cancel would end the request as
 * aborted (over HTTP/1.1, with its connection). A stream that stays open past DRAIN_MS is cancelled.
 */
async function drain(reader: ReadableStreamDefaultReader<string>): Promise<void> {
  const timer = setTimeout(() => void reader.cancel().catch(() => undefined), DRAIN_MS);
  try {
    while (!(await reader.read()).done);
  } catch {
    // Broke off after the answer: nothing is lost.
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The answer as the function streams it to a caller that listens for `drawn` (its `streamed` in
 * handler.ts): `drawn`, `timing`, then `answer` or `error`. A stream that ends without either broke off
 * (the connection, the server, the platform's wall clock): a network error, so the send is made again
 * and the server replays it if it had stored it.
 */
async function readEvents(response: Response, onDrawn: () => void): Promise<Result<unknown, unknown>> {
  if (!response.body) return err({ message: "network error: the answer had no body" });
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return err({ message: "network error: the answer broke off" });
    buffered += value;
    let end: number;
    while ((end = buffered.indexOf("\n\n")) >= 0) {
      const block = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      const name = /^event: ?(.*)$/m.exec(block)?.[1]?.trim();
      const data = block
        .split("\n")
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).replace(/^ /, ""))
        .join("\n");
      if (name === "drawn") onDrawn();
      else if (name === "answer" || name === "error") {
        void drain(reader);
        const parsed = JSON.parse(data) as unknown;
        return name === "answer" ? ok(parsed) : err(parsed);
      }
    }
  }
}

export async function generateImage(
  request: GenerateRequest,
  invoke: InvokeFn = defaultInvoke,
  listeners: GenerateListeners = {},
): Promise<Result<GenerateAnswer, AppError>> {
  const body: GenerateImageBody = {
    request_id: request.requestId,
    prompt: request.prompt,
    negative_prompt: request.negativePrompt,
    style: request.style,
    quality: request.quality,
    aspect_ratio: request.aspectRatio,
    seed: request.seed,
    reference_image: request.referenceImage ?? null,
  };
  if (request.provider) body.provider = request.provider;
  if (request.customStyle) {
    const { id, name, prompt, negativePrompt } = request.customStyle;
    body.custom_style = { id, name, prompt, negative_prompt: negativePrompt };
  }
  if (request.variation) body.variation = { parent_id: request.variation.parentId, kind: request.variation.kind };
  const tz = deviceTimezone();
  try {
    const headers: Record<string, string> = {};
    if (tz) headers["x-timezone"] = tz;
    if (listeners.onDrawn) headers.Accept = "text/event-stream";
    const { data: first, error } = await invoke("generate-image", {
      body: { ...body },
      headers: Object.keys(headers).length ? headers : undefined,
    });
    if (error) return err(toAppError(await readFailure(error)));
    let data = first;
    if (first instanceof Response && listeners.onDrawn) {
      const streamed = await readEvents(first, listeners.onDrawn);
      if (!streamed.ok) return err(toAppError(streamed.error));
      data = streamed.value;
    }
    if (!isAnswer(data)) return err(toAppError({ message: "server error: unexpected answer", status: 502 }));
    return ok(data);
  } catch (e) {
    return err(toAppError(e));
  }
}
