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
import type { GenerationRow } from "#shared/vocabulary/rows.ts";
import type { VaryKind } from "#shared/vocabulary/variations.ts";
import { err, ok, type Result } from "../lib/result";
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

function timezone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}

/**
 * The image the server made, before it is stored (decision 165): the file's bytes (its recipe written in)
 * and the row that is to record it. Shown and kept at once; withdrawn if the answer is a failure.
 */
export type DrawnImage = { generation: GenerationRow; image: Blob };

/**
 * How a caller hears the send's progress: `onDrawn` as the server has made the image, `onImage` with its
 * bytes a moment later, both before the answer.
 */
export type GenerateListeners = { onDrawn?: () => void; onImage?: (drawn: DrawnImage) => void };

/** The request header that asks for the image's bytes in the stream (the function's DRAWN_IMAGE_HEADER). */
const DRAWN_IMAGE_HEADER = "x-drawn-image";

/** The most bytes an image event may announce (the largest image an engine makes is far smaller). */
const MAX_DRAWN_BYTES = 64 * 1024 * 1024;

/** What the raw bytes after an `image` event are: the row to be stored, their type and length. */
type ImageHead = { generation: GenerationRow; type: string; length: number };

function imageHeadOf(data: string): ImageHead | undefined {
  try {
    const head = JSON.parse(data) as { generation?: GenerationRow; content_type?: unknown; length?: unknown };
    const { generation, content_type: type, length } = head;
    if (!generation?.id || typeof type !== "string" || !type.startsWith("image/")) return undefined;
    if (!Number.isInteger(length) || (length as number) <= 0 || (length as number) > MAX_DRAWN_BYTES) return undefined;
    return { generation, type, length: length as number };
  } catch {
    return undefined;
  }
}

/** Where the blank line ("\n\n") that ends an event starts in `bytes`, from `from`; -1 when not yet in. */
function eventEnd(bytes: Uint8Array, from: number): number {
  for (let i = bytes.indexOf(10, from); i >= 0 && i + 1 < bytes.length; i = bytes.indexOf(10, i + 1)) {
    if (bytes[i + 1] === 10) return i;
  }
  return -1;
}

/** An event's name and its data lines joined. */
function parseEvent(block: string): { name: string; data: string } {
  const lines = block.split("\n");
  const name =
    lines
      .find((line) => line.startsWith("event:"))
      ?.slice(6)
      .trim() ?? "message";
  const data = lines
    .filter((line) => line.startsWith("data:"))
    .map((line) => line.slice(5).replace(/^ /, ""))
    .join("\n");
  return { name, data };
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** How long the rest of a settled stream (its close, right behind the last event) is waited for. */
const DRAIN_MS = 5_000;

/**
 * Reads what follows the last event to the stream's end, off the caller's path: the server closes the
 * stream right after its last event, so this costs nothing, where a cancel would end the request as
 * aborted (over HTTP/1.1, with its connection). A stream that stays open past DRAIN_MS is cancelled.
 */
async function drain(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
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
 * handler.ts): `drawn`, `image` (when `onImage` listens: its head, then the image's raw bytes), `timing`,
 * then `answer` or `error`. Read as bytes: the events are text, the image is not. A stream that ends
 * without an answer or an error broke off (the connection, the server, the platform's wall clock): a
 * network error, so the send is made again and the server replays it if it had stored it.
 */
async function readEvents(response: Response, listeners: GenerateListeners): Promise<Result<unknown, unknown>> {
  if (!response.body) return err({ message: "network error: the answer had no body" });
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let rest: Uint8Array = new Uint8Array(0);
  // The image whose bytes are arriving: the parts in so far, and how many are still to come.
  let image: { head: ImageHead; parts: Uint8Array[]; left: number } | undefined;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return err({ message: "network error: the answer broke off" });
    const bytes = concat(rest, value);
    let at = 0;
    for (;;) {
      if (image) {
        const take = Math.min(image.left, bytes.length - at);
        image.parts.push(bytes.subarray(at, at + take));
        image.left -= take;
        at += take;
        if (image.left > 0) break;
        const { generation, type } = image.head;
        listeners.onImage?.({ generation, image: new Blob(image.parts as BlobPart[], { type }) });
        image = undefined;
      }
      const end = eventEnd(bytes, at);
      if (end < 0) break;
      const { name, data } = parseEvent(decoder.decode(bytes.subarray(at, end)));
      at = end + 2;
      if (name === "drawn") listeners.onDrawn?.();
      else if (name === "image") {
        const head = imageHeadOf(data);
        // Without its length the rest of the stream cannot be read.
        if (!head) return err({ message: "server error: an unreadable image in the answer", status: 502 });
        image = { head, parts: [], left: head.length };
      } else if (name === "answer" || name === "error") {
        void drain(reader);
        const parsed = JSON.parse(data) as unknown;
        return name === "answer" ? ok(parsed) : err(parsed);
      }
    }
    rest = bytes.subarray(at);
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
  const tz = timezone();
  try {
    const headers: Record<string, string> = {};
    if (tz) headers["x-timezone"] = tz;
    const streams = Boolean(listeners.onDrawn || listeners.onImage);
    if (streams) headers.Accept = "text/event-stream";
    if (listeners.onImage) headers[DRAWN_IMAGE_HEADER] = "bytes";
    const { data: first, error } = await invoke("generate-image", {
      body: { ...body },
      headers: Object.keys(headers).length ? headers : undefined,
    });
    if (error) return err(toAppError(await readFailure(error)));
    let data = first;
    if (first instanceof Response && streams) {
      const streamed = await readEvents(first, listeners);
      if (!streamed.ok) return err(toAppError(streamed.error));
      data = streamed.value;
    }
    if (!isAnswer(data)) return err(toAppError({ message: "server error: unexpected answer", status: 502 }));
    return ok(data);
  } catch (e) {
    return err(toAppError(e));
  }
}
