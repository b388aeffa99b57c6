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
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
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

// Tokens whose signature this server has checked, with their claims: one page's requests carry the same
// token many times over (the gateway, then the function's own calls back to auth, REST and Storage), and
// an HMAC check and two JSON parses each time were a measurable share of the backend's CPU a generation
// (docs/decisions/122-less-cpu-around-each-render.md). Only a good signature is remembered, per
// secret; expiry is still checked on every call, and the oldest entry goes first past the bound.
const VERIFIED_MAX = 512;
const verified = new Map<string, Readonly<Record<string, unknown>>>();

/** Verifies signature, algorithm and expiry. Never throws. */
export async function verifyJwt(token: string, secret: string, nowSec = Date.now() / 1000): Promise<JwtResult> {
  const cacheKey = `${secret}\n${token}`;
  const known = verified.get(cacheKey);
  if (known) return expiryOf(known, nowSec);
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
    if (typeof claims !== "object" || claims === null || Array.isArray(claims)) {
      return { ok: false, error: "malformed" };
    }
    Object.freeze(claims);
    if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value!);
    verified.set(cacheKey, claims);
    return expiryOf(claims, nowSec);
  } catch {
    return { ok: false, error: "malformed" };
  }
}

function expiryOf(claims: Readonly<Record<string, unknown>>, nowSec: number): JwtResult {
  if (typeof claims.exp === "number" && claims.exp <= nowSec) return { ok: false, error: "expired" };
  return { ok: true, value: claims as Record<string, unknown> };
}
