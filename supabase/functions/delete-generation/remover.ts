// What delete-generation needs from the platform, and its implementation on Supabase: who the caller is
// (Auth), their row (PostgREST) and its stored image (the Storage API: hosted Supabase lets no SQL
// delete Storage objects). Every call carries the caller's own token, so row-level security decides
// what may go, exactly as when the app called PostgREST and Storage itself.
// deno-lint-ignore no-import-prefix -- the edge runtime deploys this file without an import map
import { createClient, type SupabaseClient } from "npm:@supabase/supabase-js@2";
import { type AppError, appError, fail, ok, type Result } from "../_shared/errors.ts";
import { GENERATIONS_BUCKET } from "../_shared/vocabulary/rows.ts";

export interface GenerationRemover {
  /** The caller's user id, once Auth has verified the token. */
  identify(jwt: string): Promise<Result<string>>;
  /** Deletes the caller's row of that id; `deleted` is false and `imagePath` null when there was none. */
  deleteRow(jwt: string, id: string): Promise<Result<{ deleted: boolean; imagePath: string | null }>>;
  /** Removes one object of the caller's folder; false when it was not there. */
  removeObject(jwt: string, path: string): Promise<Result<boolean>>;
}

export interface RemoverConfig {
  url: string;
  anonKey: string;
  fetch?: typeof fetch;
}

const noSession = { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false };

function platformError(what: string, e: { status?: number; code?: string; message?: string } | null): AppError {
  const detail = `${what}: ${e?.status ?? ""} ${e?.code ?? ""} ${e?.message ?? ""}`.slice(0, 240);
  // The platform refusing for good (4xx other than an expired token) is not worth a retry.
  const status = Number(e?.status);
  if (status >= 400 && status < 500 && status !== 401 && status !== 408 && status !== 429) {
    return appError("invalid_input", { detail, status });
  }
  return appError(status === 401 ? "auth_required" : "server_error", { detail });
}

export function createSupabaseRemover(config: RemoverConfig): GenerationRemover {
  const global = config.fetch ? { fetch: config.fetch } : {};
  const anon = createClient(config.url, config.anonKey, { auth: noSession, global });
  const asCaller = (jwt: string): SupabaseClient =>
    createClient(config.url, config.anonKey, {
      auth: noSession,
      global: { ...global, headers: { Authorization: `Bearer ${jwt}` } },
    });

  return {
    async identify(jwt) {
      const { data, error } = await anon.auth.getUser(jwt);
      if (data.user && !error) return ok(data.user.id);
      const unreachable = !error?.status || error.status >= 500;
      if (error && unreachable && error.name !== "AuthSessionMissingError") {
        return fail(platformError("auth.getUser", error));
      }
      return fail(appError("auth_required"));
    },

    async deleteRow(jwt, id) {
      const { data, error, status } = await asCaller(jwt).from("generations").delete().eq("id", id).select(
        "image_path",
      );
      // PostgREST's error carries its HTTP status on the response, not on the error.
      if (error) return fail(platformError("delete generation", { ...error, status }));
      const row = (data ?? [])[0] as { image_path?: unknown } | undefined;
      return ok({
        deleted: row !== undefined,
        imagePath: typeof row?.image_path === "string" ? row.image_path : null,
      });
    },

    async removeObject(jwt, path) {
      const { data, error } = await asCaller(jwt).storage.from(GENERATIONS_BUCKET).remove([path]);
      if (error) return fail(platformError("storage remove", error as { status?: number; message?: string }));
      return ok((data ?? []).length > 0);
    },
  };
}
