// delete-account: removes everything of the signed-in person, on hosted Supabase and on the local
// backend alike: their generation rows, every object of their folder in the generations bucket
// (through the Storage API, which SQL cannot do on hosted Supabase) and their auth user, whose foreign
// keys cascade to preferences, daily limits, quota reservations, app events and web vitals.
//
// Order: the person's subscription is cancelled in Stripe first (when that fails, nothing is deleted),
// then rows (a published image stops being readable by visitors at once, and the gallery never
// shows a row whose image is gone), then the objects, then the auth user, then the folder once more
// (a generation in flight may have stored an image meanwhile; its row can no longer be inserted).
// Every step is idempotent, so a repeated request, even after the account is gone (the token is then
// still genuine for Auth), finishes what a failed one left and answers the same success.
import { type AppError, appError, invalidInput, type Result } from "../_shared/errors.ts";
import { bearerToken, errorResponse, handleOptions, jsonResponse } from "../_shared/http.ts";
import type { AccountStore } from "./account-store.ts";
import { purgeFolder } from "./purge-folder.ts";

export interface Deps {
  store: AccountStore;
  /**
   * Ends the person's paid subscriptions in Stripe (decision 148); absent when Stripe is not configured.
   * It runs before anything is deleted: when it fails, nothing is.
   */
  cancelSubscriptions?: (userId: string) => Promise<Result<number>>;
  /** Receives codes and ids only: never tokens or e-mail addresses. */
  log: (event: string, fields: Record<string, unknown>) => void;
}

export interface DeletionAnswer {
  deleted: true;
  user_id: string;
  images_removed: number;
  /** True when the account was already gone before this request. */
  already_deleted: boolean;
}

const SIGN_IN_TO_DELETE = "Please sign in to delete your account";
const DELETE_FAILED = "Your account could not be deleted completely. Please try again.";
const SUBSCRIPTION_NOT_CANCELLED =
  "Your subscription could not be cancelled, so nothing was deleted. Please try again in a minute.";

export async function handler(req: Request, d: Deps): Promise<Response> {
  const pre = handleOptions(req);
  if (pre) return pre;
  if (req.method !== "POST") return errorResponse(invalidInput("Use POST", 405));
  const jwt = bearerToken(req);
  if (!jwt) return errorResponse(appError("auth_required", { message: SIGN_IN_TO_DELETE }));

  const caller = await d.store.identify(jwt);
  if (!caller.ok) {
    const e = caller.error;
    return e.code === "auth_required" ?
      errorResponse(appError("auth_required", { message: SIGN_IN_TO_DELETE })) :
      failed(d, "identify", null, e);
  }
  const { id, exists } = caller.value;

  if (exists && d.cancelSubscriptions) {
    const cancelled = await d.cancelSubscriptions(id);
    if (!cancelled.ok) return failed(d, "subscription", id, cancelled.error, SUBSCRIPTION_NOT_CANCELLED);
  }
  if (exists) {
    const rows = await d.store.deleteGenerations(id);
    if (!rows.ok) return failed(d, "rows", id, rows.error);
  }
  const purged = await purgeFolder(d.store, id);
  if (!purged.ok) return failed(d, "images", id, purged.error);
  let removed = purged.value;

  if (exists) {
    const user = await d.store.deleteUser(id);
    if (!user.ok) return failed(d, "user", id, user.error);
    const sweep = await purgeFolder(d.store, id);
    if (!sweep.ok) return failed(d, "sweep", id, sweep.error);
    removed += sweep.value;
  }

  d.log("account.deleted", { user_id: id, images_removed: removed, already_deleted: !exists });
  const answer: DeletionAnswer = { deleted: true, user_id: id, images_removed: removed, already_deleted: !exists };
  return jsonResponse(answer);
}

function failed(d: Deps, step: string, userId: string | null, error: AppError, message = DELETE_FAILED): Response {
  d.log("account.delete_failed", { step, user_id: userId, code: error.code, detail: error.detail });
  return errorResponse(appError(error.code, { message, detail: error.detail }));
}
