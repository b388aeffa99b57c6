// The data the generate function reads and writes, as one interface: who the caller is, the quota
// (reserve before a provider call, charged as the history row is stored, release on failure), the
// image object and the history row. Production uses Supabase (supabase-store.ts); tests pass a fake with the same semantics.
import type { Result } from "./errors.ts";
import type { QuotaState } from "./vocabulary/generate-image.ts";
import type { GenerationRow } from "./vocabulary/rows.ts";

export type { QuotaState };

export interface Reservation extends QuotaState {
  allowed: boolean;
  tier: string;
  /** The person deleted this request's generation: nothing is reserved, drawn or charged again. */
  deleted?: boolean;
}

/** is_public is the owner's gallery opt-in at the time of the generation (publishDefault). */
export type NewGeneration = Omit<GenerationRow, "is_saved" | "created_at">;

/** One call to an image engine, for /status's figures (record_engine_attempt): no user, no prompt. */
export type EngineAttempt = { provider: string; ok: boolean; errorCode: string | null; ms: number };

/** `quota` is the caller's quota after the charge, when the database reports it. */
export type RecordOutcome =
  | { created: true; row: GenerationRow; quota: QuotaState | null }
  /** `deleted`: the person deleted this request's generation meanwhile; it is not stored again. */
  | { created: false; deleted?: boolean };

export interface GenerationStore {
  /** The user a JWT belongs to; auth_required when it is not a valid, current user session. */
  userFromJwt(jwt: string): Promise<Result<{ id: string }>>;
  /** Stores the caller's time zone for their next quota reset (set_my_timezone, as the user). */
  setTimezone(jwt: string, timezone: string): Promise<Result<void>>;
  /** The caller's quota without charging (get_my_limits, as the user). */
  readLimits(jwt: string): Promise<Result<QuotaState>>;
  findGeneration(id: string): Promise<Result<GenerationRow | null>>;
  /** Whether a new generation of this user is published: user_preferences.public_gallery_opt_in, false without a row. */
  publishDefault(userId: string): Promise<Result<boolean>>;
  /** Idempotent per request id: a repeated id returns the same reservation and charges nothing more. */
  reserve(userId: string, requestId: string): Promise<Result<Reservation>>;
  /**
   * Charges the request's reservation if one is still held (a no-op otherwise), returning the quota
   * after it when the database reports it. recordGeneration charges a new row; this settles a row
   * stored without its charge (a replay of a request whose function stopped in between).
   */
  commit(userId: string, requestId: string): Promise<Result<QuotaState | null>>;
  release(userId: string, requestId: string): Promise<Result<void>>;
  /**
   * Takes the user's reservations older than 10 minutes with no row (calls that ended before their row)
   * and answers the paths of the images they left (take_stale_reservations), for removeImage.
   */
  takeStaleReservations(userId: string): Promise<Result<string[]>>;
  putImage(path: string, bytes: Uint8Array, contentType: string): Promise<Result<void>>;
  removeImage(path: string): Promise<Result<void>>;
  /**
   * Inserts the history row and commits its reservation in one transaction (record_generation): both
   * happen or neither does. `created: false` (and no charge) when a row with this id already exists.
   * auth_required when the user no longer exists (the account was deleted meanwhile).
   */
  recordGeneration(row: NewGeneration): Promise<Result<RecordOutcome>>;
  signedUrl(path: string, expiresInSec: number): Promise<Result<string>>;
  /** Notes an engine call's outcome and time (engine health on /status); a failure here costs nothing else. */
  recordAttempt(attempt: EngineAttempt): Promise<Result<void>>;
}

/** Reads the quota fields the quota RPCs return; null when the shape is not what they promise. */
export function quotaFrom(v: unknown): QuotaState | null {
  const o = v as Record<string, unknown> | null;
  if (!o || typeof o !== "object") return null;
  const remaining = Number(o.remaining);
  const limit = Number(o.daily_limit);
  const resetAt = o.reset_at;
  if (!Number.isFinite(remaining) || !Number.isFinite(limit) || typeof resetAt !== "string") return null;
  return { remaining: Math.max(0, remaining), daily_limit: limit, reset_at: new Date(resetAt).toISOString() };
}
