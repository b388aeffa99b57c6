// Google's Gemini image model ("nano-banana", gemini-2.5-flash-image by default) through the Gemini API's
// generateContent: one synchronous call whose answer carries the picture inline as base64. Google blocks
// in a 200 answer: a prompt block reason, or a candidate that finished for safety, is nsfw_content; an
// answer with no image for any other reason is a server_error worth another try. Gemini documents no
// seed for images, so none is sent and none is recorded, as for Replicate's nano-banana.
import { type AppError, appError, fail, ok, type Result } from "../errors.ts";
import { styledPrompt } from "../generation-options.ts";
import {
  classifyHttpStatus,
  dataUrlPayload,
  decodeBase64,
  DEFAULT_RETRY_AFTER_S,
  type FetchFn,
  providerFetch,
  readJson,
  retryAfterSeconds,
  trimBase,
} from "./provider-http.ts";
import type { ImageProvider, ProviderImage, ProviderInput } from "./types.ts";

export interface GeminiConfig {
  apiKey: string;
  /** Origin of the API (default https://generativelanguage.googleapis.com); `/v1beta/models/…` is appended. */
  baseUrl: string;
  model: string;
  fetch: FetchFn;
}

export const DEFAULT_GEMINI_MODEL = "gemini-2.5-flash-image";

/** Finish and block reasons that mean Google's policy stopped the picture (safety, prohibited, recitation). */
const POLICY = /SAFETY|PROHIBITED|BLOCKLIST|SPII|RECITATION/;

interface Part {
  text?: string;
  inlineData?: { mimeType?: string; data?: string };
  inline_data?: { mime_type?: string; data?: string };
}
interface GenerateContentResponse {
  candidates?: { content?: { parts?: Part[] }; finishReason?: string }[];
  promptFeedback?: { blockReason?: string };
}
interface GoogleError {
  error?: { code?: number; message?: string; status?: string; details?: { "@type"?: string; retryDelay?: string }[] };
}

/** The request: the prompt (and the reference image, which Gemini edits from), asking for an image back. */
export function geminiBody(input: ProviderInput): Record<string, unknown> {
  const ref = input.reference;
  return {
    contents: [
      {
        role: "user",
        parts: [
          { text: styledPrompt(input.prompt, input.style) },
          ...(ref ? [{ inlineData: { mimeType: ref.mimeType, data: dataUrlPayload(ref.dataUrl) } }] : []),
        ],
      },
    ],
    generationConfig: { responseModalities: ["TEXT", "IMAGE"], imageConfig: { aspectRatio: input.aspectRatio } },
  };
}

/**
 * Google's errors carry a canonical status: RESOURCE_EXHAUSTED is a per-minute or per-day limit (its words
 * say "quota" and "billing", which must not read as spent credit), retried after its RetryInfo delay.
 */
function classifyGoogleError(status: number, headers: Headers, text: string): AppError {
  let body: GoogleError = {};
  try {
    body = JSON.parse(text);
  } catch {
    /* the status alone decides */
  }
  const detail = `gemini: HTTP ${status} ${body.error?.status ?? ""} ${(body.error?.message ?? text).slice(0, 200)}`;
  if (status === 429 || body.error?.status === "RESOURCE_EXHAUSTED") {
    const delay = body.error?.details?.find((d) => typeof d.retryDelay === "string")?.retryDelay;
    const seconds = delay ? Number(/^(\d+(?:\.\d+)?)s$/.exec(delay)?.[1]) : NaN;
    const retryAfter = Number.isFinite(seconds) && seconds > 0 ?
      Math.ceil(seconds) :
      headers.has("retry-after") ?
      retryAfterSeconds(headers, "") :
      DEFAULT_RETRY_AFTER_S;
    return appError("rate_limit", { retryAfter, detail });
  }
  if (body.error?.status === "DEADLINE_EXCEEDED") return appError("timeout", { detail });
  // A refused key answers 400 INVALID_ARGUMENT (API_KEY_INVALID): our misconfiguration, like any other 4xx.
  return classifyHttpStatus(status, headers, text, "gemini");
}

function imageOf(answer: GenerateContentResponse): Result<Uint8Array> {
  const block = answer.promptFeedback?.blockReason;
  if (block) return fail(appError("nsfw_content", { detail: `gemini: prompt blocked (${block})` }));
  const candidate = answer.candidates?.[0];
  for (const part of candidate?.content?.parts ?? []) {
    const data = part.inlineData?.data ?? part.inline_data?.data;
    if (typeof data === "string" && data) {
      const bytes = decodeBase64(data);
      return bytes ? ok(bytes) : fail(appError("server_error", { detail: "gemini: unreadable inline image" }));
    }
  }
  const reason = candidate?.finishReason ?? "none";
  if (POLICY.test(reason)) return fail(appError("nsfw_content", { detail: `gemini: finished ${reason}` }));
  // NO_IMAGE, IMAGE_OTHER, or a text-only reply: the model may well draw on another try.
  return fail(
    appError("server_error", {
      message: "The image model answered without a picture. Please try again, or rephrase the prompt.",
      detail: `gemini: no image (finishReason ${reason})`,
    }),
  );
}

export function createGeminiProvider(config: GeminiConfig): ImageProvider {
  const url = `${trimBase(config.baseUrl)}/v1beta/models/${encodeURIComponent(config.model)}:generateContent`;
  return {
    id: "gemini",
    kind: "ai-model",
    model: () => config.model,
    async generate(input: ProviderInput, signal): Promise<Result<ProviderImage>> {
      const sent = await providerFetch(
        config.fetch,
        url,
        {
          method: "POST",
          headers: { "x-goog-api-key": config.apiKey, "Content-Type": "application/json" },
          body: JSON.stringify(geminiBody(input)),
        },
        signal,
        "gemini",
      );
      if (!sent.ok) return sent;
      const res = sent.value;
      if (!res.ok) {
        let text = "";
        try {
          text = (await res.text()).slice(0, 16_000);
        } catch {
          /* the status alone decides */
        }
        return fail(classifyGoogleError(res.status, res.headers, text));
      }
      const answer = await readJson(res, signal, "gemini");
      if (!answer.ok) return answer;
      const bytes = imageOf(answer.value as GenerateContentResponse);
      if (!bytes.ok) return bytes;
      return ok({ bytes: bytes.value, seed: null, model: config.model });
    },
  };
}
