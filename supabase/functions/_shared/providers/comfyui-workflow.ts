// ComfyUI workflows in its API format (`{ "<node id>": { class_type, inputs } }`, an input that is a
// `[node id, output index]` pair is a link): the built-in default graph, the operator's own parsed from
// COMFYUI_WORKFLOW, and the patch that writes one request into a copy. The nodes are found from the
// sampler, not by id: its `positive` and `negative` inputs lead (through any conditioning nodes) to the
// text encoders, its `latent_image` to the empty latent that sets the size, so any ordinary graph works.
import { appError, fail, ok, type Result } from "../errors.ts";

export interface WorkflowNode {
  class_type: string;
  inputs: Record<string, unknown>;
  _meta?: unknown;
}
export type Workflow = Record<string, WorkflowNode>;
type Link = [string, number];

/** Checkpoint of the built-in graph (Stable Diffusion XL base, which draws the product's 1024 px sizes). */
export const DEFAULT_CHECKPOINT = "sd_xl_base_1.0.safetensors";

/** The built-in text-to-image graph: checkpoint, two prompts, an empty latent, KSampler, decode, save. */
export function defaultWorkflow(): Workflow {
  return {
    "1": { class_type: "CheckpointLoaderSimple", inputs: { ckpt_name: DEFAULT_CHECKPOINT } },
    "2": { class_type: "CLIPTextEncode", inputs: { text: "", clip: ["1", 1] } },
    "3": { class_type: "CLIPTextEncode", inputs: { text: "", clip: ["1", 1] } },
    "4": { class_type: "EmptyLatentImage", inputs: { width: 1024, height: 1024, batch_size: 1 } },
    "5": {
      class_type: "KSampler",
      inputs: {
        model: ["1", 0],
        positive: ["2", 0],
        negative: ["3", 0],
        latent_image: ["4", 0],
        seed: 0,
        steps: 20,
        cfg: 7,
        sampler_name: "euler",
        scheduler: "normal",
        denoise: 1,
      },
    },
    "6": { class_type: "VAEDecode", inputs: { samples: ["5", 0], vae: ["1", 2] } },
    "7": { class_type: "SaveImage", inputs: { images: ["6", 0], filename_prefix: "promptcanvas" } },
  };
}

const misconfigured = (detail: string) =>
  fail(appError("server_error", { retryable: false, detail: `comfyui: ${detail}` }));

/** COMFYUI_WORKFLOW's text as a graph; the editor's own (UI) format is refused with a hint. */
export function parseWorkflow(text: string): Result<Workflow> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return misconfigured("COMFYUI_WORKFLOW is not JSON");
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
    return misconfigured("COMFYUI_WORKFLOW is not a JSON object");
  }
  if (Array.isArray((parsed as { nodes?: unknown }).nodes)) {
    return misconfigured("COMFYUI_WORKFLOW is in the editor's format; export it with “Save (API Format)”");
  }
  for (const [id, node] of Object.entries(parsed)) {
    const n = node as Partial<WorkflowNode> | null;
    if (!n || typeof n.class_type !== "string" || !n.inputs || typeof n.inputs !== "object") {
      return misconfigured(`COMFYUI_WORKFLOW node ${id} has no class_type and inputs`);
    }
  }
  return ok(parsed as Workflow);
}

const isLink = (v: unknown): v is Link =>
  Array.isArray(v) && v.length === 2 && typeof v[0] === "string" && typeof v[1] === "number";

/** Nodes upstream of `from` that `match` accepts, not looking past a match. */
function upstream(graph: Workflow, from: unknown, match: (n: WorkflowNode) => boolean): string[] {
  const found: string[] = [];
  const seen = new Set<string>();
  const queue = isLink(from) ? [from[0]] : [];
  while (queue.length) {
    const id = queue.shift()!;
    const node = graph[id];
    if (seen.has(id) || !node) continue;
    seen.add(id);
    if (match(node)) {
      found.push(id);
      continue;
    }
    for (const v of Object.values(node.inputs)) if (isLink(v)) queue.push(v[0]);
  }
  return found;
}

const SAMPLERS = ["KSampler", "KSamplerAdvanced"];
/** Text inputs of the common encoders (CLIPTextEncode, its SDXL and FLUX variants). */
const TEXT_INPUTS = ["text", "text_g", "text_l", "clip_l", "t5xxl"];
const isTextEncoder = (n: WorkflowNode) => n.class_type.startsWith("CLIPTextEncode");
const isLatentSize = (n: WorkflowNode) =>
  /Latent/.test(n.class_type) && typeof n.inputs.width === "number" && typeof n.inputs.height === "number";

