// A fake Black Forest Labs API built from shared/reference/providers.md §4: `POST /v1/flux-pro-1.1` and
// `/v1/flux-dev` behind `x-key`, FastAPI 422 `detail[]` for out-of-range inputs, a `polling_url` on a
// second server (another port, another path, as the global host hands tasks to a regional one),
// `get_result` cycling Pending → Ready, sample URLs that 404 after their lifetime, the moderated and failed
// endings, and the submit failures (402 credits, 429 past the active-task limit, 5xx). Same recipe and
// seed, same bytes: FLUX with a seed is deterministic.
import { type Check, type FakeServer, json, startFakeServer, tooManyRequests, validateBody } from "./fake-server.ts";
import { randomSeed, recipePng } from "./recipe-png.ts";

export type BflOutcome = "ready" | "request_moderated" | "content_moderated" | "error" | "task_not_found";

export interface BflModes {
  outcome: BflOutcome;
  /** Polls a task needs before it ends. */
  pollsToFinish: number;
  /** Status forced on submit; 429 carries `retryAfter` as Retry-After when set. */
  submitStatus?: 401 | 402 | 403 | 422 | 429 | 500 | 503;
  retryAfter?: string;
  /** Status forced on every poll. */
  pollStatus?: 500 | 503;
  /** How long a sample URL is served (BFL: 10 minutes). */
  sampleTtlMs: number;
  /** Most tasks Pending at once before a submit is refused with 429 (BFL: 24). */
  maxActive: number;
  /** Delay before answering a submit, to run past the adapter's deadline. */
  submitDelayMs: number;
  /** Where the submit answer says to poll; the regional server by default. */
  pollingUrl?: (id: string) => string;
}

interface Task {
  id: string;
  model: string;
  body: Record<string, unknown>;
  seed: number;
  polls: number;
  status: string;
  sample: string | null;
}

export interface BflFake {
  url: string;
  /** The regional server: polling and delivery. */
  region: FakeServer;
  apiKey: string;
  modes: BflModes;
  tasks: Map<string, Task>;
  received: FakeServer["received"];
  close(): Promise<void>;
}

const int = (min: number, max: number): Check => (v) =>
  !Number.isInteger(v) ?
    "Input should be a valid integer" :
    (v as number) < min ?
    `Input should be greater than or equal to ${min}` :
    (v as number) > max ?
    `Input should be less than or equal to ${max}` :
    null;
const side: Check = (v) => int(256, 1440)(v) ?? ((v as number) % 32 ? "Input should be a multiple of 32" : null);
const str: Check = (v) => (typeof v === "string" ? null : "Input should be a valid string");
const bool: Check = (v) => (typeof v === "boolean" ? null : "Input should be a valid boolean");
const num = (min: number, max: number): Check => (v) =>
  typeof v !== "number" ?
    "Input should be a valid number" :
    v < min || v > max ?
    `Input should be ${min}–${max}` :
    null;
const oneOf = (...values: string[]): Check => (v) =>
  values.includes(v as string) ? null : `Input should be ${values.map((x) => `'${x}'`).join(" or ")}`;

const PRO: Record<string, Check> = {
  prompt: str,
  image_prompt: str,
  width: side,
  height: side,
  prompt_upsampling: bool,
  seed: int(0, 2 ** 32),
  safety_tolerance: int(0, 6),
  output_format: oneOf("jpeg", "png", "webp"),
  webhook_url: str,
  webhook_secret: str,
};
const SCHEMAS: Record<string, Record<string, Check>> = {
  "flux-pro-1.1": PRO,
  "flux-dev": { ...PRO, steps: int(1, 50), guidance: num(1.5, 5) },
};

/** FastAPI's validation answer, as BFL words it. */
const validate = (schema: Record<string, Check>, body: unknown) =>
  validateBody(schema, body, { notObject: "Input should be a valid dictionary", checkType: "value_error" });

