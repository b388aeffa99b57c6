// GenerationStore on Supabase: the caller is identified through Auth with the anon key, their own
// settings are written as them (RLS and the RPCs decide), and the quota RPCs, the private bucket and
// the history insert go through the service role, which only this server holds.
// deno-lint-ignore no-import-prefix -- the edge runtime deploys this file without an import map
import { createClient, type SupabaseClient } from "npm:@supabase/supabase-js@2";
import { appError, fail, invalidInput, ok } from "./errors.ts";
import { type GenerationStore, quotaFrom, type Reservation } from "./generation-store.ts";
import { GENERATION_COLUMNS, type GenerationRow, GENERATIONS_BUCKET } from "./vocabulary/rows.ts";
import { DEFAULT_TIER } from "./vocabulary/tiers.ts";

export interface SupabaseStoreConfig {
  url: string;
  anonKey: string;
  serviceRoleKey: string;
  fetch?: typeof fetch;
}

const UNIQUE_VIOLATION = "23505";
/** The user a row points at is gone: the account was deleted while the generation was in flight. */
const FOREIGN_KEY_VIOLATION = "23503";

const noSession = { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false };

function dbError(what: string, e: { code?: string; message?: string } | null): ReturnType<typeof appError> {
  const detail = `${what}: ${e?.code ?? ""} ${e?.message ?? ""}`.slice(0, 240);
  // Retrying cannot help a deleted account: the person must sign in (again) to an existing one.
  if (e?.code === FOREIGN_KEY_VIOLATION) return appError("auth_required", { detail });
  return appError("server_error", { detail });
}

export function createSupabaseStore(config: SupabaseStoreConfig): GenerationStore {
  const global = config.fetch ? { fetch: config.fetch } : {};
  const anon = createClient(config.url, config.anonKey, { auth: noSession, global });
  const service = createClient(config.url, config.serviceRoleKey, { auth: noSession, global });
  const asUser = (jwt: string): SupabaseClient =>
    createClient(config.url, config.anonKey, {
      auth: noSession,
      global: { ...global, headers: { Authorization: `Bearer ${jwt}` } },
    });

  return {
    async userFromJwt(jwt) {
      const { data, error } = await anon.auth.getUser(jwt);
      if (error || !data.user) {
        const unreachable = !error?.status || error.status >= 500;
        if (error && unreachable && error.name !== "AuthSessionMissingError") {
          return fail(dbError("auth.getUser", { code: String(error.status ?? ""), message: error.message }));
        }
        return fail(appError("auth_required"));
      }
      return ok({ id: data.user.id });
    },

    async setTimezone(jwt, timezone) {
      const { error } = await asUser(jwt).rpc("set_my_timezone", { p_timezone: timezone });
      return error ? fail(dbError("set_my_timezone", error)) : ok(undefined);
    },

    async readLimits(jwt) {
      const { data, error } = await asUser(jwt).rpc("get_my_limits");
      if (error) return fail(dbError("get_my_limits", error));
      const quota = quotaFrom(data);
      return quota ? ok(quota) : fail(dbError("get_my_limits", { message: "unexpected shape" }));
    },

    async findGeneration(id) {
      const { data, error } = await service.from("generations").select(GENERATION_COLUMNS).eq("id", id).maybeSingle();
      if (error) return fail(dbError("select generation", error));
      return ok((data as GenerationRow | null) ?? null);
    },

    async publishDefault(userId) {
      const { data, error } = await service
        .from("user_preferences")
        .select("public_gallery_opt_in")
        .eq("user_id", userId)
        .maybeSingle();
      if (error) return fail(dbError("select user_preferences", error));
      return ok((data as { public_gallery_opt_in?: boolean } | null)?.public_gallery_opt_in === true);
    },

    async reserve(userId, requestId) {
      const { data, error } = await service.rpc("quota_reserve", { p_user_id: userId, p_request_id: requestId });
      // Another person's generation in flight holds this id.
      if (error?.code === UNIQUE_VIOLATION) return fail(invalidInput("This request id is already in use", 409));
      if (error) return fail(dbError("quota_reserve", error));
      const quota = quotaFrom(data);
      const d = data as { allowed?: unknown; tier?: unknown; deleted?: unknown };
      if (!quota || typeof d.allowed !== "boolean") {
        return fail(dbError("quota_reserve", { message: "unexpected shape" }));
      }
      const reservation: Reservation = { ...quota, allowed: d.allowed, tier: String(d.tier ?? DEFAULT_TIER) };
      return ok(d.deleted === true ? { ...reservation, deleted: true } : reservation);
    },

    async commit(userId, requestId) {
      const { data, error } = await service.rpc("quota_commit", { p_user_id: userId, p_request_id: requestId });
      return error ? fail(dbError("quota_commit", error)) : ok(quotaFrom(data));
    },

    async release(userId, requestId) {
      const { error } = await service.rpc("quota_release", { p_user_id: userId, p_request_id: requestId });
      return error ? fail(dbError("quota_release", error)) : ok(undefined);
    },

    async takeStaleReservations(userId) {
      const { data, error } = await service.rpc("take_stale_reservations", { p_user_id: userId });
      if (error) return fail(dbError("take_stale_reservations", error));
      if (!Array.isArray(data) || !data.every((p) => typeof p === "string")) {
        return fail(dbError("take_stale_reservations", { message: "unexpected shape" }));
      }
      return ok(data as string[]);
    },

    async putImage(path, bytes, contentType) {
      // A Blob uploads as multipart with the part's own type, exactly as the app's client does.
      const blob = new Blob([bytes as Uint8Array<ArrayBuffer>], { type: contentType });
      const { error } = await service.storage.from(GENERATIONS_BUCKET).upload(path, blob, {
        contentType,
        upsert: true,
      });
      return error ? fail(dbError("storage upload", { message: error.message })) : ok(undefined);
    },

    async removeImage(path) {
      const { error } = await service.storage.from(GENERATIONS_BUCKET).remove([path]);
      return error ? fail(dbError("storage remove", { message: error.message })) : ok(undefined);
    },

    async recordGeneration(row) {
      const { data, error } = await service.rpc("record_generation", { p_generation: row });
      if (error?.code === UNIQUE_VIOLATION) return ok({ created: false });
      if (error) return fail(dbError("record_generation", error));
      const d = data as { created?: unknown; row?: unknown; quota?: unknown; deleted?: unknown } | null;
      if (d?.created === false) return ok(d.deleted === true ? { created: false, deleted: true } : { created: false });
      if (d?.created !== true || !d.row || typeof d.row !== "object") {
        return fail(dbError("record_generation", { message: "unexpected shape" }));
      }
      return ok({ created: true, row: d.row as GenerationRow, quota: quotaFrom(d.quota) });
    },

    async signedUrl(path, expiresInSec) {
      const { data, error } = await service.storage.from(GENERATIONS_BUCKET).createSignedUrl(path, expiresInSec);
      if (error || !data?.signedUrl) return fail(dbError("sign url", { message: error?.message }));
      return ok(data.signedUrl);
    },

    async recordAttempt({ provider, ok: made, errorCode, ms }) {
      const { error } = await service.rpc("record_engine_attempt", {
        p_provider: provider,
        p_ok: made,
        p_error_code: errorCode,
        p_ms: ms,
      });
      return error ? fail(dbError("record_engine_attempt", error)) : ok(undefined);
    },
  };
}
