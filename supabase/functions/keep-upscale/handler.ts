// keep-upscale: keeps an image upscaled on the person's device (decision 154) in their library beside its
// original, on every device (decision 158). POST multipart/form-data: `image` (the upscaled file, WebP, PNG
// or JPEG, its part typed as it is), `id` (the new generation's id, minted by the app, so a resend is
// idempotent), `original_id` and `scale` (2 or 4). In order: the shape; the file's format, header and limits
// (image-check.ts); the caller's session; a row of that id already (a replay answers it); the original, which
// must be the caller's own (another person's answers as a missing one, 404); the file measures exactly the
// original's width and height times the scale. Then the object goes to the person's folder of the
// generations bucket and the row is written by record_generation: the original's recipe, the new size,
// private, linked (parent_id, variation 'upscale-2x' | 'upscale-4x'), charged to no quota (no reservation is held).
import { type AppError, appError, invalidInput } from "../_shared/errors.ts";
import type { GenerationStore } from "../_shared/generation-store.ts";
import { bearerToken, errorResponse, handleOptions, jsonResponse, readBodyBytes } from "../_shared/http.ts";
import type { GenerationRow } from "../_shared/vocabulary/rows.ts";
import { type UpscaleKind, upscaleKind } from "../_shared/vocabulary/variations.ts";
import {
  type CheckedUpscale,
  checkUpscaleFile,
  UPSCALE_MAX_BYTES,
  UPSCALE_TYPES,
  type UpscaleType,
} from "./image-check.ts";

export type KeepStore = Pick<
  GenerationStore,
  "userFromJwt" | "findGeneration" | "putImage" | "removeImage" | "recordGeneration"
>;

export interface Deps {
  store: KeepStore;
  /** Receives codes and ids only: never tokens, prompts or images. */
  log: (event: string, fields: Record<string, unknown>) => void;
}

/** What the function answers, the same for a replay: the stored row. */
export interface KeepAnswer {
  generation: GenerationRow;
}

export const MESSAGES = {
  signIn: "Please sign in to keep this image in your library",
  shape:
    "Send multipart/form-data with image (a WebP, PNG or JPEG file), id and original_id (uuids) and scale (2 or 4)",
  original: "The original image is not one of yours (it may have been deleted)",
  size: "The upscaled image must measure the original's width and height times the scale",
  taken: "This id is already in use by another image",
} as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The file and the form's few fields and boundaries. */
const BODY_LIMIT_BYTES = UPSCALE_MAX_BYTES + 16 * 1024;

type KeepRequest = {
  id: string;
  originalId: string;
  scale: 2 | 4;
  kind: UpscaleKind;
  type: UpscaleType;
  bytes: Uint8Array;
};
type Step<T> = { ok: true; value: T } | { ok: false; response: Response };
const refuse = (message: string, status?: number) => errorResponse(invalidInput(message, status));

export async function handler(req: Request, d: Deps): Promise<Response> {
  const pre = handleOptions(req);
  if (pre) return pre;
  if (req.method !== "POST") return refuse("Use POST", 405);
  const jwt = bearerToken(req);
  if (!jwt) return errorResponse(appError("auth_required", { message: MESSAGES.signIn }));
  const parsed = await readRequest(req);
  if (!parsed.ok) return parsed.response;
  const keep = parsed.value;
  const file = checkUpscaleFile(keep.bytes, keep.type);
  if (!file.ok) {
    return refuse(
      `The upscaled image cannot be kept: ${file.error.message}`,
      file.error.code === "image_too_large" ? 413 : 400,
    );
  }
  const caller = await d.store.userFromJwt(jwt);
  if (!caller.ok) return failed(d, "identify", keep.id, caller.error);
  const userId = caller.value.id;

  const existing = await d.store.findGeneration(keep.id);
  if (!existing.ok) return failed(d, "row", keep.id, existing.error);
  if (existing.value) return replay(existing.value, userId, keep);

  const original = await ownOriginal(d, userId, keep);
  if (!original.ok) return original.response;
  const { width, height } = original.value;
  if (file.value.width !== width * keep.scale || file.value.height !== height * keep.scale) {
    return refuse(
      `${MESSAGES.size}: ${width * keep.scale} × ${
        height * keep.scale
      }, not ${file.value.width} × ${file.value.height}`,
      422,
    );
  }
  return await store(d, userId, keep, original.value, file.value);
}

