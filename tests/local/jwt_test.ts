// HS256 tokens as GoTrue issues them: what is signed verifies, and every way a token can be wrong is
// refused with its reason (tests of every tier mint their tokens with this same module).
import assert from "node:assert/strict";
import { b64url, signJwt, verifyJwt } from "../../supabase/local/jwt.ts";

const SECRET = "a-test-secret-that-is-long-enough-0123456789";
const enc = new TextEncoder();

Deno.test("a signed token verifies and carries its claims", async () => {
  const token = await signJwt({ sub: "u1", role: "authenticated", exp: 2_000_000_000 }, SECRET);
  assert.deepEqual(await verifyJwt(token, SECRET, 1_900_000_000), {
    ok: true,
    value: { sub: "u1", role: "authenticated", exp: 2_000_000_000 },
  });
});

Deno.test("refuses expired, forged, unsigned and malformed tokens", async () => {
  const token = await signJwt({ role: "anon", exp: 100 }, SECRET);
  assert.deepEqual(await verifyJwt(token, SECRET, 100), { ok: false, error: "expired" });
  assert.deepEqual(await verifyJwt(token, "another-secret-that-is-long-enough-01234", 50), {
    ok: false,
    error: "bad_signature",
  });
  const [, body] = token.split(".");
  const none = `${b64url(enc.encode(JSON.stringify({ alg: "none", typ: "JWT" })))}.${body}.`;
  assert.deepEqual(await verifyJwt(none, SECRET, 50), { ok: false, error: "malformed" });
  assert.deepEqual(await verifyJwt("not.a.jwt", SECRET), { ok: false, error: "malformed" });
  assert.deepEqual(await verifyJwt("two.parts", SECRET), { ok: false, error: "malformed" });
});

Deno.test("a token checked before is still refused once it has expired, and under another secret", async () => {
  const token = await signJwt({ sub: "u2", role: "authenticated", exp: 1_000 }, SECRET);
  const first = await verifyJwt(token, SECRET, 900);
  assert.ok(first.ok);
  // The same token again: the remembered check answers the same claims, frozen so no caller can change them.
  const again = await verifyJwt(token, SECRET, 950);
  assert.deepEqual(again, first);
  assert.ok(again.ok && Object.isFrozen(again.value));
  assert.deepEqual(await verifyJwt(token, SECRET, 1_000), { ok: false, error: "expired" });
  assert.deepEqual(await verifyJwt(token, "another-secret-that-is-long-enough-01234", 900), {
    ok: false,
    error: "bad_signature",
  });
});

Deno.test("claims that are not a JSON object are malformed", async () => {
  const head = b64url(enc.encode(JSON.stringify({ alg: "HS256", typ: "JWT" })));
  const body = b64url(enc.encode("[1,2]"));
  const key = await crypto.subtle.importKey("raw", enc.encode(SECRET), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  const sig = new Uint8Array(await crypto.subtle.sign("HMAC", key, enc.encode(`${head}.${body}`)));
  assert.deepEqual(await verifyJwt(`${head}.${body}.${b64url(sig)}`, SECRET), { ok: false, error: "malformed" });
});
