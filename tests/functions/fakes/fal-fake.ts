// A fake fal queue built from shared/reference/providers.md §5 (fal-ai/flux/schnell): a submit answering
// IN_QUEUE with its status, response and cancel URLs; a status that moves IN_QUEUE → IN_PROGRESS →
// COMPLETED; the result with `images[]` (media files that can expire) and `has_nsfw_concepts`; PUT
// cancel; FastAPI 422 `detail[]`; `Authorization: Key`; and the failures (401, 402/403 billing, 429 with
// or without Retry-After, 5xx, 504 user timeout, a failed request). FLUX with a seed is deterministic:
// same recipe and seed, same bytes.
import {
  type Check,
  type FakeServer,
  FileHost,
  json,
  solidPng,
  startFakeServer,
  tooManyRequests,
  validateBody,
} from "./fake-server.ts";
import { randomSeed, recipePng } from "./recipe-png.ts";

export type FalOutcome = "ok" | "nsfw" | "failed";

export interface FalModes {
  outcome: FalOutcome;
  /** Status polls a request needs before it is COMPLETED. */
  pollsToFinish: number;
  submitStatus?: 401 | 402 | 403 | 422 | 429 | 500 | 503 | 504;
  /** With submitStatus 504: marked as the caller's own timeout (`X-Fal-Request-Timeout-Type: user`). */
  userTimeout: boolean;
  retryAfter?: string;
  statusStatus?: 500 | 503;
  submitDelayMs: number;
}

export interface FalFake extends FakeServer {
  apiKey: string;
  modes: FalModes;
  files: FileHost;
  requests: Map<string, FalRequest>;
}

interface FalRequest {
  id: string;
  input: Record<string, unknown>;
  seed: number;
  polls: number;
  status: "IN_QUEUE" | "IN_PROGRESS" | "COMPLETED" | "CANCELLED";
}

const MODEL = "fal-ai/flux/schnell";
const SIZES: Record<string, [number, number]> = {
  square_hd: [1024, 1024],
  square: [512, 512],
  portrait_4_3: [768, 1024],
  portrait_16_9: [576, 1024],
  landscape_4_3: [1024, 768],
  landscape_16_9: [1024, 576],
};

const int = (min: number, max: number): Check => (v) =>
  Number.isInteger(v) && (v as number) >= min && (v as number) <= max ?
    null :
    `Input should be an integer from ${min} to ${max}`;
const bool: Check = (v) => (typeof v === "boolean" ? null : "Input should be a valid boolean");
const oneOf = (...values: string[]): Check => (v) =>
  values.includes(v as string) ? null : `Input should be ${values.join(", ")}`;
const imageSize: Check = (v) => {
  if (typeof v === "string") return SIZES[v] ? null : `Input should be ${Object.keys(SIZES).join(", ")}`;
  const s = v as { width?: unknown; height?: unknown } | null;
  return s && typeof s === "object" && int(256, 2048)(s.width) === null && int(256, 2048)(s.height) === null ?
    null :
    "Input should be a preset or {width, height} from 256 to 2048";
};
const SCHEMA: Record<string, Check> = {
  prompt: (v) => (typeof v === "string" && v.length > 0 ? null : "Field required"),
  image_size: imageSize,
  num_inference_steps: int(1, 12),
  seed: int(0, 2 ** 32),
  num_images: int(1, 4),
  enable_safety_checker: bool,
  output_format: oneOf("jpeg", "png"),
  sync_mode: bool,
  acceleration: oneOf("none", "regular", "high"),
};

/** fal's 422: the prompt is required. */
const validate = (body: unknown) =>
  validateBody(SCHEMA, body, {
    notObject: "Input should be an object",
    checkType: "value_error",
    required: ["prompt"],
  });