/** The form's fields, each exactly as it must be; anything else is a 400 with the shape. */
async function readRequest(req: Request): Promise<Step<KeepRequest>> {
  const body = await readBodyBytes(req, BODY_LIMIT_BYTES, "multipart/form-data");
  if (!body.ok) return { ok: false, response: errorResponse(body.error) };
  let form: FormData;
  try {
    const contentType = req.headers.get("content-type") ?? "";
    if (!/^multipart\/form-data;/i.test(contentType)) throw new Error("not multipart");
    form = await new Response(body.value as Uint8Array<ArrayBuffer>, { headers: { "content-type": contentType } })
      .formData();
  } catch {
    return { ok: false, response: refuse(MESSAGES.shape) };
  }
  const [id, originalId, scale, image] = ["id", "original_id", "scale", "image"].map((k) => form.get(k));
  const type = image instanceof Blob ? image.type.split(";")[0].trim().toLowerCase() : "";
  if (
    typeof id !== "string" || !UUID.test(id) || typeof originalId !== "string" || !UUID.test(originalId) ||
    (scale !== "2" && scale !== "4") || !(image instanceof Blob) || !(type in UPSCALE_TYPES) ||
    id.toLowerCase() === originalId.toLowerCase()
  ) {
    return { ok: false, response: refuse(MESSAGES.shape) };
  }
  const by = Number(scale) as 2 | 4;
  const bytes = new Uint8Array(await image.arrayBuffer());
  return {
    ok: true,
    value: {
      id: id.toLowerCase(),
      originalId: originalId.toLowerCase(),
      scale: by,
      kind: upscaleKind(by),
      type: type as UpscaleType,
      bytes,
    },
  };
}

/** A row of this id already: the same keep answers it; any other row holds the id (409). */
function replay(row: GenerationRow, userId: string, keep: KeepRequest): Response {
  if (row.user_id === userId && row.parent_id === keep.originalId && row.variation === keep.kind) {
    return jsonResponse({ generation: row } satisfies KeepAnswer);
  }
  return refuse(MESSAGES.taken, 409);
}

async function ownOriginal(d: Deps, userId: string, keep: KeepRequest): Promise<Step<GenerationRow>> {
  const found = await d.store.findGeneration(keep.originalId);
  if (!found.ok) return { ok: false, response: failed(d, "original", keep.id, found.error) };
  // Another person's image answers as a missing one does: whose an id is, is not the caller's to learn.
  if (!found.value || found.value.user_id !== userId) return { ok: false, response: refuse(MESSAGES.original, 404) };
  return { ok: true, value: found.value };
}

async function store(d: Deps, userId: string, keep: KeepRequest, original: GenerationRow, file: CheckedUpscale) {
  const path = `${userId}/${keep.id}.${file.extension}`;
  const put = await d.store.putImage(path, keep.bytes, file.contentType);
  if (!put.ok) return failed(d, "upload", keep.id, put.error);
  const recorded = await d.store.recordGeneration({
    id: keep.id,
    user_id: userId,
    prompt: original.prompt,
    negative_prompt: original.negative_prompt,
    style: original.style,
    quality: original.quality,
    aspect_ratio: original.aspect_ratio,
    width: file.width,
    height: file.height,
    seed: original.seed,
    provider: original.provider,
    model: original.model,
    image_path: path,
    is_public: false,
    ...(original.custom_style_name ?
      { custom_style_id: original.custom_style_id ?? null, custom_style_name: original.custom_style_name } :
      {}),
    parent_id: keep.originalId,
    variation: keep.kind,
  });
  if (recorded.ok && recorded.value.created) {
    d.log("upscale.kept", { generation_id: keep.id, original_id: keep.originalId, scale: keep.scale });
    return jsonResponse({ generation: recorded.value.row } satisfies KeepAnswer);
  }
  return await settleUnrecorded(d, userId, keep, path, recorded);
}

/**
 * The row was not written by this request: a concurrent keep of the same id wrote it (answered as a replay),
 * the person deleted this id meanwhile, or the original went (404, as before); the object goes with it.
 */
async function settleUnrecorded(
  d: Deps,
  userId: string,
  keep: KeepRequest,
  path: string,
  recorded: Awaited<ReturnType<KeepStore["recordGeneration"]>>,
): Promise<Response> {
  const now = await d.store.findGeneration(keep.id);
  if (now.ok && now.value) return replay(now.value, userId, keep);
  await d.store.removeImage(path);
  if (recorded.ok) return refuse("This image was deleted", 410);
  const original = await ownOriginal(d, userId, keep);
  if (!original.ok) return original.response;
  return failed(d, "record", keep.id, recorded.error);
}

function failed(d: Deps, step: string, id: string, error: AppError): Response {
  if (error.code === "auth_required") return errorResponse(appError("auth_required", { message: MESSAGES.signIn }));
  d.log("keep.failed", { step, generation_id: id, code: error.code, detail: error.detail });
  return errorResponse(error);
}
