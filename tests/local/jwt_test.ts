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
