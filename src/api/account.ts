// The delete-account call: the server removes every row and stored image of the signed-in person
// and their auth user. The function's own sentence for a failure is kept (it says what to do); a
// network failure reads as the catalogue's connection message.
import { err, ok, type Result } from "../lib/result";
import { supabase } from "./client";
import { toAppError, type AppError } from "./errors";

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

export async function deleteAccount(): Promise<Result<AccountDeletion, AppError>> {
  try {
    const { data, error } = await supabase().functions.invoke("delete-account", { body: {} });
    if (error) return err(await failureOf(error));
    const answer = data as { deleted?: unknown; images_removed?: unknown; already_deleted?: unknown } | null;
    if (answer?.deleted !== true) return err(toAppError("server error: unexpected answer"));
    return ok({ imagesRemoved: Number(answer.images_removed) || 0, alreadyDeleted: answer.already_deleted === true });
  } catch (e) {
    return err(toAppError(e));
  }
}
