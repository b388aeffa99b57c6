// Multi-factor authentication with TOTP (supabase-js `auth.mfa` and `auth.admin.mfa`), on by default on
// hosted projects, as GoTrue serves it: POST /factors enrols an unverified factor and answers its secret,
// otpauth:// URI and QR code; POST /factors/{id}/challenge opens a challenge (five minutes, bound to the
// caller's IP address); POST /factors/{id}/verify checks a code (RFC 6238: SHA-1, six digits, 30 s, one
// step of skew), verifies the factor, raises the session to aal2 and ends the user's other sessions
// below aal2; DELETE /factors/{id} unenrols (a verified factor only from an aal2 session). The admin
// API lists, renames and deletes a user's factors. Challenges and verifications are limited to 15 a minute
// per IP each (GoTrue's MFA_RATE_LIMIT_CHALLENGE_AND_VERIFY; rate-limits.ts). Phone and WebAuthn factors are off, as hosted's
// defaults have them. Unverified factors older than five minutes are dropped when a new one is enrolled.
import type { Sql } from "../db.ts";
import { json } from "../http.ts";
import { answer, type AuthCtx, type Client, type Endpoint } from "./context.ts";
import { requireAdmin } from "./admin.ts";
import { qrSvg } from "./qr.ts";
import { type JsonObject, type Outcome, readJsonObject, refuse, stringFields, succeed } from "./responses.ts";
import { authenticate, type Caller, lowerSessionsOfFactor, raiseToAal2 } from "./sessions.ts";
import { FACTORS_JSON, UUID } from "./users.ts";

const CHALLENGE_TTL_SEC = 300;
const UNVERIFIED_TTL_SEC = 300;
const MAX_FACTORS = 10;
const PERIOD_SEC = 30;

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

