// A fake ComfyUI server built from shared/reference/providers.md §6: `POST /prompt` that validates an
// API-format graph (known node classes, their required inputs, links to nodes that exist, checkpoints it
// has, images it was sent) and answers `{prompt_id, number, node_errors}` or 400 with `error` and
// `node_errors`; `/history/{id}` empty until the prompt has run, then its outputs (or an execution
// error); `/view` serving the saved PNG (gone when `expired`); `/upload/image`; `POST /queue` deletes; an
// optional Basic-auth proxy in front. It "runs" a graph by hashing what decides the picture, so the
// same graph (recipe and seed) gives the same bytes, as ComfyUI does with a fixed seed.
import { type FakeServer, json, startFakeServer } from "./fake-server.ts";
import { recipePng } from "./recipe-png.ts";

export type ComfyOutcome = "ok" | "error" | "no_output";

export interface ComfyModes {
  outcome: ComfyOutcome;
  /** History reads a prompt needs before it has run. */
  pollsToFinish: number;
  /** `user:password` a proxy in front asks for, or null. */
  auth: string | null;
  /** Saved images are gone from /view (cleaned output folder). */
  expired: boolean;
  promptDelayMs: number;
  /** Status forced on /prompt or /history (a crashed or restarting server). */
  promptStatus?: 500 | 503;
  historyStatus?: 500 | 503;
  checkpoints: string[];
}

interface Queued {
  id: string;
  graph: Record<string, Node>;
  polls: number;
  state: "queued" | "done" | "deleted";
  outputs: Record<string, { images: { filename: string; subfolder: string; type: string }[] }>;
}
interface Node {
  class_type: string;
  inputs: Record<string, unknown>;
}

export interface ComfyFake extends FakeServer {
  modes: ComfyModes;
  prompts: Map<string, Queued>;
  uploads: Map<string, Uint8Array>;
}

const REQUIRED: Record<string, string[]> = {
  CheckpointLoaderSimple: ["ckpt_name"],
  UNETLoader: ["unet_name", "weight_dtype"],
  CLIPTextEncode: ["text", "clip"],
  EmptyLatentImage: ["width", "height", "batch_size"],
  KSampler: [
    "model",
    "positive",
    "negative",
    "latent_image",
    "seed",
    "steps",
    "cfg",
    "sampler_name",
    "scheduler",
    "denoise",
  ],
  KSamplerAdvanced: [
    "model",
    "positive",
    "negative",
    "latent_image",
    "noise_seed",
    "steps",
    "cfg",
    "sampler_name",
    "scheduler",
    "add_noise",
    "start_at_step",
    "end_at_step",
    "return_with_leftover_noise",
  ],
  VAEDecode: ["samples", "vae"],
  VAEEncode: ["pixels", "vae"],
  LoadImage: ["image"],
  ImageScale: ["image", "upscale_method", "width", "height", "crop"],
  SaveImage: ["images", "filename_prefix"],
  PreviewImage: ["images"],
};
const OUTPUT_NODES = new Set(["SaveImage", "PreviewImage"]);
const isLink = (v: unknown): v is [string, number] =>
  Array.isArray(v) && v.length === 2 && typeof v[0] === "string" && typeof v[1] === "number";

type NodeError = { type: string; message: string; details: string; extra_info: Record<string, unknown> };

function refuse(error: NodeError, nodeErrors: Record<string, unknown> = {}): Response {
  return json({ error, node_errors: nodeErrors }, 400);
}

