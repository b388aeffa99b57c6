// Random secrets handed to clients (refresh tokens, e-mail link tokens) and the digests they are stored
// as: only SHA-256 digests reach the database, so a copy of DATA_DIR does not hold usable tokens.
import { b64url } from "../jwt.ts";

/** A URL-safe random string carrying `bytes` bytes of entropy. */
export function randomSecret(bytes = 16): string {
  return b64url(crypto.getRandomValues(new Uint8Array(bytes)));
}

export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}
