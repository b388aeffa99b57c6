// An in-memory GenerationStore with the quota semantics the migrations promise: per-tier daily limits,
// a reset at the user's next local midnight, reservations idempotent per request id (and free once the
// request's row exists) that count against the limit while held, commit charging exactly once and
// release giving a held slot back, as the quota_* functions of the migrations do; recordGeneration
// stores the row and charges its reservation together, or does neither, as record_generation does. Several FakeStore views can share one FakeDb, as several isolates share one database.
import { type AppError, appError, fail, ok, type Result } from "../../../supabase/functions/_shared/errors.ts";
import type { GenerationRow } from "../../../supabase/functions/_shared/vocabulary/rows.ts";
import type {
  EngineAttempt,
  GenerationStore,
  NewGeneration,
  QuotaState,
  RecordOutcome,
  Reservation,
} from "../../../supabase/functions/_shared/generation-store.ts";
import { type Tier, TIER_DAILY_QUOTA } from "../../../supabase/functions/_shared/vocabulary/tiers.ts";
import { wallClock } from "../../support/wall-clock.ts";

interface Limits {
  used: number;
  resetAt: number;
  tier: Tier;
  timezone: string;
  pendingTimezone: string | null;
}

export function nextLocalMidnight(nowMs: number, timeZone: string): number {
  const wall = new Date(wallClock(nowMs, timeZone));
  const offset = wall.getTime() - (nowMs - (nowMs % 1000));
  return Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate() + 1) - offset;
}

/** A reservation this old with no row is left by a call that ended (take_stale_reservations). */
const STALE_AFTER_MS = 10 * 60_000;

export class FakeDb {
  users = new Map<string, string>(); // jwt -> user id
  limits = new Map<string, Limits>();
  /** Held reservations by request id, with when they were made; a commit or a release removes one. */
  reservations = new Map<string, { userId: string; at: number }>();
  rows = new Map<string, GenerationRow>();
  /** Request ids whose generation the person deleted (private.generation_tombstones), with the owner. */
  tombstones = new Map<string, string>();
  objects = new Map<string, { bytes: Uint8Array; contentType: string }>();
  /** user_preferences.public_gallery_opt_in per user; a user without an entry has no preferences row. */
  galleryOptIn = new Map<string, boolean>();
  calls: string[] = [];
  /** Engine calls the handler noted (record_engine_attempt). */
  attempts: EngineAttempt[] = [];
  /** Makes the named store method fail once per entry. */
  failures = new Map<keyof GenerationStore, AppError>();
  constructor(public now: () => number = () => Date.now()) {}

  addUser(tier: Tier = "free"): { id: string; jwt: string } {
    const id = crypto.randomUUID();
    const jwt = `jwt-${id}`;
    this.users.set(jwt, id);
    this.limits.set(id, {
      used: 0,
      resetAt: nextLocalMidnight(this.now(), "UTC"),
      tier,
      timezone: "UTC",
      pendingTimezone: null,
    });
    return { id, jwt };
  }

  limitsOf(userId: string): Limits {
    const l = this.limits.get(userId)!;
    if (this.now() >= l.resetAt) {
      if (l.pendingTimezone) l.timezone = l.pendingTimezone;
      l.pendingTimezone = null;
      l.used = 0;
      l.resetAt = nextLocalMidnight(this.now(), l.timezone);
    }
    return l;
  }

  /** The account is deleted: its session, limits, reservations, rows and objects go (on delete cascade). */
  deleteUser(userId: string): void {
    for (const [jwt, id] of this.users) if (id === userId) this.users.delete(jwt);
    this.limits.delete(userId);
    for (const [k, r] of this.reservations) if (r.userId === userId) this.reservations.delete(k);
    for (const [k, r] of this.rows) if (r.user_id === userId) this.rows.delete(k);
    for (const k of this.objects.keys()) if (k.startsWith(`${userId}/`)) this.objects.delete(k);
  }

  /** The person deletes a generation (the row goes; its request id is remembered as deleted). */
  deleteRow(id: string): void {
    const row = this.rows.get(id);
    if (!row) return;
    this.rows.delete(id);
    this.tombstones.set(id, row.user_id);
  }

  held(userId: string): number {
    return [...this.reservations.values()].filter((r) => r.userId === userId).length;
  }

  quota(userId: string): QuotaState {
    const l = this.limitsOf(userId);
    const limit = TIER_DAILY_QUOTA[l.tier];
    return {
      remaining: Math.max(0, limit - l.used - this.held(userId)),
      daily_limit: limit,
      reset_at: new Date(l.resetAt).toISOString(),
    };
  }
}

export class FakeStore implements GenerationStore {
  constructor(public db: FakeDb) {}

  /** A call of `name` begins: a round trip's wait, then the failure injected for it, if any. */
  private async enter(name: keyof GenerationStore): Promise<AppError | null> {
    await this.tick();
    return this.injected(name);
  }

  private injected(name: keyof GenerationStore): AppError | null {
    this.db.calls.push(name);
    const e = this.db.failures.get(name);
    if (e) this.db.failures.delete(name);
    return e ?? null;
  }

  // Every method yields to the event loop once, as a network round trip would, so concurrent calls
  // interleave; a macrotask (not a timer, which Deno rounds up to a millisecond) keeps benches honest.
  private async tick() {
    await new Promise<void>((r) => {
      const { port1, port2 } = new MessageChannel();
      port1.onmessage = () => {
        port1.close();
        r();
      };
      port2.postMessage(null);
    });
  }

  async userFromJwt(jwt: string): Promise<Result<{ id: string }>> {
    const e = await this.enter("userFromJwt");
    if (e) return fail(e);
    const id = this.db.users.get(jwt);
    return id ? ok({ id }) : fail(appError("auth_required"));
  }