const byId = (a: string, b: string) => a.localeCompare(b, "en", { numeric: true });

export interface WorkflowRequest {
  prompt: string;
  negativePrompt: string;
  seed: number;
  steps: number;
  width: number;
  height: number;
  /** Replaces every CheckpointLoaderSimple's `ckpt_name`, when set. */
  checkpoint: string | null;
  /** An uploaded reference image's name (as LoadImage takes it) and the denoise to start from it. */
  reference: { image: string; denoise: number } | null;
}

export interface PatchedWorkflow {
  graph: Workflow;
  /** Ids of the nodes whose saved images are the answer (SaveImage, else PreviewImage). */
  outputs: string[];
  /** What drew the picture: the checkpoint's (or UNet's) file name. */
  model: string;
}

/** A copy of `base` with the request written in; a graph it cannot patch is the operator's misconfiguration. */
export function patchWorkflow(base: Workflow, req: WorkflowRequest): Result<PatchedWorkflow> {
  const graph: Workflow = structuredClone(base);
  const ids = Object.keys(graph).sort(byId);
  const samplerId = ids.find((id) => SAMPLERS.includes(graph[id].class_type));
  if (!samplerId) return misconfigured("the workflow has no KSampler");
  const sampler = graph[samplerId].inputs;
  sampler[graph[samplerId].class_type === "KSampler" ? "seed" : "noise_seed"] = req.seed;
  sampler.steps = req.steps;

  const positive = upstream(graph, sampler.positive, isTextEncoder);
  if (!positive.length) return misconfigured("no text encoder feeds the sampler's positive input");
  const negative = upstream(graph, sampler.negative, isTextEncoder).filter((id) => !positive.includes(id));
  const write = (id: string, text: string) => {
    const inputs = graph[id].inputs;
    const keys = TEXT_INPUTS.filter((k) => k in inputs);
    for (const k of keys.length ? keys : ["text"]) inputs[k] = text;
  };
  for (const id of positive) write(id, req.prompt);
  for (const id of negative) write(id, req.negativePrompt);

  for (const id of upstream(graph, sampler.latent_image, isLatentSize)) {
    Object.assign(graph[id].inputs, { width: req.width, height: req.height });
    if ("batch_size" in graph[id].inputs) graph[id].inputs.batch_size = 1;
  }
  if (req.checkpoint) {
    for (const id of ids) {
      if (graph[id].class_type === "CheckpointLoaderSimple") graph[id].inputs.ckpt_name = req.checkpoint;
    }
  }

  // A reference image replaces the empty latent: loaded, scaled to the asked size, encoded with the
  // graph's own VAE, and sampled from at `denoise`. A graph without a plain KSampler and a VAE decoder
  // to borrow the VAE from draws from the prompt alone.
  const vae = ids.map((id) => graph[id]).find((n) => n.class_type === "VAEDecode" && isLink(n.inputs.vae))?.inputs.vae;
  if (req.reference && graph[samplerId].class_type === "KSampler" && vae) {
    graph.promptcanvas_reference = { class_type: "LoadImage", inputs: { image: req.reference.image } };
    graph.promptcanvas_scale = {
      class_type: "ImageScale",
      inputs: {
        image: ["promptcanvas_reference", 0],
        upscale_method: "bilinear",
        width: req.width,
        height: req.height,
        crop: "center",
      },
    };
    graph.promptcanvas_encode = {
      class_type: "VAEEncode",
      inputs: { pixels: ["promptcanvas_scale", 0], vae },
    };
    sampler.latent_image = ["promptcanvas_encode", 0];
    sampler.denoise = req.reference.denoise;
  }

  const saved = ids.filter((id) => graph[id].class_type === "SaveImage");
  const outputs = saved.length ? saved : ids.filter((id) => graph[id].class_type === "PreviewImage");
  if (!outputs.length) return misconfigured("the workflow has no SaveImage node");
  return ok({ graph, outputs, model: workflowModel(graph, null) });
}

/** What a graph draws with: its first checkpoint (as `checkpoint` overrides it) or UNet file name. */
export function workflowModel(graph: Workflow, checkpoint: string | null): string {
  const loader = Object.keys(graph).sort(byId).map((id) => graph[id]).find((n) =>
    typeof n.inputs.ckpt_name === "string" || typeof n.inputs.unet_name === "string"
  );
  if (checkpoint && loader?.class_type === "CheckpointLoaderSimple") return checkpoint;
  return String(loader?.inputs.ckpt_name ?? loader?.inputs.unet_name ?? "comfyui-workflow");
}
