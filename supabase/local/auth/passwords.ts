// Password storage and the password policy. Hashes are PBKDF2-SHA256 through WebCrypto (native and off
// the event loop in Deno, unlike node:crypto's scrypt here) at OWASP's 2023 iteration count, stored as
// `pbkdf2-sha256$i=<iterations>$<salt>$<hash>` so the cost can be raised later without a migration.
import { b64url, fromB64url } from "../jwt.ts";

/** GoTrue's limit (inherited from bcrypt); kept so the same passwords are accepted in both places. */
export const MAX_PASSWORD_BYTES = 72;
const ITERATIONS = 600_000;
const SALT_BYTES = 16;
const HASH_BITS = 256;
// Bounds on what a stored hash may ask for, so a damaged row cannot stall the server.
const MIN_ITERATIONS = 100_000;
const MAX_ITERATIONS = 5_000_000;

const enc = new TextEncoder();

async function derive(password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", enc.encode(password.normalize("NFC")), "PBKDF2", false, [
    "deriveBits",
  ]);
  const bits = await crypto.subtle.deriveBits(
    { name: "PBKDF2", hash: "SHA-256", salt: salt as BufferSource, iterations },
    key,
    HASH_BITS,
  );
  return new Uint8Array(bits);
}

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const hash = await derive(password, salt, ITERATIONS);
  return `pbkdf2-sha256$i=${ITERATIONS}$${b64url(salt)}$${b64url(hash)}`;
}

export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}

/** True when `password` matches `stored`; false for any malformed or unknown stored format. */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const m = /^pbkdf2-sha256\$i=(\d+)\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/.exec(stored ?? "");
  if (!m) {
    await burnDummyHash(password);
    return false;
  }
  const iterations = Number(m[1]);
  if (iterations < MIN_ITERATIONS || iterations > MAX_ITERATIONS) return false;
  const expected = fromB64url(m[3]);
  const actual = await derive(password, fromB64url(m[2]), iterations);
  return timingSafeEqual(actual, expected);
}

let dummy: Promise<string> | null = null;

/**
 * Spends the same time as a real check, for unknown e-mails and password-less users, so the response
 * time does not tell whether an account exists.
 */
export async function burnDummyHash(password: string): Promise<void> {
  dummy ??= hashPassword("not-a-real-password");
  const m = (await dummy).split("$");
  await derive(password, fromB64url(m[2]), ITERATIONS);
}

/**
 * The reasons GoTrue gives in `weak_password.reasons` ('length'), with its message. Like GoTrue (Go's
 * len), the length is counted in bytes of UTF-8; `minLength` is [auth] minimum_password_length.
 */
export function passwordWeakness(password: string, minLength: number): { reasons: string[]; message: string } | null {
  if (enc.encode(password).length < minLength) {
    return { reasons: ["length"], message: `Password should be at least ${minLength} characters.` };
  }
  return null;
}

export function passwordTooLong(password: string): boolean {
  return enc.encode(password).length > MAX_PASSWORD_BYTES;
}