export function startBflFake(overrides: Partial<BflModes> = {}): BflFake {
  const apiKey = "bfl-fake-key";
  const modes: BflModes = {
    outcome: "ready",
    pollsToFinish: 2,
    sampleTtlMs: 60_000,
    maxActive: 24,
    submitDelayMs: 0,
    ...overrides,
  };
  const tasks = new Map<string, Task>();
  const samples = new Map<string, { bytes: Uint8Array; expiresAt: number }>();
  const authorised = (req: Request) => req.headers.get("x-key") === apiKey;
  const denied = () => json({ detail: "Not authenticated" }, 401);

  function finish(task: Task, regionUrl: string) {
    switch (modes.outcome) {
      case "ready": {
        const w = Number(task.body.width ?? 1024);
        const h = Number(task.body.height ?? 768);
        const bytes = recipePng(w, h, [task.model, task.body.prompt, task.seed, w, h, task.body.steps ?? null]);
        samples.set(task.id, { bytes, expiresAt: Date.now() + modes.sampleTtlMs });
        task.status = "Ready";
        task.sample = `${regionUrl}/delivery/${task.id}/sample.png?se=signed`;
        return;
      }
      case "request_moderated":
        task.status = "Request Moderated";
        return;
      case "content_moderated":
        task.status = "Content Moderated";
        return;
      case "error":
        task.status = "Error";
        return;
      case "task_not_found":
        tasks.delete(task.id);
    }
  }

  const region = startFakeServer((req, url) => {
    const delivery = /^\/delivery\/([^/]+)\/sample\.png$/.exec(url.pathname);
    if (delivery) {
      const sample = samples.get(delivery[1]);
      if (!sample || Date.now() > sample.expiresAt) return new Response("Not Found", { status: 404 });
      return new Response(sample.bytes as Uint8Array<ArrayBuffer>, { headers: { "content-type": "image/png" } });
    }
    if (req.method === "GET" && url.pathname === "/v1/get_result") {
      if (!authorised(req)) return denied();
      if (modes.pollStatus) return json({ detail: "Service temporarily unavailable" }, modes.pollStatus);
      const id = url.searchParams.get("id") ?? "";
      const task = tasks.get(id);
      if (!task) return json({ id, status: "Task not found" });
      if (task.status === "Pending") {
        task.polls++;
        if (task.polls >= modes.pollsToFinish) finish(task, region.url);
      }
      const current = tasks.get(id);
      if (!current) return json({ id, status: "Task not found" });
      return json({
        id,
        status: current.status,
        result: current.status === "Ready" ?
          { sample: current.sample, prompt: current.body.prompt, seed: current.seed } :
          null,
        progress: current.status === "Pending" ? Math.min(0.9, current.polls / modes.pollsToFinish) : null,
        details: current.status === "Request Moderated" || current.status === "Content Moderated" ?
          { "Moderation Reasons": ["Derivative Works"] } :
          current.status === "Error" ?
          "Internal error while generating the image" :
          null,
        preview: null,
      });
    }
    return json({ detail: "Not Found" }, 404);
  });

  const api = startFakeServer(async (req, url, body) => {
    const model = /^\/v1\/([a-z0-9.-]+)$/.exec(url.pathname)?.[1];
    if (req.method !== "POST" || !model || !SCHEMAS[model]) return json({ detail: "Not Found" }, 404);
    if (!authorised(req)) return denied();
    if (modes.submitDelayMs) await new Promise((r) => setTimeout(r, modes.submitDelayMs));
    switch (modes.submitStatus) {
      case 401:
        return denied();
      case 402:
        return json({ detail: "Insufficient credits. Add credits at https://dashboard.bfl.ai" }, 402);
      case 403:
        return json({ detail: "This API key does not have permission for this endpoint" }, 403);
      case 422:
        return json({
          detail: [{ loc: ["body", "width"], msg: "Input should be a multiple of 32", type: "value_error" }],
        }, 422);
      case 429:
        return tooManyRequests("Too many active tasks", modes.retryAfter);
      case 500:
      case 503:
        return json({ detail: "Internal Server Error" }, modes.submitStatus);
    }
    const invalid = validate(SCHEMAS[model], body);
    if (invalid) return invalid;
    const active = [...tasks.values()].filter((t) => t.status === "Pending").length;
    if (active >= modes.maxActive) {
      return json(
        { detail: `You have reached the limit of ${modes.maxActive} active tasks` },
        429,
        modes.retryAfter ? { "Retry-After": modes.retryAfter } : {},
      );
    }
    const b = body as Record<string, unknown>;
    const id = crypto.randomUUID();
    tasks.set(id, {
      id,
      model,
      body: b,
      seed: Number.isInteger(b.seed) ? (b.seed as number) : randomSeed(),
      polls: 0,
      status: "Pending",
      sample: null,
    });
    const pollingUrl = modes.pollingUrl?.(id) ?? `${region.url}/v1/get_result?id=${id}`;
    return json({ id, polling_url: pollingUrl, cost: 2.5, input_mp: 0, output_mp: 1 });
  });

  return {
    url: api.url,
    region,
    apiKey,
    modes,
    tasks,
    // One log for both servers, in arrival order per server: submits first, then polls and downloads.
    get received() {
      return [...api.received, ...region.received];
    },
    close: async () => {
      await api.close();
      await region.close();
    },
  };
}