export function startFalFake(overrides: Partial<FalModes> = {}): FalFake {
  const apiKey = "fal-key-id:fal-key-secret";
  const modes: FalModes = { outcome: "ok", pollsToFinish: 2, userTimeout: false, submitDelayMs: 0, ...overrides };
  const files = new FileHost();
  const requests = new Map<string, FalRequest>();
  let base = "";
  const urlsOf = (id: string) => ({
    status_url: `${base}/fal-ai/flux/requests/${id}/status`,
    response_url: `${base}/fal-ai/flux/requests/${id}`,
    cancel_url: `${base}/fal-ai/flux/requests/${id}/cancel`,
  });

  function result(r: FalRequest): Response {
    if (modes.outcome === "failed") return json({ detail: "Internal server error" }, 500);
    const size = r.input.image_size ?? "landscape_4_3";
    const [w, h] = typeof size === "string" ?
      SIZES[size] :
      [(size as { width: number }).width, (size as { height: number }).height];
    const nsfw = modes.outcome === "nsfw";
    const png = nsfw ?
      solidPng(w, h, [0, 0, 0]) :
      recipePng(w, h, [MODEL, r.input.prompt, r.seed, w, h, r.input.num_inference_steps ?? 4]);
    const url = base + files.add(`${r.id}.png`, png);
    return json({
      images: [{ url, width: w, height: h, content_type: "image/png" }],
      timings: { inference: 0.31 },
      seed: r.seed,
      has_nsfw_concepts: [nsfw],
      prompt: r.input.prompt,
    });
  }

  const server = startFakeServer(async (req, url, body) => {
    const file = files.serve(url.pathname);
    if (file) return file;
    if (req.headers.get("authorization") !== `Key ${apiKey}`) {
      return json({ detail: "Invalid Key authorization header format" }, 401);
    }
    if (req.method === "POST" && url.pathname === `/${MODEL}`) {
      if (modes.submitDelayMs) await new Promise((r) => setTimeout(r, modes.submitDelayMs));
      switch (modes.submitStatus) {
        case 401:
          return json({ detail: "Invalid API key" }, 401);
        case 402:
          return json({ detail: "Insufficient credits" }, 402);
        case 403:
          return json(
            { detail: "User is locked. Reason: Exhausted balance. Top up your balance at fal.ai/dashboard/billing." },
            403,
          );
        case 422:
          return json(
            {
              detail: [{
                loc: ["body", "prompt"],
                msg: "String should have at most 10000 characters",
                type: "string_too_long",
              }],
            },
            422,
          );
        case 429:
          return tooManyRequests("Too many requests", modes.retryAfter);
        case 500:
        case 503:
          return json({ detail: "Service unavailable" }, modes.submitStatus);
        case 504:
          return json(
            { detail: "Request timed out" },
            504,
            modes.userTimeout ? { "X-Fal-Request-Timeout-Type": "user" } : {},
          );
      }
      const invalid = validate(body);
      if (invalid) return invalid;
      const input = body as Record<string, unknown>;
      const id = crypto.randomUUID();
      requests.set(id, {
        id,
        input,
        seed: Number.isInteger(input.seed) ? (input.seed as number) : randomSeed(),
        polls: 0,
        status: "IN_QUEUE",
      });
      return json({ request_id: id, status: "IN_QUEUE", queue_position: 0, ...urlsOf(id) });
    }
    const one = /^\/fal-ai\/flux\/requests\/([^/]+)(\/status|\/cancel)?$/.exec(url.pathname);
    const r = one ? requests.get(one[1]) : undefined;
    if (!one || !r) return json({ detail: "Request not found" }, 404);
    if (one[2] === "/cancel" && req.method === "PUT") {
      if (r.status === "COMPLETED") return json({ status: "ALREADY_COMPLETED" }, 400);
      r.status = "CANCELLED";
      return json({ status: "CANCELLATION_REQUESTED" }, 202);
    }
    if (one[2] === "/status" && req.method === "GET") {
      if (modes.statusStatus) return json({ detail: "Service unavailable" }, modes.statusStatus);
      if (r.status === "IN_QUEUE" || r.status === "IN_PROGRESS") {
        r.polls++;
        r.status = r.polls >= modes.pollsToFinish ? "COMPLETED" : "IN_PROGRESS";
      }
      const common = { request_id: r.id, response_url: urlsOf(r.id).response_url };
      if (r.status === "COMPLETED") {
        return json({
          ...common,
          status: "COMPLETED",
          logs: [],
          metrics: { inference_time: 0.31 },
          ...(modes.outcome === "failed" ? { error: "Internal server error", error_type: "internal_error" } : {}),
        });
      }
      return json({ ...common, status: r.status, queue_position: 0, logs: [{ message: "step", level: "INFO" }] }, 202);
    }
    if (!one[2] && req.method === "GET") {
      if (r.status !== "COMPLETED") return json({ detail: "Request is still in progress" }, 400);
      return result(r);
    }
    return json({ detail: "Method not allowed" }, 405);
  });
  base = server.url;
  return { ...server, apiKey, modes, files, requests };
}
