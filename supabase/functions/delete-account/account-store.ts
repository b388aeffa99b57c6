// What delete-account needs from the platform, and its implementation on Supabase: who the caller
// is (Auth), their generation rows (PostgREST), the objects of their folder in the generations bucket
// (the Storage API: hosted Supabase does not let SQL delete Storage objects, their bytes live outside
// the database) and their auth user (GoTrue's admin API). Everything but identifying the caller runs
// with the service role, which only this server holds.
// deno-lint-ignore no-import-prefix -- the edge runtime deploys this file without an import map
import { createClient } from "npm:@supabase/supabase-js@2";
import { type AppError, appError, fail, ok, type Result } from "../_shared/errors.ts";
import { GENERATIONS_BUCKET } from "../_shared/vocabulary/rows.ts";

export interface Caller {
  id: string;
  /** False when the token was valid but its account is already gone (a repeated request). */
  exists: boolean;
}

/** One listing of a folder: object names and sub-folder names directly under it. */
export interface FolderPage {
  files: string[];
  folders: string[];
}

export interface AccountStore {
  identify(jwt: string): Promise<Result<Caller>>;
  deleteGenerations(userId: string): Promise<Result<void>>;
  /** The first `limit` entries of `folder` (a path without slashes at either end). */
  listFolder(folder: string, limit: number): Promise<Result<FolderPage>>;
  /** Removes objects by full path; answers how many were actually removed. */
  removeObjects(paths: string[]): Promise<Result<number>>;
  /** Deletes the auth user; `existed` is false when there was none (already deleted). */
  deleteUser(userId: string): Promise<Result<{ existed: boolean }>>;
}

export interface AccountStoreConfig {
  url: string;
  anonKey: string;
  serviceRoleKey: string;
  fetch?: typeof fetch;
}

const noSession = { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false };

function platformError(what: string, e: { status?: number; code?: string; message?: string } | null): AppError {
  const detail = `${what}: ${e?.status ?? ""} ${e?.code ?? ""} ${e?.message ?? ""}`.slice(0, 240);
  return appError("server_error", { detail });
}

/**
 * The `sub` claim of a token. Used only after Auth has verified the token's signature and answered
 * that its user does not exist, so the claim is trustworthy.
 */
export function subjectOf(jwt: string): string | null {
  const payload = jwt.split(".")[1];
  if (!payload) return null;
  try {
    const json = atob(
      payload
        .replaceAll("-", "+")
        .replaceAll("_", "/")
        .padEnd(Math.ceil(payload.length / 4) * 4, "="),
    );
    const sub = (JSON.parse(json) as { sub?: unknown }).sub;
    return typeof sub === "string" && /^[0-9a-f-]{36}$/i.test(sub) ? sub : null;
  } catch {
    return null;
  }
}

export function createSupabaseAccountStore(config: AccountStoreConfig): AccountStore {
  const global = config.fetch ? { fetch: config.fetch } : {};
  const anon = createClient(config.url, config.anonKey, { auth: noSession, global });
  const service = createClient(config.url, config.serviceRoleKey, { auth: noSession, global });
  const bucket = () => service.storage.from(GENERATIONS_BUCKET);

  return {
    async identify(jwt) {
      const { data, error } = await anon.auth.getUser(jwt);
      if (data.user && !error) return ok({ id: data.user.id, exists: true });
      // GoTrue checks the signature before it looks the user up: user_not_found means a genuine token
      // of an account that no longer exists.
      if (error?.code === "user_not_found") {
        const sub = subjectOf(jwt);
        return sub ? ok({ id: sub, exists: false }) : fail(appError("auth_required"));
      }
      const unreachable = !error?.status || error.status >= 500;
      if (error && unreachable && error.name !== "AuthSessionMissingError") {
        return fail(platformError("auth.getUser", error));
      }
      return fail(appError("auth_required"));
    },

    async deleteGenerations(userId) {
      const { error } = await service.from("generations").delete().eq("user_id", userId);
      return error ? fail(platformError("delete generations", error)) : ok(undefined);
    },

    async listFolder(folder, limit) {
      const { data, error } = await bucket().list(folder, {
        limit,
        offset: 0,
        sortBy: { column: "name", order: "asc" },
      });
      if (error) return fail(platformError("storage list", error as { message?: string }));
      // Storage lists a sub-folder as an entry without an id.
      const files = (data ?? []).filter((e) => e.id !== null).map((e) => e.name);
      const folders = (data ?? []).filter((e) => e.id === null).map((e) => e.name);
      return ok({ files, folders });
    },

    async removeObjects(paths) {
      const { data, error } = await bucket().remove(paths);
      if (error) return fail(platformError("storage remove", error as { message?: string }));
      return ok(data?.length ?? 0);
    },

    async deleteUser(userId) {
      const { error } = await service.auth.admin.deleteUser(userId);
      if (!error) return ok({ existed: true });
      if (error.status === 404 || error.code === "user_not_found") return ok({ existed: false });
      return fail(platformError("auth.admin.deleteUser", error));
    },
  };
}
