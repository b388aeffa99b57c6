// The generate-image call (docs/architecture.md, "A generation, end to end"): sends one request with the
// client-minted request id and answers the stored row, a signed image URL and the quota after it, or the
// classified failure.
// A replay (the same id sent again after a reload) answers the stored row the same way, at no charge.
import type {
  GenerateImageAnswer,
  GenerateImageBody,
  GenerateImageDeleted,
} from "#shared/vocabulary/generate-image.ts";
import type { GenerationChoice } from "#shared/vocabulary/generation.ts";
import { err, ok, type Result } from "../lib/result";
import { supabase } from "./client";
import { toAppError, type AppError } from "./errors";

export type GenerateRequest = GenerationChoice & {
  requestId: string;
  seed: number | null;
  referenceImage?: string;
  provider?: string;
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

export async function generateImage(
  request: GenerateRequest,
  invoke: InvokeFn = defaultInvoke,
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
  const tz = timezone();
  try {
    const { data, error } = await invoke("generate-image", {
      body: { ...body },
      headers: tz ? { "x-timezone": tz } : undefined,
    });
    if (error) return err(toAppError(await readFailure(error)));
    if (!isAnswer(data)) return err(toAppError({ message: "server error: unexpected answer", status: 502 }));
    return ok(data);
  } catch (e) {
    return err(toAppError(e));
  }
}
