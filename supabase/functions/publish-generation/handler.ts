// publish-generation: the one way an image enters the public gallery (docs/decisions/141-the-image-check-before-publishing.md).
// The database lets only the service role set is_public (its publish trigger), so the app's publish goes
// here, where the server checks first, in this order: the caller owns the row; an operator has not
// removed it; the owner is not suspended from publishing (403 publishing_suspended, with its end); the
// prompt passes the prompt check (422 nsfw_content); the stored image passes the image check (nsfwjs,
// off the event loop where the platform has a pool). An image the check flags is kept private with
// flagged_at and its scores, for an operator's review, and the answer (422 nsfw_content) says why.
// An image is scored once: a later publish of the same image reuses its stored scores. A repeated
// request answers as the first did. Unpublishing stays the owner's own REST update.
import { type AppError, appError, fail, invalidInput, ok, type Result } from "../_shared/errors.ts";
import {
  bearerToken,
  errorBody,
  errorResponse,
  handleOptions,
  jsonResponse,
  readJsonBody,
  statusFor,
} from "../_shared/http.ts";
import type { ImageResult } from "../_shared/image/result.ts";
import type { PromptCheck } from "../_shared/moderation/prompt-check.ts";
import { explicitScore, type ImageScores, isFlagged, storedScores } from "../_shared/moderation/image-verdict.ts";
import { PUBLISHING_SUSPENDED_CODE, REMOVED_BY_OPERATOR_CODE } from "../_shared/vocabulary/moderation.ts";
import type { Publisher, PublishRow, PublishWrite } from "./publisher.ts";

export interface Deps {
  publisher: Publisher;
  checkPrompt: PromptCheck;
  /** The image check of a stored image file (the render pool's on the local backend, in this isolate on hosted). */
  classify: (file: Uint8Array) => Promise<ImageResult<ImageScores>>;
  now: () => number;
  /** Receives codes and ids only: never tokens, prompts or images. */
  log: (event: string, fields: Record<string, unknown>) => void;
}

