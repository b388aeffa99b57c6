// The HTTP helpers every remote adapter shares: Retry-After and the docs/spec.md §8 classification of statuses.
import assert from "node:assert/strict";
import {
  classifyHttpStatus,
  retryAfterSeconds,
} from "../../../../supabase/functions/_shared/providers/provider-http.ts";

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
