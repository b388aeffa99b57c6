// Sessions: starting one (a session row, a refresh token and an access token), refreshing it with
// GoTrue's rotation rules, ending it, and finding the session and user behind a bearer token. Refresh
// tokens are stored as digests; deleting a session deletes its refresh tokens (foreign key cascade). A
// session ended for refresh-token reuse is kept (not_after set), so its tokens can say "Already Used".
import type { Ctx } from "../http.ts";
import { bearer } from "../http.ts";
import type { Sql } from "../db.ts";
import { b64url, signJwt, verifyJwt } from "../jwt.ts";
import { type JsonObject, type Outcome, refuse, succeed } from "./responses.ts";
import { randomSecret, sha256Hex } from "./secrets.ts";
import { findUserById, toGoTrueUser, type UserRow, UUID } from "./users.ts";

/** How the session was authenticated, as the `amr` claim names it. */
export type AuthMethod = "password" | "otp" | "recovery" | "totp";

interface Amr {
  method: AuthMethod;
  timestamp: number;
}

/** A session's assurance level and how it was authenticated (newest method first), as its tokens claim. */
interface Assurance {
  aal: "aal1" | "aal2";
  amr: Amr[];
}

async function accessToken(ctx: Ctx, user: UserRow, sessionId: string, assurance: Assurance, nowSec: number) {
  const exp = nowSec + ctx.config.jwtExpirySec;
  const token = await signJwt(
    {
      iss: `${ctx.config.publicUrl}/auth/v1`,
      sub: user.id,
      aud: user.aud,
      exp,
      iat: nowSec,
      email: user.email ?? "",
      phone: user.phone ?? "",
      app_metadata: user.app_metadata,
      user_metadata: user.user_metadata,
      role: user.role,
      aal: assurance.aal,
      amr: assurance.amr,
      session_id: sessionId,
      is_anonymous: user.is_anonymous,
    },
    ctx.config.jwtSecret,
  );
  return { token, exp };
}

async function sessionBody(ctx: Ctx, user: UserRow, sessionId: string, refreshToken: string, assurance: Assurance) {
  const now = Math.floor(Date.now() / 1000);
  const { token, exp } = await accessToken(ctx, user, sessionId, assurance, now);
  return {
    access_token: token,
    token_type: "bearer",
    expires_in: ctx.config.jwtExpirySec,
    expires_at: exp,
    refresh_token: refreshToken,
    user: await toGoTrueUser(user),
  };
}

let chainKey: { secret: string; key: Promise<CryptoKey> } | null = null;

/** The HMAC key refresh tokens are derived with (from the JWT secret, for this one purpose). */
function refreshChainKey(secret: string): Promise<CryptoKey> {
  if (chainKey?.secret !== secret) {
    const raw = new TextEncoder().encode(`refresh-token-chain\u0000${secret}`);
    const key = crypto.subtle
      .digest("SHA-256", raw)
      .then((bytes) => crypto.subtle.importKey("raw", bytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]));
    chainKey = { secret, key };
  }
  return chainKey.key;
}

/**
 * The refresh token that rotation issues after `parent`. Derived rather than random, so the server can
 * hand the session's current token back to a client that presents an earlier one within the reuse
 * interval (as GoTrue does) while the database keeps only digests of tokens.
 */
async function childToken(ctx: Ctx, parent: string): Promise<string> {
  const mac = await crypto.subtle.sign("HMAC", await refreshChainKey(ctx.config.jwtSecret), enc.encode(parent));
  return b64url(new Uint8Array(mac));
}

const enc = new TextEncoder();

async function insertRefreshToken(
  sql: Sql,
  token: string,
  userId: string,
  sessionId: string,
  parentHash: string | null,
) {
  await sql.query(`insert into auth.refresh_tokens (token, user_id, session_id, parent) values ($1, $2, $3, $4)`, [
    await sha256Hex(token),
    userId,
    sessionId,
    parentHash,
  ]);
  return token;
}

/** Starts a session for a user who has just proven who they are; records the sign-in time. */
export async function startSession(ctx: Ctx, sql: Sql, userId: string, method: AuthMethod): Promise<JsonObject> {
  const sessionId = crypto.randomUUID();
  const amr: Amr[] = [{ method, timestamp: Math.floor(Date.now() / 1000) }];
  await sql.query(`update auth.users set last_sign_in_at = now() where id = $1`, [userId]);
  await sql.query(`insert into auth.sessions (id, user_id, aal, amr) values ($1, $2, 'aal1', $3::jsonb)`, [
    sessionId,
    userId,
    JSON.stringify(amr),
  ]);
  const refresh = await insertRefreshToken(sql, randomSecret(), userId, sessionId, null);
  const user = (await findUserById(sql, userId))!;
  return await sessionBody(ctx, user, sessionId, refresh, { aal: "aal1", amr });
}

