// A self-hosted ComfyUI server: the configured workflow (or the built-in one) patched with the request
// (comfyui-workflow.ts), queued with `POST /prompt`, polled at `/history/{id}` until it has run, and its
// saved image read from `/view`. A reference image is uploaded first (`/upload/image`). At the deadline
// the prompt is taken off the queue; a running one is left to finish, since `/interrupt` stops whatever
// runs, which may be someone else's picture.
import { appError, fail, ok, type Result } from "../errors.ts";
import { styledPrompt } from "../generation-options.ts";
import { patchWorkflow, type Workflow, workflowModel } from "./comfyui-workflow.ts";
import { finished, pending, type PollStep, pollUntilDone } from "./poll.ts";
import {
  classifyFailureText,
  classifyHttpError,
  downloadOutput,
  type FetchFn,
  fetchJson,
  providerFetch,
  readJson,
  trimBase,
} from "./provider-http.ts";
import { basicAuth, dataUrlBytes, REFERENCE_DENOISE, type StepsByQuality } from "./self-hosted.ts";
import type { ImageProvider, ProviderImage, ProviderInput, ReferenceImage } from "./types.ts";

export interface ComfyUiConfig {
  /** The server's address (e.g. http://127.0.0.1:8188), a proxy's path prefix included. */
  baseUrl: string;
  /** `user:password` for a proxy in front of the server, or null. */
  auth: string | null;
  /** The workflow in API format (parsed from COMFYUI_WORKFLOW, or the built-in one), or why it is unusable. */
  workflow: Result<Workflow>;
  checkpoint: string | null;
  steps: StepsByQuality;
  pollIntervalMs: number;
  fetch: FetchFn;
}

interface SavedImage {
  filename?: string;
  subfolder?: string;
  type?: string;
}
interface HistoryEntry {
  outputs?: Record<string, { images?: SavedImage[] }>;
  status?: { status_str?: string; completed?: boolean; messages?: [string, Record<string, unknown>][] };
}

const EXTENSIONS: Record<string, string> = { "image/png": "png", "image/jpeg": "jpg", "image/gif": "gif" };

/** Why a prompt failed, from its execution_error message (e.g. CUDA out of memory). */
function failureText(entry: HistoryEntry): string {
  const error = entry.status?.messages?.find(([kind]) => kind === "execution_error")?.[1];
  const text = [error?.exception_type, error?.exception_message].filter((s) => typeof s === "string").join(": ");
  return text || `prompt ${entry.status?.status_str ?? "failed"}`;
}

/** The saved image to keep: from the answer's output nodes first, of type "output" before temporary ones. */
function pickImage(entry: HistoryEntry, outputs: string[]): SavedImage | null {
  const nodes = entry.outputs ?? {};
  const ordered = [...outputs, ...Object.keys(nodes).filter((id) => !outputs.includes(id))];
  const images = ordered.flatMap((id) => nodes[id]?.images ?? []).filter((i) => typeof i.filename === "string");
  return images.find((i) => i.type === "output") ?? images[0] ?? null;
}