  async setTimezone(jwt: string, timezone: string): Promise<Result<void>> {
    const e = await this.enter("setTimezone");
    if (e) return fail(e);
    const id = this.db.users.get(jwt)!;
    this.db.limitsOf(id).pendingTimezone = timezone;
    return ok(undefined);
  }

  async readLimits(jwt: string): Promise<Result<QuotaState>> {
    const e = await this.enter("readLimits");
    if (e) return fail(e);
    return ok(this.db.quota(this.db.users.get(jwt)!));
  }

  async findGeneration(id: string): Promise<Result<GenerationRow | null>> {
    const e = await this.enter("findGeneration");
    if (e) return fail(e);
    return ok(this.db.rows.get(id) ?? null);
  }

  async publishDefault(userId: string): Promise<Result<boolean>> {
    const e = await this.enter("publishDefault");
    if (e) return fail(e);
    return ok(this.db.galleryOptIn.get(userId) ?? false);
  }

  async reserve(userId: string, requestId: string): Promise<Result<Reservation>> {
    const e = await this.enter("reserve");
    if (e) return fail(e);
    // The limits row references the user: a deleted account fails with the database's foreign key.
    if (!this.db.limits.has(userId)) return fail(appError("server_error", { detail: "23503 foreign key" }));
    const l = this.db.limitsOf(userId);
    const limit = TIER_DAILY_QUOTA[l.tier];
    const existing = this.db.reservations.get(requestId);
    if (existing && existing.userId !== userId) {
      return fail(appError("invalid_input", { message: "This request id is already in use", status: 409 }));
    }
    const stored = this.db.rows.get(requestId);
    if (!stored && this.db.tombstones.get(requestId) === userId) {
      return ok({ ...this.db.quota(userId), allowed: false, tier: l.tier, deleted: true });
    }
    if ((stored && stored.user_id === userId) || existing) {
      return ok({ ...this.db.quota(userId), allowed: true, tier: l.tier });
    }
    if (l.used + this.db.held(userId) >= limit) return ok({ ...this.db.quota(userId), allowed: false, tier: l.tier });
    this.db.reservations.set(requestId, { userId, at: this.db.now() });
    return ok({ ...this.db.quota(userId), allowed: true, tier: l.tier });
  }

  async commit(userId: string, requestId: string): Promise<Result<QuotaState | null>> {
    const e = await this.enter("commit");
    if (e) return fail(e);
    // Counted once: the reservation goes as it is counted; an unknown or released id changes nothing.
    const r = this.db.reservations.get(requestId);
    if (r && r.userId === userId) {
      this.db.reservations.delete(requestId);
      this.db.limitsOf(userId).used++;
    }
    return ok(this.db.quota(userId));
  }

  async release(userId: string, requestId: string): Promise<Result<void>> {
    const e = await this.enter("release");
    if (e) return fail(e);
    if (this.db.reservations.get(requestId)?.userId === userId) this.db.reservations.delete(requestId);
    return ok(undefined);
  }

  async takeStaleReservations(userId: string): Promise<Result<string[]>> {
    const e = await this.enter("takeStaleReservations");
    if (e) return fail(e);
    const taken: string[] = [];
    for (const [id, r] of this.db.reservations) {
      if (r.userId !== userId || r.at >= this.db.now() - STALE_AFTER_MS || this.db.rows.has(id)) continue;
      this.db.reservations.delete(id);
      taken.push(`${userId}/${id}.`);
    }
    return ok([...this.db.objects.keys()].filter((path) => taken.some((prefix) => path.startsWith(prefix))));
  }

  async putImage(path: string, bytes: Uint8Array, contentType: string): Promise<Result<void>> {
    const e = await this.enter("putImage");
    if (e) return fail(e);
    this.db.objects.set(path, { bytes, contentType });
    return ok(undefined);
  }

  async removeImage(path: string): Promise<Result<void>> {
    const e = await this.enter("removeImage");
    if (e) return fail(e);
    this.db.objects.delete(path);
    return ok(undefined);
  }

  async recordGeneration(row: NewGeneration): Promise<Result<RecordOutcome>> {
    const e = await this.enter("recordGeneration");
    if (e) return fail(e);
    if (this.db.tombstones.get(row.id) === row.user_id) return ok({ created: false, deleted: true });
    if (this.db.rows.has(row.id)) return ok({ created: false });
    // The database's foreign key: a deleted user's row is refused (the real store maps 23503 itself;
    // the fake answers server_error, so the handler's own check that the user still exists is tested).
    if (!this.db.limits.has(row.user_id)) return fail(appError("server_error", { detail: "23503 foreign key" }));
    if (!row.image_path.startsWith(`${row.user_id}/`)) {
      return fail(appError("server_error", { detail: "check violation" }));
    }
    const stored: GenerationRow = {
      ...row,
      is_saved: false,
      created_at: new Date(this.db.now()).toISOString(),
    };
    this.db.rows.set(row.id, stored);
    const r = this.db.reservations.get(row.id);
    if (r && r.userId === row.user_id) {
      this.db.reservations.delete(row.id);
      this.db.limitsOf(row.user_id).used++;
    }
    return ok({ created: true, row: stored, quota: this.db.quota(row.user_id) });
  }

  async signedUrl(path: string, expiresInSec: number): Promise<Result<string>> {
    const e = await this.enter("signedUrl");
    if (e) return fail(e);
    return ok(`http://storage.test/object/sign/generations/${path}?expires=${expiresInSec}`);
  }

  async recordAttempt(attempt: EngineAttempt): Promise<Result<void>> {
    const e = await this.enter("recordAttempt");
    if (e) return fail(e);
    this.db.attempts.push(attempt);
    return ok(undefined);
  }
}
