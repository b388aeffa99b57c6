// subjectOf: the claim delete-account trusts only after Auth verified the token and found no user.
import assert from "node:assert/strict";
import { subjectOf } from "../../../supabase/functions/delete-account/account-store.ts";

const b64url = (o: unknown) => btoa(JSON.stringify(o)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");

Deno.test("reads the sub claim of a token", () => {
  const sub = crypto.randomUUID();
  assert.equal(subjectOf(`${b64url({ alg: "HS256" })}.${b64url({ sub, role: "authenticated" })}.sig`), sub);
});

Deno.test("answers null for tokens without a user id", () => {
  assert.equal(subjectOf("not-a-jwt"), null);
  assert.equal(subjectOf(`${b64url({})}.${b64url({ role: "anon" })}.sig`), null);
  assert.equal(subjectOf(`${b64url({})}.${b64url({ sub: "../../etc" })}.sig`), null);
  assert.equal(subjectOf(`${b64url({})}.!!!.sig`), null);
});
