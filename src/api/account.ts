// The delete-account call: the server removes every row and stored image of the signed-in person
// and their auth user. The function's own sentence for a failure is kept (it says what to do); a
// network failure reads as the catalogue's connection message. A call refused for its session renews
// it once and is made again (decision 120): a session ended elsewhere is then forgotten on this device,
// and the person is asked to sign in rather than told to while still shown as signed in.
import { err, ok, type Result } from "../lib/result";
import { refreshSession, renewingOnce } from "./auth";
import { supabase } from "./client";
import { toAppError, type AppError } from "./errors";
import type { InvokeFn } from "./generate";

export type AccountDeletion = { imagesRemoved: number; alreadyDeleted: boolean };

/** A FunctionsHttpError keeps the Response in `context`: its body is `{ error: { code, message } }`. */
async function failureOf(error: unknown): Promise<AppError> {
  const context = (error as { context?: unknown } | null)?.context;
  if (context instanceof Response) {
    try {
      const body = (await context.clone().json()) as { error?: { message?: unknown } };
      const mapped = toAppError({ ...body, status: context.status });
      if (typeof body.error?.message === "string") mapped.message = body.error.message;
      return mapped;
    } catch {
      return toAppError({ message: (error as Error).message, status: context.status });
    }
  }
  return toAppError(error);
}

const defaultInvoke: InvokeFn = (name, options) => supabase().functions.invoke(name, options);

export function deleteAccount(
  invoke: InvokeFn = defaultInvoke,
  renew: () => Promise<boolean> = refreshSession,
): Promise<Result<AccountDeletion, AppError>> {
  return renewingOnce(
    () => deleteOnce(invoke),
    (r) => !r.ok && r.error.code === "auth_required",
    renew,
  );
}

async function deleteOnce(invoke: InvokeFn): Promise<Result<AccountDeletion, AppError>> {
  try {
    const { data, error } = await invoke("delete-account", { body: {} });
    if (error) return err(await failureOf(error));
    const answer = data as { deleted?: unknown; images_removed?: unknown; already_deleted?: unknown } | null;
    if (answer?.deleted !== true) return err(toAppError("server error: unexpected answer"));
    return ok({ imagesRemoved: Number(answer.images_removed) || 0, alreadyDeleted: answer.already_deleted === true });
  } catch (e) {
    return err(toAppError(e));
  }
}
