// Why a token does not verify, in the words storage-api answers with: it verifies tokens with jose and
// passes jose's message on (AccessDenied for the request's token, InvalidJWT for a signed URL's).
// The checks run in jose's order: the compact form, the protected header, its algorithm, the signature,
// then the claims.
import { parseBoundedJson } from "../../functions/_shared/bounded-json.ts";
import { fromB64url, verifyJwt } from "../jwt.ts";

function headerOf(part: string): Record<string, unknown> | null {
  try {
    const r = parseBoundedJson(new TextDecoder("utf-8", { fatal: true }).decode(fromB64url(part)));
    return r.ok && typeof r.value === "object" && r.value !== null && !Array.isArray(r.value) ?
      (r.value as Record<string, unknown>) :
      null;
  } catch {
    return null;
  }
}

/** jose's message for a token that failed verification with `secret` (null when it verifies). */
export async function tokenRefusal(token: string, secret: string): Promise<string | null> {
  const parts = token.split(".");
  if (parts.length !== 3) return "Invalid Compact JWS";
  const header = headerOf(parts[0]);
  if (!header) return "JWS Protected Header is invalid";
  if (typeof header.alg !== "string" || !header.alg) {
    return 'JWS "alg" (Algorithm) Header Parameter missing or invalid';
  }
  if (header.alg !== "HS256") return '"alg" (Algorithm) Header Parameter value not allowed';
  const r = await verifyJwt(token, secret);
  if (r.ok) return null;
  switch (r.error) {
    case "bad_signature":
      return "signature verification failed";
    case "expired":
      return '"exp" claim timestamp check failed';
    default:
      return "JWT Claims Set must be a top-level JSON object";
  }
}
