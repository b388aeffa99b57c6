// A fake Replicate API built from shared/reference/providers.md §1: official-model and version
// predictions, `Prefer: wait` (complete or incomplete), polling through starting → processing →
// succeeded, cancel, per-model input schemas with 422 invalid_fields, problem-JSON errors, output files
// that can expire, and every failure mode the adapter must classify.
import { type FakeServer, FileHost, json, solidPng, startFakeServer } from "./fake-server.ts";

export type ReplicateOutcome =
  | "succeeded"
  | "nsfw" // every image flagged by the safety checker
  | "sensitive" // proprietary model flagged the prompt (E005)
  | "oom" // E1001
  | "empty" // fewer outputs than asked: all dropped
  | "data_removed" // outputs deleted after the retention period
  | "canceled"
  | "aborted";

export interface ReplicateModes {
  /** Status forced on create; 429 uses `retryAfter` when set. */
  createStatus?: 401 | 402 | 429 | 500 | 503;
  retryAfter?: string;
  /** Status forced on every GET of a prediction. */
  getStatus?: 500 | 503;
  outcome: ReplicateOutcome;
  /** With Prefer: wait, answer an incomplete `processing` prediction instead of the final one. */
  incompleteWait: boolean;
  /** GETs a prediction needs before it finishes. */
  pollsToFinish: number;
  /** Delay before answering a create, to run past the adapter's deadline. */
  createDelayMs: number;
  /** Served as the output file instead of a PNG (e.g. an HTML error page). */
  outputBytes?: Uint8Array;
}

export interface ReplicateFake extends FakeServer {
  token: string;
  modes: ReplicateModes;
  files: FileHost;
  predictions: Map<string, Prediction>;
}

interface Prediction {
  id: string;
  model: string;
  version: string;
  input: Record<string, unknown>;
  status: string;
  output: unknown;
  error: string | null;
  data_removed: boolean;
  polls: number;
  created_at: string;
  urls: { get: string; cancel: string; web: string };
}

type Schema = Record<string, (v: unknown) => string | null>;

const ASPECTS = ["1:1", "16:9", "21:9", "3:2", "2:3", "4:5", "5:4", "3:4", "4:3", "9:16", "9:21"];
const SIZE: Record<string, [number, number]> = {
  "1:1": [1024, 1024],
  "16:9": [1344, 768],
  "9:16": [768, 1344],
  "21:9": [1536, 640],
  "3:2": [1216, 832],
  "2:3": [832, 1216],
  "4:5": [896, 1088],
  "5:4": [1088, 896],
  "3:4": [896, 1152],
  "4:3": [1152, 896],
  "9:21": [640, 1536],
};

const str = (v: unknown) => (typeof v === "string" ? null : "Must be a string");
const int = (min: number, max: number) => (v: unknown) =>
  !Number.isInteger(v) ?
    "Must be an integer" :
    (v as number) < min ?
    `Must be greater than or equal to ${min}` :
    (v as number) > max ?
    `Must be less than or equal to ${max}` :
    null;
const num = (min: number, max: number) => (v: unknown) =>
  typeof v !== "number" ? "Must be a number" : v < min || v > max ? `Must be between ${min} and ${max}` : null;
const oneOf = (...values: string[]) => (v: unknown) =>
  values.includes(v as string) ? null : `Must be one of: ${values.join(", ")}`;
const bool = (v: unknown) => (typeof v === "boolean" ? null : "Must be a boolean");
const uri = (v: unknown) => (typeof v === "string" && /^(https?:|data:)/.test(v) ? null : "Must be a URI");
const uris = (v: unknown) => (Array.isArray(v) && v.every((x) => uri(x) === null) ? null : "Must be an array of URIs");