function base32(bytes: Uint8Array): string {
  let out = "", buffer = 0, bits = 0;
  for (const b of bytes) {
    buffer = (buffer << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(buffer << (5 - bits)) & 31];
  return out;
}

function fromBase32(text: string): Uint8Array {
  const out: number[] = [];
  let buffer = 0, bits = 0;
  for (const ch of text.replace(/=+$/, "").toUpperCase()) {
    const v = BASE32.indexOf(ch);
    if (v < 0) continue;
    buffer = (buffer << 5) | v;
    bits += 5;
    if (bits >= 8) {
      out.push((buffer >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return new Uint8Array(out);
}

/** The six-digit code of `secret` (base32) for time step `step` (RFC 4226 / 6238, HMAC-SHA1). */
async function totpAt(secret: string, step: number): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    fromBase32(secret) as BufferSource,
    { name: "HMAC", hash: "SHA-1" },
    false,
    ["sign"],
  );
  const counter = new Uint8Array(8);
  new DataView(counter.buffer).setBigUint64(0, BigInt(step));
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, counter));
  const at = mac[19] & 0xf;
  const value = ((mac[at] & 0x7f) << 24) | (mac[at + 1] << 16) | (mac[at + 2] << 8) | mac[at + 3];
  return String(value % 1_000_000).padStart(6, "0");
}

/** Whether `code` is the secret's code for now or one step either side. */
async function validTotp(secret: string, code: string): Promise<boolean> {
  if (!/^\d{6}$/.test(code)) return false;
  const step = Math.floor(Date.now() / 1000 / PERIOD_SEC);
  for (const s of [step - 1, step, step + 1]) if ((await totpAt(secret, s)) === code) return true;
  return false;
}

/**
 * Authentication as /factors needs it: a session and not anonymous. A token without a session (only one
 * minted with the project's secret lacks it) is refused 403 session_not_found, where GoTrue answers 500
 * unexpected_failure: stricter in kind, and no input a caller sends is a server error here.
 */
async function sessionCaller(actx: AuthCtx, req: Request): Promise<Outcome<Caller & { sessionId: string }>> {
  const caller = await authenticate(actx, req);
  if (!caller.ok) return caller;
  if (caller.value.user.is_anonymous) {
    return refuse(403, "no_authorization", "Anonymous user not allowed to perform these actions");
  }
  const { sessionId } = caller.value;
  if (!sessionId) {
    return refuse(403, "session_not_found", "A valid session and a registered user are required to enroll a factor");
  }
  return succeed({ ...caller.value, sessionId });
}

type FactorRow = {
  id: string;
  status: string;
  factor_type: string;
  secret: string;
};

async function loadFactor(sql: Sql, userId: string, factorId: string): Promise<Outcome<FactorRow>> {
  if (!UUID.test(factorId)) return refuse(404, "validation_failed", "factor_id must be an UUID");
  const { rows } = await sql.query<FactorRow>(
    `select id::text as id, status, factor_type, secret from auth.mfa_factors where id = $1 and user_id = $2`,
    [factorId, userId],
  );
  return rows[0] ? succeed(rows[0]) : refuse(404, "mfa_factor_not_found", "Factor not found");
}

/** POST /factors. */
export const enrollFactor: Endpoint = async (actx, req) => {
  const caller = await sessionCaller(actx, req);
  if (!caller.ok) return answer(caller);
  const { user, aal } = caller.value;
  const body = await readJsonObject(req, actx.config.maxBodyBytes);
  if (!body.ok) return answer(body);
  const fields = stringFields(body.value, "factor_type", "friendly_name", "issuer", "phone");
  if (!fields.ok) return answer(fields);
  const { factor_type: type, friendly_name: name = "", issuer: givenIssuer } = fields.value;
  if (type === "phone") return answer(refuse(422, "mfa_phone_enroll_not_enabled", "MFA enroll is disabled for Phone"));
  if (type === "webauthn") {
    return answer(refuse(422, "mfa_webauthn_enroll_not_enabled", "MFA enroll is disabled for WebAuthn"));
  }
  if (type !== "totp") {
    return answer(refuse(400, "validation_failed", "factor_type needs to be totp, phone, or webauthn"));
  }
  const issuer = givenIssuer || new URL(actx.config.siteUrl).host;
  const outcome = await actx.db.transaction(async (sql) => {
    // GoTrue's validateFactors, in its order.
    await sql.query(
      `delete from auth.mfa_factors where status = 'unverified' and created_at < now() - make_interval(secs => $1)`,
      [UNVERIFIED_TTL_SEC],
    );
    const { rows } = await sql.query<{ friendly_name: string | null; status: string }>(
      `select friendly_name, status from auth.mfa_factors where user_id = $1`,
      [user.id],
    );
    if (rows.some((f) => (f.friendly_name ?? "") === name)) {
      return refuse(
        422,
        "mfa_factor_name_conflict",
        `A factor with the friendly name ${JSON.stringify(name)} for this user already exists`,
      );
    }
    const verified = rows.filter((f) => f.status === "verified").length;
    if (rows.length >= MAX_FACTORS || verified >= MAX_FACTORS) {
      return refuse(
        422,
        "too_many_enrolled_mfa_factors",
        "Maximum number of verified factors reached, unenroll to continue",
      );
    }
    if (verified > 0 && aal !== "aal2") {
      return refuse(403, "insufficient_aal", "AAL2 required to enroll a new factor");
    }
    const secret = base32(crypto.getRandomValues(new Uint8Array(20)));
    const account = user.email ?? "";
    const uri = `otpauth://totp/${encodeURIComponent(issuer)}:${encodeURIComponent(account)}?` +
      new URLSearchParams({ algorithm: "SHA1", digits: "6", issuer, period: "30", secret }).toString();
    const id = crypto.randomUUID();
    await sql.query(
      `insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, secret)
       values ($1, $2, $3, 'totp', 'unverified', $4)`,
      [id, user.id, name, secret],
    );
    return succeed({
      id,
      type: "totp",
      ...(name ? { friendly_name: name } : {}),
      totp: { qr_code: qrSvg(uri), secret, uri },
    });
  });
  return answer(outcome);
};

/** POST /factors/{id}/challenge. */
export async function challengeFactor(
  actx: AuthCtx,
  req: Request,
  factorId: string,
  client: Client,
): Promise<Response> {
  const caller = await sessionCaller(actx, req);
  if (!caller.ok) return answer(caller);
  const outcome = await actx.db.transaction(async (sql) => {
    const factor = await loadFactor(sql, caller.value.user.id, factorId);
    if (!factor.ok) return factor;
    const id = crypto.randomUUID();
    const { rows } = await sql.query<{ expires_at: number }>(
      `insert into auth.mfa_challenges (id, factor_id, ip_address) values ($1, $2, $3)
       returning (extract(epoch from created_at) + $4)::bigint as expires_at`,
      [id, factor.value.id, client.ip, CHALLENGE_TTL_SEC],
    );
    await sql.query(`update auth.mfa_factors set last_challenged_at = now() where id = $1`, [factor.value.id]);
    return succeed({ id, type: factor.value.factor_type, expires_at: Number(rows[0].expires_at) });
  });
  return answer(outcome);
}

/** POST /factors/{id}/verify {challenge_id, code}. */
export async function verifyFactor(actx: AuthCtx, req: Request, factorId: string, client: Client): Promise<Response> {
  const caller = await sessionCaller(actx, req);
  if (!caller.ok) return answer(caller);
  const { user, sessionId } = caller.value;
  const body = await readJsonObject(req, actx.config.maxBodyBytes);
  if (!body.ok) return answer(body);
  const fields = stringFields(body.value, "challenge_id", "code");
  if (!fields.ok) return answer(fields);
  const { challenge_id: challengeId = "", code = "" } = fields.value;
  const outcome = await actx.db.transaction(async (sql): Promise<Outcome<JsonObject>> => {
    const factor = await loadFactor(sql, user.id, factorId);
    if (!factor.ok) return factor;
    if (!code) return refuse(400, "validation_failed", "Code needs to be non-empty");
    const { rows } = UUID.test(challengeId) ?
      await sql.query<{ ip_address: string; verified: boolean; expired: boolean }>(
        `select ip_address, verified_at is not null as verified,
                created_at < now() - make_interval(secs => $3) as expired
           from auth.mfa_challenges where id = $1 and factor_id = $2`,
        [challengeId, factor.value.id, CHALLENGE_TTL_SEC],
      ) :
      { rows: [] };
    const challenge = rows[0];
    if (!challenge) {
      return refuse(422, "mfa_factor_not_found", "MFA factor with the provided challenge ID not found");
    }
    if (challenge.verified || challenge.ip_address !== client.ip) {
      return refuse(422, "mfa_ip_address_mismatch", "Challenge and verify IP addresses mismatch.");
    }
    if (challenge.expired) {
      await sql.query(`delete from auth.mfa_challenges where id = $1`, [challengeId]);
      return refuse(
        422,
        "mfa_challenge_expired",
        `MFA challenge ${challengeId} has expired, verify against another challenge or create a new challenge.`,
      );
    }
    if (!(await validTotp(factor.value.secret, code))) {
      return refuse(422, "mfa_verification_failed", "Invalid TOTP code entered");
    }
    await sql.query(`update auth.mfa_challenges set verified_at = now() where id = $1`, [challengeId]);
    if (factor.value.status !== "verified") {
      await sql.query(`update auth.mfa_factors set status = 'verified', updated_at = now() where id = $1`, [
        factor.value.id,
      ]);
    }
    const session = await raiseToAal2(actx, sql, user.id, sessionId, factor.value.id, "totp");
    await sql.query(
      `delete from auth.mfa_factors where user_id = $1 and factor_type = 'totp' and status = 'unverified'`,
      [
        user.id,
      ],
    );
    return succeed(session);
  });
  return answer(outcome);
}

/** DELETE /factors/{id}. */
export async function unenrollFactor(actx: AuthCtx, req: Request, factorId: string): Promise<Response> {
  const caller = await sessionCaller(actx, req);
  if (!caller.ok) return answer(caller);
  const outcome = await actx.db.transaction(async (sql) => {
    const factor = await loadFactor(sql, caller.value.user.id, factorId);
    if (!factor.ok) return factor;
    if (factor.value.status === "verified" && caller.value.aal !== "aal2") {
      return refuse(422, "insufficient_aal", "AAL2 required to unenroll verified factor");
    }
    await sql.query(`delete from auth.mfa_factors where id = $1`, [factor.value.id]);
    await lowerSessionsOfFactor(sql, factor.value.id);
    return succeed({ id: factor.value.id });
  });
  return answer(outcome);
}

/** The admin API's factors of a user: GET (list), and for one factor DELETE and PUT {friendly_name}. */
export async function adminFactors(
  actx: AuthCtx,
  req: Request,
  userId: string,
  factorId: string | null,
): Promise<Response> {
  const denied = await requireAdmin(actx, req);
  if (denied) return denied;
  if (!UUID.test(userId)) return answer(refuse(404, "validation_failed", "user_id must be an UUID"));
  const { rows: users } = await actx.db.query(`select 1 from auth.users where id = $1`, [userId]);
  if (!users.length) return answer(refuse(404, "user_not_found", "User not found"));
  if (factorId === null) {
    if (req.method !== "GET") return answer(refuse(405, "method_not_allowed", `${req.method} is not allowed here`));
    const { rows } = await actx.db.query<{ factors: string }>(
      `select (${FACTORS_JSON} where f.user_id = $1)::text as factors`,
      [userId],
    );
    return json(JSON.parse(rows[0].factors));
  }
  if (req.method !== "DELETE" && req.method !== "PUT") {
    return answer(refuse(405, "method_not_allowed", `${req.method} is not allowed here`));
  }
  const body = req.method === "PUT" ? await readJsonObject(req, actx.config.maxBodyBytes) : succeed({});
  if (!body.ok) return answer(body);
  const fields = stringFields(body.value, "friendly_name");
  if (!fields.ok) return answer(fields);
  const outcome = await actx.db.transaction(async (sql) => {
    const factor = await loadFactor(sql, userId, factorId);
    if (!factor.ok) return factor;
    const read = async () =>
      JSON.parse(
        (await sql.query<{ f: string }>(`select ((${FACTORS_JSON} where f.id = $1)->>0) as f`, [factor.value.id]))
          .rows[0].f,
      ) as JsonObject;
    if (req.method === "DELETE") {
      const before = await read();
      await sql.query(`delete from auth.mfa_factors where id = $1`, [factor.value.id]);
      await lowerSessionsOfFactor(sql, factor.value.id);
      return succeed(before);
    }
    if (fields.value.friendly_name !== undefined) {
      await sql.query(`update auth.mfa_factors set friendly_name = $2, updated_at = now() where id = $1`, [
        factor.value.id,
        fields.value.friendly_name,
      ]);
    }
    return succeed(await read());
  });
  return answer(outcome);
}
