// delete-generation: removes one generation of the signed-in person, its row and its stored image, in
// one request. The library's outbox used to send two (the row, then the object through the Storage
// API); a device that lost its IndexedDB between them (or was closed for good) never sent the second,
// and the object stayed with no row (decision 113). Here the server finishes both steps whatever the
// device does after sending, and the outbox keeps the entry until this answers, so a cut request is
// sent again.
//
// Everything runs as the caller: their token goes to PostgREST and Storage, whose row-level security
// lets an owner delete only their own row and only objects in their own folder; this function holds
// no power the person does not have. Order: the row first (a published image leaves the gallery at
// once; the gallery never shows a row whose image is gone), then the object. Both steps are
// idempotent, so a repeated request answers the same success and finishes what a cut one left.
import { appError, invalidInput } from "../_shared/errors.ts";
import { bearerToken, errorResponse, handleOptions, jsonResponse, readJsonBody } from "../_shared/http.ts";
import type { GenerationRemover } from "./remover.ts";

export interface Deps {
  remover: GenerationRemover;
  /** Receives codes and ids only: never tokens. */
  log: (event: string, fields: Record<string, unknown>) => void;
}

/** What the function answers; the same shape for a repeated request. */
export interface DeleteGenerationAnswer {
  deleted: true;
  generation_id: string;
  /** False when the row was already gone (deleted before, or elsewhere). */
  row_deleted: boolean;
  /** False when no stored image was there to remove. */
  image_removed: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const BODY_LIMIT_BYTES = 4_096;
const SIGN_IN_TO_DELETE = "Please sign in to delete this image";
const DELETE_FAILED = "This image could not be deleted. It will be tried again.";

export async function handler(req: Request, d: Deps): Promise<Response> {
  const pre = handleOptions(req);
  if (pre) return pre;
  if (req.method !== "POST") return errorResponse(invalidInput("Use POST", 405));
  const jwt = bearerToken(req);
  if (!jwt) return errorResponse(appError("auth_required", { message: SIGN_IN_TO_DELETE }));

  const body = await readJsonBody(req, BODY_LIMIT_BYTES);
  if (!body.ok) return errorResponse(body.error);
  const input = body.value as { generation_id?: unknown; image_path?: unknown } | null;
  const id = input?.generation_id;
  if (typeof id !== "string" || !UUID.test(id)) {
    return errorResponse(invalidInput("generation_id must be the id of a generation"));
  }
  const hinted = input?.image_path;
  if (hinted !== undefined && (typeof hinted !== "string" || hinted.length > 512)) {
    return errorResponse(invalidInput("image_path must be the stored image's path"));
  }

  const caller = await d.remover.identify(jwt);
  if (!caller.ok) {
    return caller.error.code === "auth_required" ?
      errorResponse(appError("auth_required", { message: SIGN_IN_TO_DELETE })) :
      failed(d, "identify", id, caller.error);
  }
  const userId = caller.value;
  // The row names its image; once the row is gone (a repeated request), the device's copy of the path
  // does, and only a path in the caller's own folder is taken (Storage's policy would refuse any other).
  if (typeof hinted === "string" && !hinted.startsWith(`${userId}/`)) {
    return errorResponse(invalidInput("image_path must be in your own folder", 403));
  }

  const row = await d.remover.deleteRow(jwt, id);
  if (!row.ok) return failed(d, "row", id, row.error);
  const path = row.value.imagePath ?? (typeof hinted === "string" ? hinted : null);
  let imageRemoved = false;
  if (path) {
    const object = await d.remover.removeObject(jwt, path);
    if (!object.ok) return failed(d, "image", id, object.error);
    imageRemoved = object.value;
  }

  d.log("generation.deleted", {
    user_id: userId,
    generation_id: id,
    row_deleted: row.value.deleted,
    image_removed: imageRemoved,
  });
  const answer: DeleteGenerationAnswer = {
    deleted: true,
    generation_id: id,
    row_deleted: row.value.deleted,
    image_removed: imageRemoved,
  };
  return jsonResponse(answer);
}

function failed(d: Deps, step: string, id: string, error: { code: string; detail?: string; status?: number }) {
  d.log("generation.delete_failed", { step, generation_id: id, code: error.code, detail: error.detail });
  // An expired token asks for a renewal; a refusal by the platform (another 4xx) is final; anything else
  // is worth another try.
  if (error.code === "auth_required") return errorResponse(appError("auth_required", { message: SIGN_IN_TO_DELETE }));
  return errorResponse(
    appError(error.code === "invalid_input" ? "invalid_input" : "server_error", {
      message: DELETE_FAILED,
      status: error.status,
      detail: error.detail,
    }),
  );
}