const SCHNELL: Schema = {
  prompt: str,
  aspect_ratio: oneOf(...ASPECTS),
  num_outputs: int(1, 4),
  num_inference_steps: int(1, 4),
  seed: int(0, 2 ** 32),
  output_format: oneOf("webp", "jpg", "png"),
  output_quality: int(0, 100),
  disable_safety_checker: bool,
  go_fast: bool,
  megapixels: oneOf("1", "0.25"),
};
const SCHEMAS: Record<string, Schema> = {
  "black-forest-labs/flux-schnell": SCHNELL,
  "black-forest-labs/flux-dev": {
    ...SCHNELL,
    num_inference_steps: int(1, 50),
    image: uri,
    prompt_strength: num(0, 1),
    guidance: num(0, 10),
  },
  "black-forest-labs/flux-1.1-pro": {
    prompt: str,
    aspect_ratio: oneOf(...ASPECTS, "custom"),
    width: int(256, 1440),
    height: int(256, 1440),
    image_prompt: uri,
    safety_tolerance: int(1, 6),
    seed: int(0, 2 ** 32),
    prompt_upsampling: bool,
    output_format: oneOf("webp", "jpg", "png"),
    output_quality: int(0, 100),
  },
  "google/nano-banana": {
    prompt: str,
    image_input: uris,
    aspect_ratio: oneOf("match_input_image", ...ASPECTS),
    output_format: oneOf("jpg", "png"),
  },
};
const SINGLE_OUTPUT = new Set(["black-forest-labs/flux-1.1-pro", "google/nano-banana"]);

function problem(status: number, title: string, detail: string, extra: Record<string, unknown> = {}, headers = {}) {
  return json({ title, detail, status, ...extra }, status, headers);
}

function validate(model: string, input: unknown): Response | null {
  const schema = SCHEMAS[model];
  if (!input || typeof input !== "object") {
    return problem(422, "Input validation failed", "- input: Invalid type. Expected: object\n", {
      invalid_fields: [{ type: "invalid_type", field: "input", description: "Invalid type. Expected: object" }],
    });
  }
  const fields: { type: string; field: string; description: string }[] = [];
  const values = input as Record<string, unknown>;
  if (typeof values.prompt !== "string" || !values.prompt) {
    fields.push({ type: "required", field: "input.prompt", description: "prompt is required" });
  }
  for (const [key, value] of Object.entries(values)) {
    const check = schema[key];
    if (!check) {
      fields.push({
        type: "additional_property_not_allowed",
        field: `input.${key}`,
        description: "Additional property is not allowed",
      });
      continue;
    }
    const message = check(value);
    if (message) fields.push({ type: "invalid", field: `input.${key}`, description: message });
  }
  if (!fields.length) return null;
  return problem(422, "Input validation failed", fields.map((f) => `- ${f.field}: ${f.description}\n`).join(""), {
    invalid_fields: fields,
  });
}

