// A fake AUTOMATIC1111/Forge WebUI API built from shared/reference/providers.md §6: `POST /sdapi/v1/txt2img`
// and `/img2img` answering `{images: [base64 PNG], parameters, info: "<JSON string>"}`; Basic auth when
// started with credentials (401 with WWW-Authenticate); FastAPI 422 for wrong types; the WebUI's own
// error shape `{error, detail, body, errors}` for an unknown sampler (404) and CUDA out of memory (500);
// and a slow mode, since the call blocks until the picture is drawn. Stable Diffusion with a seed is
// deterministic: same recipe and seed, same bytes; seed -1 draws a random one.
import { type Check, type FakeServer, json, startFakeServer, toBase64, validateBody } from "./fake-server.ts";
import { randomSeed, recipePng } from "./recipe-png.ts";

export interface A1111Modes {
  /** `user:password` the server was started with (`--api-auth`), or null for none. */
  auth: string | null;
  /** 500 as the WebUI answers a CUDA out-of-memory error. */
  outOfMemory: boolean;
  delayMs: number;
  checkpoint: string;
}

export interface A1111Fake extends FakeServer {
  modes: A1111Modes;
}

const str: Check = (v) => (typeof v === "string" ? null : "Input should be a valid string");
const int: Check = (v) => (Number.isInteger(v) ? null : "Input should be a valid integer");
const num: Check = (v) => (typeof v === "number" ? null : "Input should be a valid number");
const bool: Check = (v) => (typeof v === "boolean" ? null : "Input should be a valid boolean");
const obj: Check = (
  v,
) => (v && typeof v === "object" && !Array.isArray(v) ? null : "Input should be a valid dictionary");
const strings: Check = (v) =>
  Array.isArray(v) && v.every((x) => typeof x === "string") ? null : "Input should be a valid list";

const TXT2IMG: Record<string, Check> = {
  prompt: str,
  negative_prompt: str,
  seed: int,
  steps: int,
  cfg_scale: num,
  width: int,
  height: int,
  sampler_name: str,
  scheduler: str,
  batch_size: int,
  n_iter: int,
  override_settings: obj,
  send_images: bool,
  save_images: bool,
};
const IMG2IMG: Record<string, Check> = {
  ...TXT2IMG,
  init_images: strings,
  denoising_strength: num,
  resize_mode: int,
  mask: str,
  inpainting_fill: int,
};
const SAMPLERS = new Set(["Euler", "Euler a", "DPM++ 2M", "DDIM"]);

/** The WebUI's exception handler answer. */
const handlerError = (status: number, error: string, detail: string, errors = "") =>
  json({ error, detail, body: "", errors }, status);

/** The WebUI's 422 (it would ignore an unknown key; the fake refuses it, to hold the adapter to the API). */
const validate = (schema: Record<string, Check>, body: unknown) =>
  validateBody(schema, body, { notObject: "Input should be a valid dictionary", checkType: "type_error" });

export function startA1111Fake(overrides: Partial<A1111Modes> = {}): A1111Fake {
  const modes: A1111Modes = {
    auth: null,
    outOfMemory: false,
    delayMs: 0,
    checkpoint: "sd_xl_base_1.0",
    ...overrides,
  };
  const server = startFakeServer(async (req, url, body) => {
    if (modes.auth && req.headers.get("authorization") !== `Basic ${btoa(modes.auth)}`) {
      return json({ detail: "Incorrect username or password" }, 401, { "WWW-Authenticate": "Basic" });
    }
    const route = /^\/sdapi\/v1\/(txt2img|img2img)$/.exec(url.pathname)?.[1];
    if (req.method !== "POST" || !route) return json({ detail: "Not Found" }, 404);
    const invalid = validate(route === "img2img" ? IMG2IMG : TXT2IMG, body);
    if (invalid) return invalid;
    const b = body as Record<string, unknown>;
    if (route === "img2img" && !(b.init_images as unknown[] | undefined)?.length) {
      return handlerError(500, "IndexError", "list index out of range", "IndexError: list index out of range");
    }
    if (b.sampler_name !== undefined && !SAMPLERS.has(b.sampler_name as string)) {
      return handlerError(404, "HTTPException", "Sampler not found");
    }
    if (modes.delayMs) await new Promise((r) => setTimeout(r, modes.delayMs));
    if (modes.outOfMemory) {
      return handlerError(
        500,
        "OutOfMemoryError",
        "",
        "CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 8.00 GiB total capacity)",
      );
    }
    const width = (b.width as number | undefined) ?? 512;
    const height = (b.height as number | undefined) ?? 512;
    const steps = (b.steps as number | undefined) ?? 50;
    const seed = b.seed === undefined || b.seed === -1 ? randomSeed() : (b.seed as number);
    const checkpoint = (b.override_settings as { sd_model_checkpoint?: string } | undefined)?.sd_model_checkpoint ??
      modes.checkpoint;
    const png = recipePng(width, height, [
      checkpoint,
      route,
      b.prompt,
      b.negative_prompt ?? "",
      seed,
      width,
      height,
      steps,
      b.cfg_scale ?? 7,
      b.init_images ?? null,
      b.denoising_strength ?? null,
    ]);
    const info = {
      prompt: b.prompt ?? "",
      all_prompts: [b.prompt ?? ""],
      negative_prompt: b.negative_prompt ?? "",
      seed,
      all_seeds: [seed],
      width,
      height,
      sampler_name: b.sampler_name ?? "Euler",
      cfg_scale: b.cfg_scale ?? 7,
      steps,
      sd_model_name: checkpoint,
      sd_model_hash: "31e35c80fc",
    };
    return json({ images: [toBase64(png)], parameters: b, info: JSON.stringify(info) });
  });
  return { ...server, modes };
}
