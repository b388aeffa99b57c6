// A fake OpenAI Images API built from shared/reference/providers.md §3: /images/generations (JSON) and
// /images/edits (multipart), per-model size/n/quality rules, url (expiring) or b64_json answers,
// `{error:{message,type,param,code}}` errors and x-request-id on every answer.
import { type FakeServer, FileHost, json, solidPng, startFakeServer, toBase64 } from "./fake-server.ts";

export type OpenAiMode =
  | "ok"
  | "content_policy" // 400 content_policy_violation (DALL·E)
  | "moderation_blocked" // 400 moderation_blocked (GPT image)
  | "billing_limit" // 400 billing_hard_limit_reached
  | "insufficient_quota" // 429, not to be retried
  | "rate_limited" // 429 rate_limit_exceeded with retry-after
  | "server_error" // 500
  | "overloaded"; // 503

export interface OpenAiFake extends FakeServer {
  apiKey: string;
  files: FileHost;
  mode: { value: OpenAiMode; retryAfter: string };
}

const SIZES: Record<string, string[]> = {
  "dall-e-2": ["256x256", "512x512", "1024x1024"],
  "dall-e-3": ["1024x1024", "1792x1024", "1024x1792"],
  "gpt-image-1": ["1024x1024", "1536x1024", "1024x1536", "auto"],
};
const QUALITY: Record<string, string[]> = {
  "dall-e-2": ["standard"],
  "dall-e-3": ["standard", "hd"],
  "gpt-image-1": ["low", "medium", "high", "auto"],
};

function oaError(
  status: number,
  message: string,
  type: string,
  code: string | null,
  param: string | null = null,
  headers = {},
) {
  return json({ error: { message, type, param, code } }, status, headers);
}

/** The 400 OpenAI answers when a required parameter is absent or empty. */
const missingParameter = (param: string) =>
  oaError(400, `Missing required parameter: '${param}'.`, "invalid_request_error", "missing_required_parameter", param);

