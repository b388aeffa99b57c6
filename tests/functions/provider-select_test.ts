import assert from "node:assert/strict";
import { providersFromEnv } from "../../supabase/functions/_shared/providers/select.ts";
import { retryAfterSeconds, classifyHttpStatus } from "../../supabase/functions/_shared/providers/provider-http.ts";

const envOf = (vars: Record<string, string>) => (k: string) => vars[k];

Deno.test("with no provider key the built-in engine serves every request", () => {
  const registry = providersFromEnv(envOf({}), fetch);
  assert.deepEqual(registry.available, ["builtin"]);
  assert.equal(registry.select(null).id, "builtin");
  assert.equal(registry.select("replicate").id, "builtin");
  assert.equal(registry.select(null).model({ quality: "ultra" } as never), "builtin-procedural-v1");
  assert.equal(registry.select(null).kind, "procedural");
});

Deno.test("a requested provider serves when configured; otherwise DEFAULT_PROVIDER, else the first configured", () => {
  const keys = { REPLICATE_API_TOKEN: "r8_x", RUNWARE_API_KEY: "rw", OPENAI_API_KEY: "" };
  const plain = providersFromEnv(envOf(keys), fetch);
  assert.deepEqual(plain.available, ["replicate", "runware", "builtin"]);
  assert.equal(plain.select(null).id, "replicate");
  assert.equal(plain.select("runware").id, "runware");
  assert.equal(plain.select("builtin").id, "builtin");
  assert.equal(plain.select("openai").id, "replicate");
  const withDefault = providersFromEnv(envOf({ ...keys, DEFAULT_PROVIDER: "runware" }), fetch);
  assert.equal(withDefault.select(null).id, "runware");
  assert.equal(withDefault.select("openai").id, "runware");
  const unconfiguredDefault = providersFromEnv(envOf({ ...keys, DEFAULT_PROVIDER: "openai" }), fetch);
  assert.equal(unconfiguredDefault.select(null).id, "replicate");
});

Deno.test("PROVIDER_TIMEOUT_MS bounds every provider call; a nonsense value keeps the default", () => {
  assert.equal(providersFromEnv(envOf({ PROVIDER_TIMEOUT_MS: "2500" }), fetch).timeoutMs, 2500);
  assert.equal(providersFromEnv(envOf({ PROVIDER_TIMEOUT_MS: "soon" }), fetch).timeoutMs, 110_000);
});

Deno.test("Retry-After is read as seconds, as an HTTP date, as retry-after-ms, or from the body's words", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");
  assert.equal(retryAfterSeconds(new Headers({ "retry-after": "17" }), "", now), 17);
  assert.equal(retryAfterSeconds(new Headers({ "retry-after": "Thu, 01 Jan 2026 00:01:30 GMT" }), "", now), 90);
  assert.equal(retryAfterSeconds(new Headers({ "retry-after-ms": "1500" }), "", now), 2);
  assert.equal(
    retryAfterSeconds(new Headers(), '{"detail":"Request was throttled. Your rate limit resets in ~30s."}', now),
    30,
  );
  assert.equal(retryAfterSeconds(new Headers(), '{"retry_after": 8}', now), 8);
  assert.equal(retryAfterSeconds(new Headers(), "slow down", now), 60);
});

Deno.test("failures are classified into the spec's catalogue, 401/403 from a provider as server_error", () => {
  const h = new Headers();
  const code = (status: number, body = "") => classifyHttpStatus(status, h, body, "p").code;
  assert.equal(code(402), "insufficient_credits");
  assert.equal(code(429, '{"error":{"code":"insufficient_quota"}}'), "insufficient_credits");
  assert.equal(code(429), "rate_limit");
  assert.equal(code(400, "Request Moderated"), "nsfw_content");
  assert.equal(code(400, '{"error":{"code":"content_policy_violation"}}'), "nsfw_content");
  assert.equal(code(401), "server_error");
  assert.equal(code(403), "server_error");
  assert.equal(code(408), "timeout");
  assert.equal(code(500), "server_error");
  assert.equal(code(503), "server_error");
  assert.equal(code(422, '{"detail":[{"msg":"width must be a multiple of 32"}]}'), "server_error");
});
