// Sessions: starting one (a session row, a refresh token and an access token), refreshing it with
// GoTrue's rotation rules, ending it, and finding the session and user behind a bearer token. Refresh
// tokens are stored as digests; deleting a session deletes its refresh tokens (foreign key cascade).
import type { Ctx } from "../http.ts";
import { bearer } from "../http.ts";
import type { Sql } from "../db.ts";
import { signJwt, verifyJwt } from "../jwt.ts";
import { type JsonObject, type Outcome, refuse, succeed } from "./responses.ts";
import { randomSecret, sha256Hex } from "./secrets.ts";
import { findUserById, toGoTrueUser, type UserRow, UUID } from "./users.ts";

/** How the session was authenticated, as the `amr` claim names it. */
export type AuthMethod = "password" | "otp" | "recovery";

interface Amr {
  method: AuthMethod;
  timestamp: number;
}

async function accessToken(ctx: Ctx, user: UserRow, sessionId: string, amr: Amr, nowSec: number) {
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
      aal: "aal1",
      amr: [amr],
      session_id: sessionId,
      is_anonymous: user.is_anonymous,
    },
    ctx.config.jwtSecret,
  );
  return { token, exp };
}

async function sessionBody(ctx: Ctx, user: UserRow, sessionId: string, refreshToken: string, amr: Amr) {
  const now = Math.floor(Date.now() / 1000);
  const { token, exp } = await accessToken(ctx, user, sessionId, amr, now);
  return {
    access_token: token,
    token_type: "bearer",
    expires_in: ctx.config.jwtExpirySec,
    expires_at: exp,
    refresh_token: refreshToken,
    user: await toGoTrueUser(user),
  };
}

async function insertRefreshToken(sql: Sql, userId: string, sessionId: string, parentHash: string | null) {
  const token = randomSecret();
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
  await sql.query(`update auth.users set last_sign_in_at = now() where id = $1`, [userId]);
  await sql.query(`insert into auth.sessions (id, user_id) values ($1, $2)`, [sessionId, userId]);
  const refresh = await insertRefreshToken(sql, userId, sessionId, null);
  const user = (await findUserById(sql, userId))!;
  return await sessionBody(ctx, user, sessionId, refresh, { method, timestamp: Math.floor(Date.now() / 1000) });
}

type TokenRow = {
  id: string;
  token: string;
  user_id: string;
  session_id: string;
  revoked: boolean;
  revoked_for_sec: number;
  session_started: number;
};

/**
 * grant_type=refresh_token, following GoTrue: each use revokes the token and issues a child. A revoked
 * token that is the parent of the session's live token (the client lost the answer to its last
 * refresh) is honoured. Any other revoked token, once older than the reuse interval, is treated as
 * stolen: every token of its session is revoked and the answer is refresh_token_already_used.
 */
export function refreshSession(ctx: Ctx, raw: string): Promise<Outcome<JsonObject>> {
  return ctx.db.transaction(async (sql) => {
    const hash = await sha256Hex(raw);
    const { rows } = await sql.query<TokenRow>(
      `select rt.id::text as id, rt.token, rt.user_id::text as user_id, rt.session_id::text as session_id,
              rt.revoked, extract(epoch from now() - rt.updated_at)::float8 as revoked_for_sec,
              extract(epoch from s.created_at)::float8 as session_started
         from auth.refresh_tokens rt join auth.sessions s on s.id = rt.session_id
        where rt.token = $1 for update of rt, s`,
      [hash],
    );
    const row = rows[0];
    if (!row) return refuse(400, "refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found");
    const user = await findUserById(sql, row.user_id);
    if (!user) return refuse(400, "refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found");
    if (user.banned) return refuse(400, "user_banned", "Invalid Refresh Token: User Banned");

    let parentHash = hash;
    if (row.revoked) {
      const live = await sql.query<{ id: string; token: string; parent: string | null }>(
        `select id::text as id, token, parent from auth.refresh_tokens
          where session_id = $1 and not revoked order by id desc limit 1`,
        [row.session_id],
      );
      const active = live.rows[0];
      if (active && active.parent === hash) {
        // The stored digest cannot be handed back, so the live token is rotated in its place.
        await sql.query(`update auth.refresh_tokens set revoked = true, updated_at = now() where id = $1`, [active.id]);
        parentHash = active.token;
      } else if (row.revoked_for_sec > ctx.config.refreshTokenReuseIntervalSec) {
        await sql.query(
          `update auth.refresh_tokens set revoked = true, updated_at = now() where session_id = $1 and not revoked`,
          [row.session_id],
        );
        ctx.log("refresh token reused after rotation; the session's tokens are revoked", { session: row.session_id });
        return refuse(400, "refresh_token_already_used", "Invalid Refresh Token: Already Used");
      }
    } else {
      await sql.query(`update auth.refresh_tokens set revoked = true, updated_at = now() where id = $1`, [row.id]);
    }
    const next = await insertRefreshToken(sql, row.user_id, row.session_id, parentHash);
    await sql.query(`update auth.sessions set updated_at = now() where id = $1`, [row.session_id]);
    // The method of the original sign-in is not stored with the session; refreshed tokens say password.
    const amr: Amr = { method: "password", timestamp: Math.floor(row.session_started) };
    return succeed(await sessionBody(ctx, user, row.session_id, next, amr));
  });
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
  if (claims.session_id !== undefined) {
    const sid = String(claims.session_id);
    const found = UUID.test(sid)
      ? (await ctx.db.query(`select 1 from auth.sessions where id = $1 and user_id = $2`, [sid, user.id])).rows
      : [];
    if (found.length === 0) {
      return refuse(403, "session_not_found", "Session from session_id claim in JWT does not exist");
    }
    sessionId = sid;
  }
  return succeed({ user, sessionId });
}
