// A fake Gemini API built from shared/reference/providers.md §7: `POST /v1beta/models/{model}:generateContent`
// behind `x-goog-api-key` (or `?key=`), answering parts of text and camelCase `inlineData` PNG; the 200
// answers that carry no image (a prompt block reason, a candidate finished IMAGE_SAFETY or NO_IMAGE, a
// text-only reply); Google's error bodies (400 API_KEY_INVALID, 400 FAILED_PRECONDITION, 403, 404, 429
// RESOURCE_EXHAUSTED with RetryInfo, 500, 503, 504); and a slow mode. Gemini promises no determinism, so
// every answer is a new picture.
import { type FakeServer, json, startFakeServer, toBase64 } from "./fake-server.ts";
import { recipePng } from "./recipe-png.ts";

export type GeminiMode =
  | "ok"
  | "prompt_blocked" // promptFeedback.blockReason PROHIBITED_CONTENT, no candidates
  | "image_safety" // finishReason IMAGE_SAFETY, no image part
  | "no_image" // finishReason NO_IMAGE
  | "text_only" // the model answered in words only
  | "billing" // 400 FAILED_PRECONDITION
  | "permission" // 403 PERMISSION_DENIED
  | "rate_limited" // 429 RESOURCE_EXHAUSTED with RetryInfo
  | "internal" // 500 INTERNAL
  | "unavailable" // 503 UNAVAILABLE
  | "deadline"; // 504 DEADLINE_EXCEEDED

export interface GeminiFake extends FakeServer {
  apiKey: string;
  mode: { value: GeminiMode; delayMs: number; retryDelay: string };
}

const MODELS = new Set(["gemini-2.5-flash-image", "gemini-3-pro-image-preview", "gemini-3.1-flash-image-preview"]);
const SIZES: Record<string, [number, number]> = {
  "1:1": [1024, 1024],
  "2:3": [832, 1248],
  "3:2": [1248, 832],
  "3:4": [864, 1184],
  "4:3": [1184, 864],
  "9:16": [768, 1344],
  "16:9": [1344, 768],
  "21:9": [1536, 672],
};

function googleError(code: number, status: string, message: string, details: unknown[] = []): Response {
  return json({ error: { code, message, status, details } }, code);
}

const invalid = (message: string) => googleError(400, "INVALID_ARGUMENT", message);

export function startGeminiFake(initial: GeminiMode = "ok"): GeminiFake {
  const apiKey = "AIza-fake-key";
  const mode = { value: initial, delayMs: 0, retryDelay: "27s" };
  let drawn = 0;

  const server = startFakeServer(async (req, url, body) => {
    const route = /^\/v1beta\/models\/([^/:]+):generateContent$/.exec(url.pathname);
    if (req.method !== "POST" || !route) return googleError(404, "NOT_FOUND", "Not found");
    const key = req.headers.get("x-goog-api-key") ?? url.searchParams.get("key");
    if (key !== apiKey) {
      return googleError(400, "INVALID_ARGUMENT", "API key not valid. Please pass a valid API key.", [
        { "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "API_KEY_INVALID", domain: "googleapis.com" },
      ]);
    }
    if (!MODELS.has(route[1])) {
      return googleError(404, "NOT_FOUND", `models/${route[1]} is not found for API version v1beta`);
    }
    if (mode.delayMs) await new Promise((r) => setTimeout(r, mode.delayMs));
    switch (mode.value) {
      case "billing":
        return googleError(
          400,
          "FAILED_PRECONDITION",
          "Gemini API free tier is not available in your country. Please enable billing on your project in Google AI Studio.",
        );
      case "permission":
        return googleError(403, "PERMISSION_DENIED", "Method doesn't allow unregistered callers.");
      case "rate_limited":
        return googleError(
          429,
          "RESOURCE_EXHAUSTED",
          "You exceeded your current quota, please check your plan and billing details.",
          [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: mode.retryDelay }],
        );
      case "internal":
        return googleError(500, "INTERNAL", "An internal error has occurred.");
      case "unavailable":
        return googleError(503, "UNAVAILABLE", "The model is overloaded. Please try again later.");
      case "deadline":
        return googleError(504, "DEADLINE_EXCEEDED", "Deadline expired before operation could complete.");
    }
    const b = body as {
      contents?: { parts?: { text?: unknown; inlineData?: unknown; inline_data?: unknown }[] }[];
      generationConfig?: { responseModalities?: string[]; imageConfig?: { aspectRatio?: string } };
    } | null;
    const parts = b?.contents?.[0]?.parts;
    if (!Array.isArray(parts) || !parts.length) {
      return invalid("* GenerateContentRequest.contents: contents is not specified");
    }
    const text = parts.map((p) => (typeof p.text === "string" ? p.text : "")).join(" ").trim();
    if (!text) return invalid("* GenerateContentRequest.contents[0].parts: a text part is required");
    const aspect = b?.generationConfig?.imageConfig?.aspectRatio ?? "1:1";
    if (!SIZES[aspect]) return invalid(`* GenerationConfig.image_config.aspect_ratio: unsupported value ${aspect}`);
    const wantsImage = b?.generationConfig?.responseModalities?.includes("IMAGE") ?? false;
    const usageMetadata = { promptTokenCount: 12, candidatesTokenCount: 1290, totalTokenCount: 1302 };
    if (mode.value === "prompt_blocked") {
      return json({ promptFeedback: { blockReason: "PROHIBITED_CONTENT" }, usageMetadata });
    }
    if (mode.value === "image_safety" || mode.value === "no_image") {
      return json({
        candidates: [{ content: { role: "model", parts: [] }, finishReason: mode.value.toUpperCase(), index: 0 }],
        usageMetadata,
      });
    }
    if (mode.value === "text_only" || !wantsImage) {
      return json({
        candidates: [{
          content: { role: "model", parts: [{ text: "I can describe that scene, but I won't draw it." }] },
          finishReason: "STOP",
          index: 0,
        }],
        usageMetadata,
      });
    }
    const [w, h] = SIZES[aspect];
    const png = recipePng(w, h, [route[1], text, ++drawn]);
    return json({
      candidates: [{
        content: {
          role: "model",
          parts: [{ text: "Here is your image." }, { inlineData: { mimeType: "image/png", data: toBase64(png) } }],
        },
        finishReason: "STOP",
        index: 0,
      }],
      usageMetadata,
      modelVersion: route[1],
    });
  });
  return { ...server, apiKey, mode };
}
