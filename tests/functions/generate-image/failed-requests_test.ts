// What a failing reference image costs: the decode runs where the platform says (Deps.decode), a decode
// past its time budget is a clear 422, and each failure of the sender's own input counts against the
// account, which is refused 429 rate_limit with Retry-After once it has failed too often, before any
// slot is held or anything decoded. Failures that are not the sender's do not count.
import assert from "node:assert/strict";
import { DEFAULT_CONFIG, type Deps, handler } from "../../../supabase/functions/generate-image/handler.ts";
import { appError, fail, ok } from "../../../supabase/functions/_shared/errors.ts";
import { decodeInIsolate, type ReferenceDecoder } from "../../../supabase/functions/_shared/generation-request.ts";
import { FAILURE_WINDOW_MS, FAILURES_PER_WINDOW } from "../../../supabase/functions/_shared/failure-limit.ts";
import { fail as imageFail } from "../../../supabase/functions/_shared/image/result.ts";
import { createProviderRegistry } from "../../../supabase/functions/_shared/providers/select.ts";
import type { ImageProvider } from "../../../supabase/functions/_shared/providers/types.ts";
import { FakeDb, FakeStore } from "../fakes/fake-store.ts";
import { solidPng, toBase64 } from "../fakes/fake-server.ts";
import { pngDeclaringHuge } from "../../support/hostile-images.ts";

const GOOD = `data:image/png;base64,${toBase64(solidPng(8, 8))}`;
const LAST_ROW = `data:image/png;base64,${toBase64(pngDeclaringHuge(64, 64, true))}`;

function setup(opts: { decode?: ReferenceDecoder; provider?: ImageProvider["generate"] } = {}) {
  let clock = 1_000_000;
  const db = new FakeDb(() => clock);
  const decodes: number[] = [];
  const decode: ReferenceDecoder = (file) => {
    decodes.push(file.length);
    return (opts.decode ?? decodeInIsolate)(file);
  };
  const provider: ImageProvider = {
    id: "replicate",
    kind: "ai-model",
    model: () => "fake",
    generate: opts.provider ?? (() => Promise.resolve(ok({ bytes: solidPng(16, 9), seed: 1, model: "fake" }))),
  };
  const deps: Deps = {
    store: new FakeStore(db),
    providers: createProviderRegistry([provider], { timeoutMs: 5_000 }),
    fetch,
    now: () => clock,
    log: () => undefined,
    config: DEFAULT_CONFIG,
    decode,
  };
  const user = db.addUser("free");
  const call = async (reference_image: string | null) => {
    const res = await handler(
      new Request("http://localhost/functions/v1/generate-image", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${user.jwt}` },
        body: JSON.stringify({ request_id: crypto.randomUUID(), prompt: "a harbour at dusk", reference_image }),
      }),
      deps,
    );
    const body = await res.json();
    return {
      status: res.status,
      code: body.error?.code,
      message: body.error?.message,
      retryAfter: res.headers.get("retry-after"),
    };
  };
  return { db, user, decodes, call, advance: (ms: number) => (clock += ms) };
}

Deno.test("an account whose reference images keep failing is refused 429 before any decode, until its failures age out", async () => {
  const t = setup();
  for (let i = 0; i < FAILURES_PER_WINDOW; i++) {
    const failed = await t.call(LAST_ROW);
    assert.equal(failed.status, 400, `failure ${i + 1}`);
    assert.equal(failed.code, "invalid_input");
  }
  // Each failure gave its slot back: the quota is untouched, the cost is the account's limit.
  assert.equal(t.db.limitsOf(t.user.id).used, 0);
  const refused = await t.call(GOOD);
  assert.equal(refused.status, 429);
  assert.equal(refused.code, "rate_limit");
  assert.equal(Number(refused.retryAfter), FAILURE_WINDOW_MS / 1000);
  assert.equal(t.decodes.length, FAILURES_PER_WINDOW, "the refused request decoded nothing");
  assert.equal(t.db.reservations.size, 0, "nor held a slot");

  t.advance(FAILURE_WINDOW_MS);
  const after = await t.call(GOOD);
  assert.equal(after.status, 200);
  assert.equal(t.db.limitsOf(t.user.id).used, 1);
});

Deno.test("requests sent side by side cannot all decode before the first fails", async () => {
  let release = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  const t = setup({ decode: async (file) => (await gate, decodeInIsolate(file)) });
  const answers = Promise.all(Array.from({ length: 3 * FAILURES_PER_WINDOW }, () => t.call(LAST_ROW)));
  // Let every request reach its decode or its refusal, then let the decodes finish.
  await new Promise((r) => setTimeout(r, 50));
  release();
  const statuses = (await answers).map((a) => a.status);
  assert.equal(t.decodes.length, FAILURES_PER_WINDOW);
  assert.equal(statuses.filter((s) => s === 400).length, FAILURES_PER_WINDOW);
  assert.equal(statuses.filter((s) => s === 429).length, 2 * FAILURES_PER_WINDOW);
});

Deno.test("a decode past its time budget is answered 422 invalid_input and counts as a failure", async () => {
  const t = setup({ decode: () => Promise.resolve(imageFail("image_too_slow", "ran past 4000 ms")) });
  const slow = await t.call(GOOD);
  assert.equal(slow.status, 422);
  assert.equal(slow.code, "invalid_input");
  assert.match(slow.message, /too long to read/);
  for (let i = 1; i < FAILURES_PER_WINDOW; i++) await t.call(GOOD);
  assert.equal((await t.call(GOOD)).status, 429);
});

Deno.test("successful decodes and failures that are not the sender's do not count", async () => {
  let decoderBroken = false;
  const t = setup({
    decode: (file) => (decoderBroken ? Promise.reject(new Error("no process")) : decodeInIsolate(file)),
    provider: () => Promise.resolve(fail(appError("server_error", { detail: "engine down" }))),
  });
  for (let i = 0; i < FAILURES_PER_WINDOW + 2; i++) assert.equal((await t.call(GOOD)).status, 500);
  decoderBroken = true;
  for (let i = 0; i < FAILURES_PER_WINDOW + 2; i++) assert.equal((await t.call(GOOD)).status, 500);
  assert.equal((await t.call(null)).status, 500, "still not limited");
});

Deno.test("an engine's refusal of the input counts against the account", async () => {
  const t = setup({ provider: () => Promise.resolve(fail(appError("nsfw_content"))) });
  for (let i = 0; i < FAILURES_PER_WINDOW; i++) assert.equal((await t.call(null)).code, "nsfw_content");
  assert.equal((await t.call(null)).status, 429);
});
