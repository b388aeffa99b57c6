// How the auth service answers: GoTrue's API version header on every response, its error body in the
// 2024-01-01 format ({code, message}), and request bodies read with a size bound and parsed as a JSON
// object, each client mistake mapped to a 4xx value rather than an exception. A body is refused before
// parsing when it nests too deep, and after parsing when any of its text (keys included) could not be
// stored by Postgres, so no auth endpoint ever meets such text.
import { BodyTooLarge, json, readBody } from "../http.ts";
import type { Result } from "../result.ts";
import { parseBoundedJson, TOO_DEEP_MESSAGE } from "../../functions/_shared/bounded-json.ts";
import { unstorableInValue, unstorableMessage, unstorableText } from "../../functions/_shared/vocabulary/text.ts";

export const API_VERSION_HEADER = "X-Supabase-Api-Version";
export const API_VERSION = "2024-01-01";

export type JsonObject = Record<string, unknown>;

/** An error answer, as GoTrue's error codes name them (see the wire reference, Auth errors). */
export interface AuthFailure {
  status: number;
  code: string;
  message: string;
  headers?: Record<string, string>;
  extra?: JsonObject;
}

/** The local backend's one Result shape, with the auth service's error. */
export type Outcome<T> = Result<T, AuthFailure>;

export const succeed = <T>(value: T): Outcome<T> => ({ ok: true, value });
export const refuse = <T = never>(
  status: number,
  code: string,
  message: string,
  more: Pick<AuthFailure, "headers" | "extra"> = {},
): Outcome<T> => ({ ok: false, error: { status, code, message, ...more } });

export function failureResponse(f: AuthFailure): Response {
  return json({ code: f.code, message: f.message, ...f.extra }, f.status, f.headers ?? {});
}

export function withApiVersion(res: Response): Response {
  const headers = new Headers(res.headers);
  headers.set(API_VERSION_HEADER, API_VERSION);
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
}

const decoder = new TextDecoder();

/** Reads the body as one JSON object; an empty body counts as `{}` as in GoTrue. */
export async function readJsonObject(req: Request, limit: number): Promise<Outcome<JsonObject>> {
  let bytes: Uint8Array;
  try {
    bytes = await readBody(req, limit);
  } catch (e) {
    if (e instanceof BodyTooLarge) return refuse(413, "request_too_large", "Request body too large");
    return refuse(400, "bad_json", "Could not read the request body");
  }
  const text = decoder.decode(bytes).trim();
  if (text === "") return succeed({});
  const parsed = parseBoundedJson(text);
  if (!parsed.ok) {
    return parsed.reason === "too_deep" ?
      refuse(400, "validation_failed", TOO_DEEP_MESSAGE) :
      refuse(400, "bad_json", "Could not parse request body as JSON");
  }
  const value = parsed.value;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return refuse(400, "bad_json", "Could not parse request body as JSON: expected an object");
  }
  for (const [key, field] of Object.entries(value)) {
    if (unstorableText(key) || unstorableInValue(field)) {
      return refuse(
        400,
        "validation_failed",
        unstorableMessage(`The ${Object.hasOwn(FIELD_NAMES, key) ? FIELD_NAMES[key] : "request"}`),
      );
    }
  }
  return succeed(value as JsonObject);
}

/** How an unstorable field is named in the message (the rest are "the request"). */
const FIELD_NAMES: Record<string, string> = {
  email: "email address",
  password: "password",
  data: "user metadata",
  phone: "phone number",
  token: "token",
  token_hash: "token",
  refresh_token: "refresh token",
};

/** Fields that must be strings when present; anything else is the client's mistake. */
export function stringFields<K extends string>(body: JsonObject, ...keys: K[]): Outcome<Partial<Record<K, string>>> {
  const out: Partial<Record<K, string>> = {};
  for (const key of keys) {
    const v = body[key];
    if (v === undefined || v === null) continue;
    if (typeof v !== "string") return refuse(400, "bad_json", `Could not read ${key}: expected a string`);
    out[key] = v;
  }
  return succeed(out);
}

/** A field that must be a JSON object when present. */
export function objectField(body: JsonObject, key: string): Outcome<JsonObject | undefined> {
  const v = body[key];
  if (v === undefined || v === null) return succeed(undefined);
  if (typeof v !== "object" || Array.isArray(v)) {
    return refuse(400, "bad_json", `Could not read ${key}: expected an object`);
  }
  return succeed(v as JsonObject);
}
