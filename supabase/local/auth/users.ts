// The auth.users row as the auth service reads it, and the user object GoTrue sends for it. Timestamps
// and JSON are asked of Postgres as text, so PGlite and node-postgres give the same values.
import type { Sql } from "../db.ts";
import type { JsonObject } from "./responses.ts";

export interface UserRow {
  id: string;
  aud: string;
  role: string;
  email: string | null;
  encrypted_password: string | null;
  phone: string | null;
  is_anonymous: boolean;
  banned: boolean;
  email_confirmed_at: string | null;
  invited_at: string | null;
  confirmation_sent_at: string | null;
  confirmed_at: string | null;
  recovery_sent_at: string | null;
  /** The address a pending e-mail change moves to (GoTrue's email_change, sent as new_email). */
  new_email: string | null;
  email_change_sent_at: string | null;
  /** How many of a pending change's two links have been followed (0 or 1). */
  email_change_confirm_status: number;
  reauthentication_sent_at: string | null;
  last_sign_in_at: string | null;
  created_at: string;
  updated_at: string;
  app_metadata: JsonObject;
  user_metadata: JsonObject;
  /** The MFA factors, in GoTrue's form. */
  factors: JsonObject[];
}

const ts = (col: string) => `to_char(${col} at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as ${col}`;

/** A user's MFA factors as GoTrue serialises them, oldest first (the secret never leaves the database). */
export const FACTORS_JSON = `select coalesce(json_agg(jsonb_strip_nulls(jsonb_build_object(
    'id', f.id, 'friendly_name', nullif(f.friendly_name, ''), 'factor_type', f.factor_type, 'status', f.status,
    'created_at', to_char(f.created_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
    'updated_at', to_char(f.updated_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')))
  || jsonb_build_object('phone', '', 'last_challenged_at',
       to_char(f.last_challenged_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'))
  order by f.created_at, f.id), '[]'::json) from auth.mfa_factors f`;

const USER_SELECT = `select id::text as id, aud, role, email, encrypted_password, phone, is_anonymous,
  coalesce(banned_until > now(), false) as banned,
  ${ts("email_confirmed_at")}, ${ts("confirmed_at")}, ${ts("recovery_sent_at")}, ${ts("last_sign_in_at")},
  ${ts("invited_at")}, ${ts("confirmation_sent_at")}, ${ts("email_change_sent_at")},
  ${ts("reauthentication_sent_at")}, nullif(email_change, '') as new_email, email_change_confirm_status,
  ${ts("created_at")}, ${ts("updated_at")},
  coalesce(raw_app_meta_data, '{}')::text as app_meta, coalesce(raw_user_meta_data, '{}')::text as user_meta,
  (${FACTORS_JSON} where f.user_id = auth.users.id)::text as factors_json
  from auth.users`;

type RawUser = Omit<UserRow, "app_metadata" | "user_metadata" | "factors"> & {
  app_meta: string;
  user_meta: string;
  factors_json: string;
};

function fromRaw(r: RawUser): UserRow {
  const { app_meta, user_meta, factors_json, ...rest } = r;
  return {
    ...rest,
    app_metadata: JSON.parse(app_meta),
    user_metadata: JSON.parse(user_meta),
    factors: JSON.parse(factors_json),
  };
}

export async function findUserById(sql: Sql, id: string): Promise<UserRow | null> {
  if (!UUID.test(id)) return null;
  const { rows } = await sql.query<RawUser>(`${USER_SELECT} where id = $1`, [id]);
  return rows[0] ? fromRaw(rows[0]) : null;
}

export async function findUserByEmail(sql: Sql, email: string): Promise<UserRow | null> {
  const { rows } = await sql.query<RawUser>(`${USER_SELECT} where email = $1`, [email]);
  return rows[0] ? fromRaw(rows[0]) : null;
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// GoTrue's e-mail pattern (HTML5's), with its 255-character column limit.
const EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** The stored form of an address (GoTrue keeps e-mails lower-cased), or null when it is not one. */
export function normalizeEmail(raw: string): string | null {
  const email = raw.trim().toLowerCase();
  return email.length <= 255 && EMAIL.test(email) ? email : null;
}

/**
 * A stable id for the user's single e-mail identity. GoTrue keeps identities in their own table; here
 * the e-mail identity is implied by the user row, so its id is derived from the user's id.
 */
async function identityId(userId: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`email:${userId}`)));
  const b = digest.slice(0, 16);
  b[6] = (b[6] & 0x0f) | 0x50;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The identity data GoTrue merges into user_metadata for an e-mail sign-up. */
export function emailIdentityData(userId: string, email: string, verified: boolean): JsonObject {
  return { email, email_verified: verified, phone_verified: false, sub: userId };
}

/** The user object exactly as GoTrue serialises it (unset timestamps are left out). */
export async function toGoTrueUser(u: UserRow): Promise<JsonObject> {
  const optional = (key: keyof UserRow) => (u[key] ? { [key]: u[key] } : {});
  const identities = u.email ?
    [
      {
        identity_id: await identityId(u.id),
        id: u.id,
        user_id: u.id,
        identity_data: emailIdentityData(u.id, u.email, Boolean(u.email_confirmed_at)),
        provider: "email",
        ...(u.last_sign_in_at ? { last_sign_in_at: u.last_sign_in_at } : {}),
        created_at: u.created_at,
        updated_at: u.updated_at,
        email: u.email,
      },
    ] :
    [];
  return {
    id: u.id,
    aud: u.aud,
    role: u.role,
    email: u.email ?? "",
    ...optional("email_confirmed_at"),
    ...optional("invited_at"),
    phone: u.phone ?? "",
    ...optional("confirmation_sent_at"),
    ...optional("confirmed_at"),
    ...optional("recovery_sent_at"),
    ...optional("new_email"),
    ...optional("email_change_sent_at"),
    ...optional("reauthentication_sent_at"),
    ...optional("last_sign_in_at"),
    app_metadata: u.app_metadata,
    user_metadata: u.user_metadata,
    ...(u.factors.length ? { factors: u.factors } : {}),
    identities,
    created_at: u.created_at,
    updated_at: u.updated_at,
    is_anonymous: u.is_anonymous,
  };
}