export function createComfyUiProvider(config: ComfyUiConfig): ImageProvider {
  const base = trimBase(config.baseUrl);
  const auth: Record<string, string> = config.auth ? { Authorization: basicAuth(config.auth) } : {};
  const json = { ...auth, "Content-Type": "application/json" };
  async function upload(ref: ReferenceImage, requestId: string, signal: AbortSignal): Promise<Result<string>> {
    const bytes = dataUrlBytes(ref.dataUrl);
    if (!bytes) return fail(appError("server_error", { detail: "comfyui: unreadable reference image" }));
    const form = new FormData();
    const name = `promptcanvas-${requestId}.${EXTENSIONS[ref.mimeType] ?? "png"}`;
    form.append("image", new Blob([bytes as Uint8Array<ArrayBuffer>], { type: ref.mimeType }), name);
    form.append("overwrite", "true");
    const sent = await fetchJson(
      config.fetch,
      `${base}/upload/image`,
      { method: "POST", headers: auth, body: form },
      signal,
      "comfyui",
    );
    if (!sent.ok) return sent;
    const saved = sent.value as { name?: unknown; subfolder?: unknown };
    if (typeof saved.name !== "string") {
      return fail(appError("server_error", { detail: "comfyui: upload answered no name" }));
    }
    return ok(typeof saved.subfolder === "string" && saved.subfolder ? `${saved.subfolder}/${saved.name}` : saved.name);
  }

  function unqueue(promptId: string): void {
    // Best effort, after our own deadline: a prompt still waiting in the queue is removed.
    config
      .fetch(`${base}/queue`, {
        method: "POST",
        headers: json,
        body: JSON.stringify({ delete: [promptId] }),
        signal: AbortSignal.timeout(5_000),
      })
      .then((r) => r.body?.cancel())
      .catch(() => {});
  }

  async function queue(graph: Workflow, clientId: string, signal: AbortSignal): Promise<Result<string>> {
    const sent = await providerFetch(
      config.fetch,
      `${base}/prompt`,
      { method: "POST", headers: json, body: JSON.stringify({ prompt: graph, client_id: clientId }) },
      signal,
      "comfyui",
    );
    if (!sent.ok) return sent;
    // A graph the server refuses (400 with node_errors: a missing model, an unknown node) is ours to fix.
    if (!sent.value.ok) return fail(await classifyHttpError(sent.value, "comfyui"));
    const body = await readJson(sent.value, signal, "comfyui");
    if (!body.ok) return body;
    const id = (body.value as { prompt_id?: unknown }).prompt_id;
    return typeof id === "string" && id ? ok(id) : fail(appError("server_error", { detail: "comfyui: no prompt_id" }));
  }

  return {
    id: "comfyui",
    kind: "ai-model",
    model: () => (config.workflow.ok ? workflowModel(config.workflow.value, config.checkpoint) : "comfyui-workflow"),
    async generate(input: ProviderInput, signal): Promise<Result<ProviderImage>> {
      if (!config.workflow.ok) return config.workflow;
      let reference: { image: string; denoise: number } | null = null;
      if (input.reference) {
        const uploaded = await upload(input.reference, input.requestId, signal);
        if (!uploaded.ok) return uploaded;
        reference = { image: uploaded.value, denoise: REFERENCE_DENOISE };
      }
      const patched = patchWorkflow(config.workflow.value, {
        prompt: styledPrompt(input.prompt, input.style),
        negativePrompt: input.negativePrompt,
        seed: input.seed,
        steps: config.steps[input.quality],
        width: input.width,
        height: input.height,
        checkpoint: config.checkpoint,
        reference,
      });
      if (!patched.ok) return patched;
      const promptId = await queue(patched.value.graph, input.requestId, signal);
      if (!promptId.ok) return promptId;

      const image = await pollUntilDone(async (): Promise<PollStep<SavedImage>> => {
        const polled = await fetchJson(
          config.fetch,
          `${base}/history/${encodeURIComponent(promptId.value)}`,
          { headers: auth },
          signal,
          "comfyui",
        );
        if (!polled.ok) return finished(polled);
        // `{}` until the prompt has run.
        const entry = (polled.value as Record<string, HistoryEntry>)[promptId.value];
        if (!entry) return pending;
        if (entry.status?.status_str === "error") {
          return finished(fail(classifyFailureText(failureText(entry), "comfyui")));
        }
        const saved = pickImage(entry, patched.value.outputs);
        if (saved) return finished(ok(saved));
        if (entry.status?.completed === false) return pending;
        return finished(
          fail(appError("server_error", { retryable: false, detail: "comfyui: the prompt saved no image" })),
        );
      }, { intervalMs: config.pollIntervalMs, signal, provider: "comfyui", onDeadline: () => unqueue(promptId.value) });
      if (!image.ok) return image;

      const query = new URLSearchParams({
        filename: image.value.filename ?? "",
        subfolder: image.value.subfolder ?? "",
        type: image.value.type ?? "output",
      });
      const bytes = await downloadOutput(config.fetch, `${base}/view?${query}`, signal, "comfyui", auth);
      if (!bytes.ok) return bytes;
      return ok({ bytes: bytes.value, seed: input.seed, model: patched.value.model });
    },
  };
}