export function startOpenAiFake(initial: OpenAiMode = "ok"): OpenAiFake {
  const apiKey = "sk-fake-key";
  const files = new FileHost();
  const mode = { value: initial, retryAfter: "20" };
  let base = "";

  function failure(): Response | null {
    switch (mode.value) {
      case "content_policy":
        return oaError(
          400,
          "Your request was rejected as a result of our safety system. Your prompt may contain text that is not allowed by our safety system.",
          "invalid_request_error",
          "content_policy_violation",
        );
      case "moderation_blocked":
        return json(
          {
            error: {
              message: "Your request was rejected by the safety system.",
              type: "image_generation_user_error",
              param: null,
              code: "moderation_blocked",
              moderation_details: { moderation_stage: "input", categories: ["sexual"] },
            },
          },
          400,
        );
      case "billing_limit":
        return oaError(
          400,
          "Billing hard limit has been reached",
          "invalid_request_error",
          "billing_hard_limit_reached",
        );
      case "insufficient_quota":
        return oaError(
          429,
          "You exceeded your current quota, please check your plan and billing details.",
          "insufficient_quota",
          "insufficient_quota",
        );
      case "rate_limited":
        return oaError(
          429,
          "Rate limit reached for images per minute. Please try again in 20s.",
          "requests",
          "rate_limit_exceeded",
          null,
          {
            "retry-after": mode.retryAfter,
            "x-ratelimit-limit-requests": "5",
            "x-ratelimit-remaining-requests": "0",
            "x-ratelimit-reset-requests": "20s",
          },
        );
      case "server_error":
        return oaError(500, "The server had an error while processing your request.", "server_error", null);
      case "overloaded":
        return oaError(503, "The engine is currently overloaded, please try again later", "server_error", null);
      default:
        return null;
    }
  }

  function images(model: string, n: number, size: string, wantB64: boolean, prompt: string) {
    const [w, h] = size === "auto" ? [1024, 1024] : size.split("x").map(Number);
    const png = solidPng(w, h, [30, 160, 90]);
    const gpt = model.startsWith("gpt-image");
    const data = Array.from({ length: n }, () => {
      const item: Record<string, unknown> = gpt || wantB64 ?
        { b64_json: toBase64(png) } :
        { url: base + files.add(`${crypto.randomUUID()}.png`, png) };
      if (model === "dall-e-3") item.revised_prompt = `A detailed image of ${prompt}`;
      return item;
    });
    return json({
      created: Math.floor(Date.now() / 1000),
      data,
      ...(gpt ?
        {
          usage: {
            input_tokens: 20,
            input_tokens_details: { text_tokens: 20, image_tokens: 0 },
            output_tokens: 4160,
            total_tokens: 4180,
          },
        } :
        {}),
    });
  }

  function check(
    model: string,
    n: number,
    size: string,
    quality: string | undefined,
    responseFormat: string | undefined,
  ): Response | null {
    if (!SIZES[model]) {
      return oaError(404, `The model '${model}' does not exist`, "invalid_request_error", "model_not_found", "model");
    }
    if (!Number.isInteger(n) || n < 1 || n > 10 || (model === "dall-e-3" && n !== 1)) {
      return oaError(400, `Invalid 'n': ${n}.`, "invalid_request_error", "invalid_value", "n");
    }
    if (!SIZES[model].includes(size)) {
      return oaError(
        400,
        `'${size}' is not one of ${JSON.stringify(SIZES[model])} - 'size'`,
        "invalid_request_error",
        "invalid_value",
        "size",
      );
    }
    if (quality !== undefined && !QUALITY[model].includes(quality)) {
      return oaError(400, `Invalid quality '${quality}'.`, "invalid_request_error", "invalid_value", "quality");
    }
    if (
      responseFormat !== undefined &&
      (model.startsWith("gpt-image") || !["url", "b64_json"].includes(responseFormat))
    ) {
      return oaError(
        400,
        "Unknown parameter: 'response_format'.",
        "invalid_request_error",
        "unknown_parameter",
        "response_format",
      );
    }
    return null;
  }

  const server = startFakeServer((req, url, body) => {
    const requestId = `req_${crypto.randomUUID().replace(/-/g, "")}`;
    const withId = (res: Response) => {
      res.headers.set("x-request-id", requestId);
      return res;
    };
    const file = files.serve(url.pathname);
    if (file) return withId(file);
    if (req.headers.get("authorization") !== `Bearer ${apiKey}`) {
      return withId(
        oaError(
          401,
          "Incorrect API key provided: sk-***. You can find your API key at https://platform.openai.com/account/api-keys.",
          "invalid_request_error",
          "invalid_api_key",
        ),
      );
    }
    if (req.method === "POST" && url.pathname === "/v1/images/generations") {
      const b = body as Record<string, unknown> | null;
      if (!b || typeof b.prompt !== "string" || !b.prompt) {
        return withId(missingParameter("prompt"));
      }
      const model = (b.model as string | undefined) ?? "dall-e-2";
      const n = (b.n as number | undefined) ?? 1;
      const size = (b.size as string | undefined) ?? "1024x1024";
      const invalid = check(model, n, size, b.quality as string | undefined, b.response_format as string | undefined);
      if (invalid) return withId(invalid);
      const failed = failure();
      if (failed) return withId(failed);
      return withId(images(model, n, size, b.response_format === "b64_json", b.prompt));
    }
    if (req.method === "POST" && url.pathname === "/v1/images/edits") {
      if (!(body instanceof FormData)) {
        return withId(oaError(400, "Expected multipart/form-data.", "invalid_request_error", "invalid_request"));
      }
      const model = (body.get("model") as string | null) ?? "dall-e-2";
      if (model === "dall-e-3") {
        return withId(
          oaError(
            400,
            "Invalid value: 'dall-e-3'. Value must be 'dall-e-2' or a GPT image model.",
            "invalid_request_error",
            "invalid_value",
            "model",
          ),
        );
      }
      const image = body.getAll("image").concat(body.getAll("image[]"));
      if (!image.length) return withId(missingParameter("image"));
      const prompt = body.get("prompt");
      if (typeof prompt !== "string" || !prompt) {
        return withId(missingParameter("prompt"));
      }
      const failed = failure();
      if (failed) return withId(failed);
      return withId(
        images(
          model,
          Number(body.get("n") ?? 1),
          (body.get("size") as string | null) ?? "1024x1024",
          body.get("response_format") === "b64_json",
          prompt,
        ),
      );
    }
    return withId(oaError(404, `Invalid URL (${req.method} ${url.pathname})`, "invalid_request_error", null));
  });
  base = server.url;
  return { ...server, apiKey, files, mode };
}