/** What the function answers on success; the same for a repeated request. */
export interface PublishAnswer {
  published: true;
  generation_id: string;
  scores: ImageScores;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const BODY_LIMIT_BYTES = 4_096;
export const MESSAGES = {
  signIn: "Please sign in to publish this image",
  notFound: "This image does not exist, or it is not yours to publish",
  removed: "An operator removed this image from the gallery; it cannot be published again",
  prompt: "This image's prompt breaks the content policy, so it cannot be published. Please modify it.",
  flagged: "The image check found this image sexually explicit, so it was not published. An operator will review it.",
  unreadable: "This image cannot be checked (its file does not read as a PNG, JPEG or GIF within the limits), " +
    "so it cannot be published",
} as const;

type Step = { ok: true; row: PublishRow } | { ok: false; response: Response };

export async function handler(req: Request, d: Deps): Promise<Response> {
  const pre = handleOptions(req);
  if (pre) return pre;
  if (req.method !== "POST") return errorResponse(invalidInput("Use POST", 405));
  const jwt = bearerToken(req);
  if (!jwt) return errorResponse(appError("auth_required", { message: MESSAGES.signIn }));
  const body = await readJsonBody(req, BODY_LIMIT_BYTES);
  if (!body.ok) return errorResponse(body.error);
  const id = (body.value as { generation_id?: unknown } | null)?.generation_id;
  if (typeof id !== "string" || !UUID.test(id)) {
    return errorResponse(invalidInput("generation_id must be the id of a generation"));
  }
  const caller = await d.publisher.identify(jwt);
  if (!caller.ok) return failed(d, "identify", id, caller.error);

  const allowed = await mayPublish(d, caller.value, id);
  if (!allowed.ok) return allowed.response;
  const { row } = allowed;
  const prompt = await d.checkPrompt(row.prompt);
  if (!prompt.allowed) {
    d.log("publish.refused", { generation_id: id, check: "prompt", source: prompt.source });
    return errorResponse(appError("nsfw_content", { message: MESSAGES.prompt }));
  }
  const scored = await scoresFor(d, row);
  if ("response" in scored) return scored.response;
  return await settle(d, row, scored.scores);
}

/** The row, when the caller owns it, an operator has not removed it and the caller is not suspended. */
async function mayPublish(d: Deps, userId: string, id: string): Promise<Step> {
  const [found, suspension] = await Promise.all([d.publisher.findRow(id), d.publisher.suspendedUntil(userId)]);
  if (!found.ok) return { ok: false, response: failed(d, "row", id, found.error) };
  // Another person's row answers as a missing one does: its existence is not the caller's to learn.
  if (!found.value || found.value.user_id !== userId) {
    return { ok: false, response: errorResponse(invalidInput(MESSAGES.notFound, 404)) };
  }
  if (found.value.removed_at) return { ok: false, response: removed() };
  if (!suspension.ok) return { ok: false, response: failed(d, "suspension", id, suspension.error) };
  if (suspension.value) return { ok: false, response: suspended(suspension.value) };
  return { ok: true, row: found.value };
}

// Publishes of one row arriving together (a resent outbox entry, several tabs) share one check.
const checking = new WeakMap<Deps, Map<string, Promise<Result<ImageResult<ImageScores>>>>>();

/** The stored image's check: read, then classified; shared by concurrent publishes of the row. */
function check(d: Deps, row: PublishRow): Promise<Result<ImageResult<ImageScores>>> {
  let runs = checking.get(d);
  if (!runs) checking.set(d, runs = new Map());
  let run = runs.get(row.id);
  if (!run) {
    run = (async (): Promise<Result<ImageResult<ImageScores>>> => {
      const file = await d.publisher.readImage(row.image_path);
      if (!file.ok) return file;
      try {
        return ok(await d.classify(file.value));
      } catch (e) {
        return fail(appError("server_error", { detail: `classify: ${String(e)}` }));
      }
    })().finally(() => runs!.delete(row.id));
    runs.set(row.id, run);
  }
  return run;
}

/** The row's scores: kept ones (an image is scored once), else the image check's, run now. */
async function scoresFor(d: Deps, row: PublishRow): Promise<{ scores: ImageScores } | { response: Response }> {
  const kept = storedScores(row.moderation_scores);
  if (kept) return { scores: kept };
  const checked = await check(d, row);
  if (!checked.ok) return { response: failed(d, "classify", row.id, checked.error) };
  const result = checked.value;
  if (result.ok) return { scores: result.value };
  d.log("publish.unchecked", { generation_id: row.id, code: result.error.code });
  // A stored image that does not read, or not within the budget, is not published unchecked.
  return { response: errorResponse(invalidInput(MESSAGES.unreadable, 422)) };
}

async function settle(d: Deps, row: PublishRow, scores: ImageScores): Promise<Response> {
  const flagged = isFlagged(scores);
  const at = new Date(d.now()).toISOString();
  const written = flagged ?
    await d.publisher.flag(row, scores, row.flagged_at ?? at) :
    await d.publisher.publish(row, scores);
  if (!written.ok) return failed(d, flagged ? "flag" : "publish", row.id, written.error);
  const refusal = refused(written.value);
  if (refusal) return refusal;
  if (flagged) {
    d.log("publish.refused", { generation_id: row.id, check: "image", explicit: explicitScore(scores) });
    return errorResponse(appError("nsfw_content", { message: MESSAGES.flagged }));
  }
  d.log("generation.published", { generation_id: row.id });
  const answer: PublishAnswer = { published: true, generation_id: row.id, scores };
  return jsonResponse(answer);
}

/** The write's outcome as an answer when it was not done: the row gone meanwhile, or the database refused. */
function refused(write: PublishWrite): Response | null {
  if (write.kind === "done") return null;
  if (write.kind === "gone") return errorResponse(invalidInput(MESSAGES.notFound, 404));
  return write.message.includes(PUBLISHING_SUSPENDED_CODE) ? suspended(null) : removed();
}

function removed(): Response {
  return jsonResponse({ error: { code: REMOVED_BY_OPERATOR_CODE, message: MESSAGES.removed, retryable: false } }, 403);
}

/** 403 publishing_suspended, with the suspension's end (`until`) where it is known. */
function suspended(until: string | null): Response {
  const when = until ? ` until ${until.slice(0, 16).replace("T", " ")} UTC` : "";
  const error: AppError = appError("publishing_suspended", {
    message: `Publishing to the gallery is suspended for your account${when}. Your images stay in your library.`,
  });
  return jsonResponse({ error: { ...errorBody(error).error, until } }, statusFor(error));
}

function failed(d: Deps, step: string, id: string, error: AppError): Response {
  if (error.code === "auth_required") return errorResponse(appError("auth_required", { message: MESSAGES.signIn }));
  d.log("publish.failed", { step, generation_id: id, code: error.code, detail: error.detail });
  return errorResponse(error);
}