/** The session's stored assurance (sessions from before it was stored count as a password sign-in). */
function assuranceOf(row: { aal: string | null; amr: string | null; session_started: number }): Assurance {
  const amr = row.amr ? (JSON.parse(row.amr) as Amr[]) : [];
  return {
    aal: row.aal === "aal2" ? "aal2" : "aal1",
    amr: amr.length ? amr : [{ method: "password", timestamp: Math.floor(row.session_started) }],
  };
}

/**
 * Raises the session to aal2 after a verified second factor (GoTrue's updateMFASessionAndClaims): the
 * method joins the session's amr, the factor is recorded, the session's refresh token is swapped for a
 * new one (the old one revoked) and the new tokens are answered. Other sessions of the user below
 * aal2 are ended, as GoTrue ends them.
 */
export async function raiseToAal2(
  ctx: Ctx,
  sql: Sql,
  userId: string,
  sessionId: string,
  factorId: string,
  method: AuthMethod,
): Promise<JsonObject> {
  const { rows } = await sql.query<{ aal: string | null; amr: string | null; session_started: number }>(
    `select aal, amr::text as amr, extract(epoch from created_at)::float8 as session_started
       from auth.sessions where id = $1`,
    [sessionId],
  );
  const before = assuranceOf(rows[0]);
  const amr = [{ method, timestamp: Math.floor(Date.now() / 1000) }, ...before.amr.filter((a) => a.method !== method)];
  await sql.query(
    `update auth.sessions set aal = 'aal2', factor_id = $2, amr = $3::jsonb, updated_at = now() where id = $1`,
    [sessionId, factorId, JSON.stringify(amr)],
  );
  const { rows: live } = await sql.query<{ token: string }>(
    `update auth.refresh_tokens set revoked = true, updated_at = now() where session_id = $1 and not revoked
     returning token`,
    [sessionId],
  );
  const refresh = await insertRefreshToken(sql, randomSecret(), userId, sessionId, live[0]?.token ?? null);
  await sql.query(`delete from auth.sessions where user_id = $1 and id <> $2 and aal <> 'aal2'`, [userId, sessionId]);
  const user = (await findUserById(sql, userId))!;
  return await sessionBody(ctx, user, sessionId, refresh, { aal: "aal2", amr });
}

/** After a factor is removed: every session it raised goes back to aal1 (GoTrue's DowngradeSessionsToAAL1). */
export async function lowerSessionsOfFactor(sql: Sql, factorId: string): Promise<void> {
  await sql.query(`update auth.sessions set aal = 'aal1', factor_id = null, updated_at = now() where factor_id = $1`, [
    factorId,
  ]);
}

type TokenRow = {
  id: string;
  user_id: string;
  session_id: string;
  revoked: boolean;
  revoked_for_sec: number;
  session_started: number;
  session_ended: boolean;
  aal: string | null;
  amr: string | null;
};

/** Most rotations walked to find the session's current token (more cannot happen within the interval). */
const MAX_CHAIN_WALK = 1000;

const ALREADY_USED = "Invalid Refresh Token: Already Used";

/**
 * grant_type=refresh_token with GoTrue's rotation. The session's live token is revoked and its child
 * issued. A revoked token presented again within the reuse interval (counted from its own rotation:
 * a lost answer, or two tabs refreshing at once) gets the session's current token back, not a new
 * branch. Presented later, it is treated as stolen: the session is ended, so every refresh token of it
 * answers refresh_token_already_used from then on and its access tokens get session_not_found from
 * the endpoints that check sessions. GoTrue additionally honours the live token's parent at any age;
 * the local backend does not, so a copy of a token one rotation old cannot keep a second holder in.
 */
