// HS256 JSON Web Tokens, the format Supabase's GoTrue issues and PostgREST, Storage and Realtime verify.
// Runtime-neutral (Web Crypto only): the server signs with it under Deno, and the tests under Node
// mint their tokens with this same module.
import { parseBoundedJson } from "../functions/_shared/bounded-json.ts";
import type { Result } from "./result.ts";
const enc = new TextEncoder();
const dec = new TextDecoder();

export function b64url(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

export function fromB64url(s: string): Uint8Array {
  const pad = s.replaceAll("-", "+").replaceAll("_", "/") + "===".slice((s.length + 3) % 4);
  const bin = atob(pad);
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

const keyCache = new Map<string, Promise<CryptoKey>>();
function hmacKey(secret: string): Promise<CryptoKey> {
  let k = keyCache.get(secret);
  if (!k) {
    k = crypto.subtle.importKey("raw", enc.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
      "sign",
      "verify",
    ]);
    keyCache.set(secret, k);
  }
  return k;
}

export async function signJwt(payload: Record<string, unknown>, secret: string): Promise<string> {
  const head = b64url(enc.encode(JSON.stringify({ alg: "HS256", typ: "JWT" })));
  const body = b64url(enc.encode(JSON.stringify(payload)));
  const sig = await crypto.subtle.sign("HMAC", await hmacKey(secret), enc.encode(`${head}.${body}`));
  return `${head}.${body}.${b64url(new Uint8Array(sig))}`;
}

export type JwtResult = Result<Record<string, unknown>, "malformed" | "bad_signature" | "expired">;

/** A token's header or claims: JSON within the depth limit (the caller's catch makes it "malformed"). */
function boundedJson(text: string): Record<string, unknown> {
  const r = parseBoundedJson(text);
  if (!r.ok) throw new Error(r.reason);
  return r.value as Record<string, unknown>;
}

/** Verifies signature, algorithm and expiry. Never throws. */
export async function verifyJwt(token: string, secret: string, nowSec = Date.now() / 1000): Promise<JwtResult> {
  const parts = token.split(".");
  if (parts.length !== 3) return { ok: false, error: "malformed" };
  try {
    const header = boundedJson(dec.decode(fromB64url(parts[0])));
    if (header.alg !== "HS256") return { ok: false, error: "malformed" };
    const valid = await crypto.subtle.verify(
      "HMAC",
      await hmacKey(secret),
      fromB64url(parts[2]) as BufferSource,
      enc.encode(`${parts[0]}.${parts[1]}`),
    );
    if (!valid) return { ok: false, error: "bad_signature" };
    const claims = boundedJson(dec.decode(fromB64url(parts[1])));
    if (typeof claims !== "object" || claims === null) return { ok: false, error: "malformed" };
    if (typeof claims.exp === "number" && claims.exp <= nowSec) return { ok: false, error: "expired" };
    return { ok: true, value: claims };
  } catch {
    return { ok: false, error: "malformed" };
  }
}