export function startComfyFake(overrides: Partial<ComfyModes> = {}): ComfyFake {
  const modes: ComfyModes = {
    outcome: "ok",
    pollsToFinish: 2,
    auth: null,
    expired: false,
    promptDelayMs: 0,
    checkpoints: ["sd_xl_base_1.0.safetensors", "dreamshaper_8.safetensors"],
    ...overrides,
  };
  const prompts = new Map<string, Queued>();
  const uploads = new Map<string, Uint8Array>();
  const files = new Map<string, Uint8Array>();
  let number = 0;

  function validate(graph: Record<string, Node>): Response | null {
    const nodeErrors: Record<string, unknown> = {};
    for (const [id, node] of Object.entries(graph)) {
      const required = REQUIRED[node?.class_type];
      if (!required) {
        return refuse({
          type: "invalid_prompt",
          message: `Cannot execute because node ${node?.class_type} does not exist.`,
          details: `Node ID '#${id}'`,
          extra_info: {},
        });
      }
      const errors: NodeError[] = [];
      for (const key of required) {
        if (!(key in node.inputs)) {
          errors.push({
            type: "required_input_missing",
            message: "Required input is missing",
            details: key,
            extra_info: {},
          });
        }
      }
      for (const [key, v] of Object.entries(node.inputs)) {
        if (isLink(v) && !graph[v[0]]) {
          errors.push({
            type: "bad_linked_input",
            message: "Bad linked input",
            details: `${key}: ${v[0]}`,
            extra_info: {},
          });
        }
      }
      if (
        node.class_type === "CheckpointLoaderSimple" && !modes.checkpoints.includes(node.inputs.ckpt_name as string)
      ) {
        errors.push({
          type: "value_not_in_list",
          message: "Value not in list",
          details: `ckpt_name: '${node.inputs.ckpt_name}' not in ${JSON.stringify(modes.checkpoints)}`,
          extra_info: {},
        });
      }
      if (node.class_type === "LoadImage" && !uploads.has(node.inputs.image as string)) {
        errors.push({
          type: "custom_validation_failed",
          message: "Invalid image file",
          details: `image - ${node.inputs.image}`,
          extra_info: {},
        });
      }
      if (errors.length) nodeErrors[id] = { errors, dependent_outputs: [], class_type: node.class_type };
    }
    if (!Object.values(graph).some((n) => OUTPUT_NODES.has(n.class_type))) {
      return refuse({ type: "prompt_no_outputs", message: "Prompt has no outputs", details: "", extra_info: {} });
    }
    if (Object.keys(nodeErrors).length) {
      return refuse(
        {
          type: "prompt_outputs_failed_validation",
          message: "Prompt outputs failed validation",
          details: "",
          extra_info: {},
        },
        nodeErrors,
      );
    }
    return null;
  }

  /** The picture's size: the empty latent's, or the scaled reference's the sampler starts from. */
  function sizeOf(graph: Record<string, Node>, from: unknown): [number, number] {
    let link = from;
    for (let hops = 0; hops < 10 && isLink(link); hops++) {
      const node = graph[link[0]];
      if (typeof node.inputs.width === "number" && typeof node.inputs.height === "number") {
        return [node.inputs.width, node.inputs.height];
      }
      link = node.inputs.pixels ?? node.inputs.samples ?? node.inputs.image;
    }
    return [512, 512];
  }

  function run(p: Queued) {
    p.state = "done";
    if (modes.outcome !== "ok") return;
    const sampler = Object.values(p.graph).find((n) => n.class_type.startsWith("KSampler"))!;
    const [w, h] = sizeOf(p.graph, sampler.inputs.latent_image);
    // Everything in the graph decides the picture; the same graph draws the same bytes.
    const sorted = Object.keys(p.graph).sort().map((id) => [id, p.graph[id]]);
    const bytes = recipePng(w, h, sorted);
    for (const [id, node] of Object.entries(p.graph)) {
      if (!OUTPUT_NODES.has(node.class_type)) continue;
      const type = node.class_type === "SaveImage" ? "output" : "temp";
      const filename = `${node.inputs.filename_prefix ?? "ComfyUI"}_${String(++number).padStart(5, "0")}_.png`;
      files.set(`${type}/${filename}`, bytes);
      p.outputs[id] = { images: [{ filename, subfolder: "", type }] };
    }
  }

  function entry(p: Queued) {
    const error = modes.outcome === "error";
    return {
      [p.id]: {
        prompt: [number, p.id, p.graph, {}, Object.keys(p.outputs)],
        outputs: p.outputs,
        status: {
          status_str: error ? "error" : "success",
          completed: !error,
          messages: error ?
            [
              ["execution_start", { prompt_id: p.id, timestamp: Date.now() }],
              [
                "execution_error",
                {
                  prompt_id: p.id,
                  node_id: "5",
                  node_type: "KSampler",
                  exception_message: "CUDA out of memory. Tried to allocate 4.00 GiB",
                  exception_type: "torch.OutOfMemoryError",
                  traceback: [],
                },
              ],
            ] :
            [
              ["execution_start", { prompt_id: p.id, timestamp: Date.now() }],
              ["execution_success", { prompt_id: p.id, timestamp: Date.now() }],
            ],
        },
        meta: {},
      },
    };
  }

  const server = startFakeServer(async (req, url, body) => {
    if (modes.auth && req.headers.get("authorization") !== `Basic ${btoa(modes.auth)}`) {
      return new Response("401 Unauthorized", { status: 401, headers: { "WWW-Authenticate": 'Basic realm="comfy"' } });
    }
    const path = url.pathname;
    if (req.method === "POST" && path === "/upload/image") {
      const form = body as FormData;
      const file = form.get("image");
      if (!(file instanceof File)) return new Response("400: Bad Request", { status: 400 });
      uploads.set(file.name, new Uint8Array(await file.arrayBuffer()));
      return json({ name: file.name, subfolder: "", type: "input" });
    }
    if (req.method === "POST" && path === "/prompt") {
      if (modes.promptDelayMs) await new Promise((r) => setTimeout(r, modes.promptDelayMs));
      if (modes.promptStatus) return new Response("500 Internal Server Error", { status: modes.promptStatus });
      const graph = (body as { prompt?: unknown } | null)?.prompt;
      if (!graph || typeof graph !== "object") return json({ error: "no prompt", node_errors: [] }, 400);
      const invalid = validate(graph as Record<string, Node>);
      if (invalid) return invalid;
      const id = crypto.randomUUID();
      prompts.set(id, { id, graph: graph as Record<string, Node>, polls: 0, state: "queued", outputs: {} });
      return json({ prompt_id: id, number: prompts.size, node_errors: {} });
    }
    if (req.method === "POST" && path === "/queue") {
      for (const id of (body as { delete?: string[] } | null)?.delete ?? []) {
        const p = prompts.get(id);
        if (p?.state === "queued") p.state = "deleted";
      }
      return new Response(null, { status: 200 });
    }
    const history = /^\/history\/([^/]+)$/.exec(path);
    if (req.method === "GET" && history) {
      if (modes.historyStatus) return new Response("500 Internal Server Error", { status: modes.historyStatus });
      const p = prompts.get(history[1]);
      if (!p || p.state === "deleted") return json({});
      if (p.state === "queued") {
        p.polls++;
        if (p.polls < modes.pollsToFinish) return json({});
        run(p);
      }
      return json(entry(p));
    }
    if (req.method === "GET" && path === "/view") {
      const key = `${url.searchParams.get("type") ?? "output"}/${url.searchParams.get("filename")}`;
      const bytes = files.get(key);
      if (modes.expired || !bytes) return new Response("404: Not Found", { status: 404 });
      return new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { "content-type": "image/png" } });
    }
    return new Response("404: Not Found", { status: 404 });
  });
  return { ...server, modes, prompts, uploads };
}