export function refreshSession(ctx: Ctx, raw: string): Promise<Outcome<JsonObject>> {
  return ctx.db.transaction(async (sql) => {
    const hash = await sha256Hex(raw);
    const { rows } = await sql.query<TokenRow>(
      `select rt.id::text as id, rt.user_id::text as user_id, rt.session_id::text as session_id,
              rt.revoked, extract(epoch from now() - rt.updated_at)::float8 as revoked_for_sec,
              extract(epoch from s.created_at)::float8 as session_started, s.aal, s.amr::text as amr,
              (s.not_after is not null and s.not_after <= now()) as session_ended
         from auth.refresh_tokens rt join auth.sessions s on s.id = rt.session_id
        where rt.token = $1 for update of rt, s`,
      [hash],
    );
    const row = rows[0];
    if (!row) return refuse(400, "refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found");
    const user = await findUserById(sql, row.user_id);
    if (!user) return refuse(400, "refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found");
    if (user.banned) return refuse(400, "user_banned", "Invalid Refresh Token: User Banned");
    if (row.session_ended) return refuse(400, "refresh_token_already_used", ALREADY_USED);

    let issued: string | null = null;
    if (!row.revoked) {
      await sql.query(`update auth.refresh_tokens set revoked = true, updated_at = now() where id = $1`, [row.id]);
      issued = await insertRefreshToken(sql, await childToken(ctx, raw), row.user_id, row.session_id, hash);
    } else if (row.revoked_for_sec <= ctx.config.refreshTokenReuseIntervalSec) {
      issued = await currentToken(ctx, sql, row, raw);
    }
    if (issued === null) {
      await sql.query(`update auth.sessions set not_after = now(), updated_at = now() where id = $1`, [row.session_id]);
      await sql.query(
        `update auth.refresh_tokens set revoked = true, updated_at = now() where session_id = $1 and not revoked`,
        [row.session_id],
      );
      ctx.log("refresh token reused after rotation; the session is ended", { session: row.session_id });
      return refuse(400, "refresh_token_already_used", ALREADY_USED);
    }
    await sql.query(`update auth.sessions set updated_at = now() where id = $1`, [row.session_id]);
    return succeed(await sessionBody(ctx, user, row.session_id, issued, assuranceOf(row)));
  });
}

/**
 * The session's live refresh token, recomputed from the revoked token `raw` by following the rotations
 * issued since it; null when the chain does not lead there (no live token, or one issued otherwise).
 */
async function currentToken(ctx: Ctx, sql: Sql, row: TokenRow, raw: string): Promise<string | null> {
  const { rows } = await sql.query<{ token: string; later: number }>(
    `select token, (select count(*) from auth.refresh_tokens where session_id = $1 and id > $2::bigint)::int as later
       from auth.refresh_tokens where session_id = $1 and not revoked order by id desc limit 1`,
    [row.session_id, row.id],
  );
  const live = rows[0];
  if (!live) return null;
  let token = raw;
  for (let i = 0; i < Math.min(Number(live.later), MAX_CHAIN_WALK); i++) {
    token = await childToken(ctx, token);
    if ((await sha256Hex(token)) === live.token) return token;
  }
  return null;
}

export type LogoutScope = "global" | "local" | "others";

export async function endSessions(sql: Sql, userId: string, sessionId: string | null, scope: LogoutScope) {
  if (scope === "local" && sessionId) {
    await sql.query(`delete from auth.sessions where id = $1`, [sessionId]);
  } else if (scope === "others" && sessionId) {
    await sql.query(`delete from auth.sessions where user_id = $1 and id <> $2`, [userId, sessionId]);
  } else {
    await sql.query(`delete from auth.sessions where user_id = $1`, [userId]);
  }
}

export interface Caller {
  user: UserRow;
  sessionId: string | null;
  /** The session's assurance level (aal1 without a session). */
  aal: "aal1" | "aal2";
}

/**
 * The user (and session) behind `Authorization: Bearer <access token>`, with GoTrue's answers when
 * there is none: session_not_found in particular makes supabase-js drop its stored session.
 */
export async function authenticate(ctx: Ctx, req: Request): Promise<Outcome<Caller>> {
  const token = bearer(req);
  if (!token) return refuse(401, "no_authorization", "This endpoint requires a valid Bearer token");
  const verified = await verifyJwt(token, ctx.config.jwtSecret);
  if (!verified.ok) {
    const why = verified.error === "expired" ? "token has invalid claims: token is expired" : verified.error;
    return refuse(403, "bad_jwt", `invalid JWT: unable to parse or verify signature, ${why}`);
  }
  const claims = verified.value;
  if (typeof claims.sub !== "string" || !UUID.test(claims.sub)) {
    return refuse(403, "bad_jwt", "invalid claim: missing sub claim");
  }
  const user = await findUserById(ctx.db, claims.sub);
  if (!user) return refuse(403, "user_not_found", "User from sub claim in JWT does not exist");
  let sessionId: string | null = null;
  let aal: Caller["aal"] = "aal1";
  if (claims.session_id !== undefined) {
    const sid = String(claims.session_id);
    const found = UUID.test(sid) ?
      (
        await ctx.db.query<{ aal: string }>(
          `select aal from auth.sessions where id = $1 and user_id = $2 and (not_after is null or not_after > now())`,
          [sid, user.id],
        )
      ).rows :
      [];
    if (found.length === 0) {
      return refuse(403, "session_not_found", "Session from session_id claim in JWT does not exist");
    }
    sessionId = sid;
    aal = found[0].aal === "aal2" ? "aal2" : "aal1";
  }
  return succeed({ user, sessionId, aal });
}
