// What publish-generation needs from the platform, and its implementation on Supabase: who the caller
// is (Auth, their own token), and, with the service role (the only role the database lets publish,
// decision 141), the row, the owner's suspension, the stored image and the row's moderation columns.
// deno-lint-ignore no-import-prefix -- the edge runtime deploys this file without an import map
import { createClient } from "npm:@supabase/supabase-js@2";
import { type AppError, appError, fail, ok, type Result } from "../_shared/errors.ts";
import type { ImageScores } from "../_shared/moderation/image-verdict.ts";
import { GENERATIONS_BUCKET } from "../_shared/vocabulary/rows.ts";

/** The columns of a row the publish path reads. */
export interface PublishRow {
  id: string;
  user_id: string;
  prompt: string;
  image_path: string;
  is_public: boolean;
  flagged_at: string | null;
  removed_at: string | null;
  removed_reason: string | null;
  moderation_scores: unknown;
}

/** What a publish write found: done, the row gone meanwhile, or the database's refusal (its message). */
export type PublishWrite = { kind: "done" } | { kind: "gone" } | { kind: "refused"; message: string };

export interface Publisher {
  /** The caller's user id, once Auth has verified the token. */
  identify(jwt: string): Promise<Result<string>>;
  /** The row of that id, whoever owns it; null when there is none. */
  findRow(id: string): Promise<Result<PublishRow | null>>;
  /** The end of the person's suspension from publishing, when one is running now; else null. */
  suspendedUntil(userId: string): Promise<Result<string | null>>;
  readImage(path: string): Promise<Result<Uint8Array>>;
  /** Keeps the scores with the row, marks it flagged and private. */
  flag(row: PublishRow, scores: ImageScores, at: string): Promise<Result<PublishWrite>>;
  /** Keeps the scores with the row and publishes it. */
  publish(row: PublishRow, scores: ImageScores): Promise<Result<PublishWrite>>;
}

const ROW_COLUMNS = "id,user_id,prompt,image_path,is_public,flagged_at,removed_at,removed_reason,moderation_scores";
const noSession = { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false };

function platformError(what: string, e: { status?: number; code?: string; message?: string } | null): AppError {
  return appError("server_error", { detail: `${what}: ${e?.status ?? ""} ${e?.code ?? ""} ${e?.message ?? ""}` });
}

export function createSupabasePublisher(config: {
  url: string;
  anonKey: string;
  serviceRoleKey: string;
  fetch?: typeof fetch;
}): Publisher {
  const global = config.fetch ? { fetch: config.fetch } : {};
  const anon = createClient(config.url, config.anonKey, { auth: noSession, global });
  const service = createClient(config.url, config.serviceRoleKey, { auth: noSession, global });

  async function write(row: PublishRow, patch: Record<string, unknown>): Promise<Result<PublishWrite>> {
    const { data, error } = await service.from("generations").update(patch).eq("id", row.id).eq(
      "user_id",
      row.user_id,
    ).select("id");
    // The publish trigger refuses a suspended owner's or a removed row's publish (PT403, its message a code).
    if (error?.code === "PT403") return ok({ kind: "refused", message: error.message });
    if (error) return fail(platformError("update generation", error));
    return ok((data ?? []).length ? { kind: "done" } : { kind: "gone" });
  }

  return {
    async identify(jwt) {
      const { data, error } = await anon.auth.getUser(jwt);
      if (data.user && !error) return ok(data.user.id);
      if (error && (!error.status || error.status >= 500) && error.name !== "AuthSessionMissingError") {
        return fail(platformError("auth.getUser", error));
      }
      return fail(appError("auth_required"));
    },
    async findRow(id) {
      const { data, error } = await service.from("generations").select(ROW_COLUMNS).eq("id", id).maybeSingle();
      if (error) return fail(platformError("select generation", error));
      return ok((data as PublishRow | null) ?? null);
    },
    async suspendedUntil(userId) {
      const { data, error } = await service.from("publishing_suspensions").select("until").eq("user_id", userId)
        .gt("until", new Date().toISOString()).maybeSingle();
      if (error) return fail(platformError("select suspension", error));
      return ok((data as { until: string } | null)?.until ?? null);
    },
    async readImage(path) {
      const { data, error } = await service.storage.from(GENERATIONS_BUCKET).download(path);
      if (error || !data) return fail(platformError("storage download", error as { message?: string }));
      return ok(new Uint8Array(await data.arrayBuffer()));
    },
    flag: (row, scores, at) => write(row, { moderation_scores: scores, flagged_at: at, is_public: false }),
    publish: (row, scores) => write(row, { moderation_scores: scores, is_public: true }),
  };
}
