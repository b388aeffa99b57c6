// The per-account limit on failed generations: a rolling window, Retry-After until the oldest failure
// ages out, a forgiven failure no longer counts, and accounts are counted apart.
import assert from "node:assert/strict";
import {
  createFailureLimiter,
  FAILURE_WINDOW_MS,
  FAILURES_PER_WINDOW,
} from "../../../supabase/functions/_shared/failure-limit.ts";

Deno.test("an account is refused at the limit until its oldest failure is a window old", () => {
  const limiter = createFailureLimiter();
  for (let i = 0; i < FAILURES_PER_WINDOW; i++) {
    assert.equal(limiter.retryAfter("a", i * 1_000), 0, `failure ${i + 1} is allowed`);
    limiter.note("a", i * 1_000);
  }
  const at = FAILURES_PER_WINDOW * 1_000;
  assert.equal(limiter.retryAfter("a", at), Math.ceil((FAILURE_WINDOW_MS - at) / 1000));
  assert.equal(limiter.retryAfter("b", at), 0, "another account is not affected");
  assert.ok(limiter.retryAfter("a", FAILURE_WINDOW_MS - 1) >= 1, "refused until the very end of the window");
  assert.equal(limiter.retryAfter("a", FAILURE_WINDOW_MS), 0, "the oldest failure has aged out");
});

Deno.test("a forgiven failure does not count, and forgiving twice takes back only one", () => {
  const limiter = createFailureLimiter(2, 60_000);
  const forgive = limiter.note("a", 10);
  limiter.note("a", 10);
  assert.ok(limiter.retryAfter("a", 20) > 0);
  forgive();
  forgive();
  assert.equal(limiter.retryAfter("a", 20), 0);
  limiter.note("a", 30);
  assert.ok(limiter.retryAfter("a", 40) > 0, "the failure not forgiven still counts");
});