export function startReplicateFake(overrides: Partial<ReplicateModes> = {}): ReplicateFake {
  const token = "r8_fake_token";
  const modes: ReplicateModes = {
    outcome: "succeeded",
    incompleteWait: false,
    pollsToFinish: 2,
    createDelayMs: 0,
    ...overrides,
  };
  const files = new FileHost();
  const predictions = new Map<string, Prediction>();
  let base = "";
  let counter = 0;

  function finish(p: Prediction) {
    const outcome = modes.outcome;
    if (outcome === "succeeded") {
      const n = SINGLE_OUTPUT.has(p.model) ? 1 : Number(p.input.num_outputs ?? 1);
      const [w, h] = SIZE[String(p.input.aspect_ratio ?? "1:1")] ?? SIZE["1:1"];
      const urls = Array.from(
        { length: n },
        (_, i) => base + files.add(`${p.id}-${i}.png`, modes.outputBytes ?? solidPng(w, h)),
      );
      p.status = "succeeded";
      p.output = SINGLE_OUTPUT.has(p.model) ? urls[0] : urls;
    } else if (outcome === "empty") {
      p.status = "succeeded";
      p.output = [];
    } else if (outcome === "data_removed") {
      p.status = "succeeded";
      p.output = null;
      p.data_removed = true;
    } else if (outcome === "canceled" || outcome === "aborted") {
      p.status = outcome;
    } else {
      p.status = "failed";
      p.error = outcome === "nsfw" ?
        "All generated images contained NSFW content. Try running it again with a different prompt." :
        outcome === "sensitive" ?
        "Prediction failed: The input or output was flagged as sensitive. Please try again with different inputs. (E005)" :
        "CUDA out of memory (E1001)";
    }
  }

  function view(p: Prediction) {
    const { polls: _polls, ...rest } = p;
    return rest;
  }

  function create(model: string, version: string, input: Record<string, unknown>, prefer: string | null) {
    const id = `fake${(++counter).toString(36)}${crypto.randomUUID().slice(0, 8)}`;
    const p: Prediction = {
      id,
      model,
      version,
      input,
      status: "starting",
      output: null,
      error: null,
      data_removed: false,
      polls: 0,
      created_at: new Date().toISOString(),
      urls: {
        get: `${base}/v1/predictions/${id}`,
        cancel: `${base}/v1/predictions/${id}/cancel`,
        web: `https://replicate.com/p/${id}`,
      },
    };
    predictions.set(id, p);
    if (prefer && /^wait(=\d+)?$/.test(prefer.trim())) {
      if (modes.incompleteWait) p.status = "processing";
      else finish(p);
    }
    return json(view(p), p.status === "succeeded" ? 201 : 201);
  }

  const server = startFakeServer(async (req, url, body) => {
    const file = files.serve(url.pathname);
    if (file) return file;
    if (req.headers.get("authorization") !== `Bearer ${token}`) {
      return problem(401, "Unauthenticated", "Invalid token.");
    }
    const path = url.pathname;
    const official = /^\/v1\/models\/([^/]+)\/([^/]+)\/predictions$/.exec(path);
    if (req.method === "POST" && (official || path === "/v1/predictions")) {
      if (modes.createDelayMs) await new Promise((r) => setTimeout(r, modes.createDelayMs));
      if (modes.createStatus === 402) {
        return problem(
          402,
          "Insufficient credit",
          "You have insufficient credit to run this model. Go to https://replicate.com/account/billing#billing to purchase credit. Once you purchase credit, please wait a few minutes before trying again.",
        );
      }
      if (modes.createStatus === 429) {
        return json(
          { detail: "Request was throttled. Your rate limit resets in ~30s." },
          429,
          modes.retryAfter ? { "Retry-After": modes.retryAfter } : {},
        );
      }
      if (modes.createStatus === 401) return problem(401, "Unauthenticated", "Invalid token.");
      if (modes.createStatus) return problem(modes.createStatus, "Internal Server Error", "Something went wrong");
      const b = body as Record<string, unknown> | null;
      if (!b || typeof b !== "object") return problem(400, "Bad request", "Body must be JSON");
      const allowed = new Set([
        "input",
        "webhook",
        "webhook_events_filter",
        "stream",
        ...(official ? [] : ["version"]),
      ]);
      const extra = Object.keys(b).filter((k) => !allowed.has(k));
      if (extra.length) {
        return problem(
          422,
          "Input validation failed",
          `- ${extra[0]}: Additional property ${extra[0]} is not allowed\n`,
          {
            invalid_fields: extra.map((k) => ({
              type: "additional_property_not_allowed",
              field: k,
              description: `Additional property ${k} is not allowed`,
            })),
          },
        );
      }
      let model: string;
      let version = "hidden";
      if (official) model = `${official[1]}/${official[2]}`;
      else {
        if (typeof b.version !== "string") {
          return problem(422, "Input validation failed", "- version: version is required\n", {
            invalid_fields: [{ type: "required", field: "version", description: "version is required" }],
          });
        }
        const [name, hash] = b.version.split(":");
        model = /^[0-9a-f]{64}$/.test(name) ? "black-forest-labs/flux-schnell" : name;
        version = hash ?? name;
      }
      if (!SCHEMAS[model]) {
        return problem(
          422,
          "Invalid version or not permitted",
          "The specified version does not exist (or perhaps you don't have permission to use it?)",
        );
      }
      const invalid = validate(model, b.input);
      if (invalid) return invalid;
      return create(model, version, b.input as Record<string, unknown>, req.headers.get("prefer"));
    }
    const one = /^\/v1\/predictions\/([^/]+)(\/cancel)?$/.exec(path);
    if (one) {
      const p = predictions.get(one[1]);
      if (!p) return problem(404, "Not found", "The requested resource could not be found.");
      if (one[2] && req.method === "POST") {
        if (p.status === "starting" || p.status === "processing") p.status = "canceled";
        return json(view(p));
      }
      if (req.method === "GET") {
        if (modes.getStatus) return problem(modes.getStatus, "Service Unavailable", "Try again later");
        if (p.status === "starting" || p.status === "processing") {
          p.polls++;
          if (p.polls >= modes.pollsToFinish) finish(p);
          else p.status = "processing";
        }
        return json(view(p));
      }
    }
    return problem(404, "Not found", "The requested resource could not be found.");
  });
  base = server.url;
  return { ...server, token, modes, files, predictions };
}
