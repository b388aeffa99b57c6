// Runware adapter: one imageInference task per request (REST, synchronous delivery), FLUX schnell for
// standard quality and FLUX dev above it, the NSFW check switched on, PNG output by URL. Errors come as
// `errors[]` with codes that are classified before the HTTP status is.
import { type AppError, appError, fail, ok, type Result } from "../errors.ts";
import { styledPrompt } from "../generation-options.ts";
import {
  classifyFailureText,
  classifyHttpStatus,
  decodeBase64,
  downloadOutput,
  type FetchFn,
  providerFetch,
  trimBase,
} from "./provider-http.ts";
import type { ImageProvider, ProviderImage, ProviderInput } from "./types.ts";

export interface RunwareConfig {
  apiKey: string;
  /** Origin of the API; `/v1` is appended (a trailing /v1 is accepted too). */
  baseUrl: string;
  fetch: FetchFn;
  newTaskId?: () => string;
}

const MODEL_BY_QUALITY = { standard: "runware:100@1", high: "runware:101@1", ultra: "runware:101@1" } as const;
/** How strongly an img2img result may depart from the reference (Runware's documented default). */
const REFERENCE_STRENGTH = 0.8;

interface RunwareError {
  code?: string;
  message?: string;
  taskUUID?: string;
}
interface RunwareResult {
  taskUUID?: string;
  imageURL?: string;
  imageDataURI?: string;
  imageBase64Data?: string;
  seed?: number;
  NSFWContent?: boolean;
}

export function runwareTask(input: ProviderInput, taskUUID: string): Record<string, unknown> {
  return {
    taskType: "imageInference",
    taskUUID,
    positivePrompt: styledPrompt(input.prompt, input.style),
    ...(input.negativePrompt ? { negativePrompt: input.negativePrompt } : {}),
    model: MODEL_BY_QUALITY[input.quality],
    width: input.width,
    height: input.height,
    numberResults: 1,
    seed: input.seed,
    outputType: "URL",
    outputFormat: "PNG",
    checkNSFW: true,
    ...(input.reference ? { seedImage: input.reference.dataUrl, strength: REFERENCE_STRENGTH } : {}),
  };
}

function classifyCode(err: RunwareError): AppError | null {
  const code = err.code ?? "";
  const detail = `runware: ${code} ${err.message ?? ""}`.slice(0, 240);
  if (/insufficientCredits/i.test(code)) return appError("insufficient_credits", { detail });
  if (/timeout/i.test(code)) return appError("timeout", { detail });
  if (/invalidApiKey|apiKey|unauthori[sz]ed|forbidden/i.test(code)) {
    return appError("server_error", { retryable: false, detail });
  }
  if (/nsfw|contentPolicy|safety/i.test(code)) return appError("nsfw_content", { detail });
  if (code || err.message) {
    const byText = classifyFailureText(`${code} ${err.message ?? ""}`, "runware");
    if (byText.code !== "server_error") return byText;
  }
  return null;
}

function errorsOf(body: unknown): RunwareError[] {
  const errors = (body as { errors?: unknown; error?: unknown })?.errors;
  if (Array.isArray(errors)) return errors as RunwareError[];
  const single = (body as { error?: unknown })?.error;
  return single && typeof single === "object" ? [single as RunwareError] : [];
}

export function createRunwareProvider(config: RunwareConfig): ImageProvider {
  const endpoint = `${trimBase(config.baseUrl).replace(/\/v1$/, "")}/v1`;
  const newTaskId = config.newTaskId ?? (() => crypto.randomUUID());

  async function infer(input: ProviderInput, signal: AbortSignal): Promise<Result<RunwareResult>> {
    const taskUUID = newTaskId();
    const sent = await providerFetch(
      config.fetch,
      endpoint,
      {
        method: "POST",
        headers: { Authorization: `Bearer ${config.apiKey}`, "Content-Type": "application/json" },
        body: JSON.stringify([runwareTask(input, taskUUID)]),
      },
      signal,
      "runware",
    );
    if (!sent.ok) return sent;
    const res = sent.value;
    let text: string;
    try {
      text = await res.text();
    } catch {
      return fail(signal.aborted ? appError("timeout") : appError("network_error", { detail: "runware: body lost" }));
    }
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      /* classified by status below */
    }
    const errors = errorsOf(body).filter((e) => !e.taskUUID || e.taskUUID === taskUUID);
    if (!res.ok) {
      const byCode = errors.map(classifyCode).find((e) => e !== null);
      return fail(byCode ?? classifyHttpStatus(res.status, res.headers, text, "runware"));
    }
    const data = (body as { data?: unknown })?.data;
    const result = Array.isArray(data) ?
      (data as RunwareResult[]).find(
        (d) => d.taskUUID === taskUUID && (d.imageURL || d.imageDataURI || d.imageBase64Data),
      ) :
      undefined;
    if (result) return ok(result);
    if (errors.length) {
      return fail(classifyCode(errors[0]) ?? appError("server_error", { detail: `runware: ${errors[0].code}` }));
    }
    return fail(appError("server_error", { detail: "runware: no result for the task" }));
  }

  return {
    id: "runware",
    kind: "ai-model",
    model: (input) => MODEL_BY_QUALITY[input.quality],
    async generate(input, signal): Promise<Result<ProviderImage>> {
      const result = await infer(input, signal);
      if (!result.ok) return result;
      const r = result.value;
      if (r.NSFWContent === true) return fail(appError("nsfw_content", { detail: "runware: NSFWContent" }));
      let bytes: Result<Uint8Array>;
      if (r.imageBase64Data) {
        const decoded = decodeBase64(r.imageBase64Data);
        bytes = decoded ? ok(decoded) : fail(appError("server_error", { detail: "runware: bad base64" }));
      } else {
        bytes = await downloadOutput(config.fetch, (r.imageURL ?? r.imageDataURI)!, signal, "runware");
      }
      if (!bytes.ok) return bytes;
      const seed = typeof r.seed === "number" ? r.seed : input.seed;
      return ok({ bytes: bytes.value, seed, model: MODEL_BY_QUALITY[input.quality] });
    },
  };
}
