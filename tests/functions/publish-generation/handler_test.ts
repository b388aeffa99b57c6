// publish-generation through handler(req, deps): an in-memory publisher with the database's rules (only
// this function writes is_public; the publish trigger refuses a suspended owner), a prompt check with an
// operator's term, and a classifier whose scores each test sets. Every refusal leaves the row private.
import assert from "node:assert/strict";
import { type Deps, handler, MESSAGES } from "../../../supabase/functions/publish-generation/handler.ts";
import type { Publisher, PublishRow } from "../../../supabase/functions/publish-generation/publisher.ts";
import { appError, fail, ok } from "../../../supabase/functions/_shared/errors.ts";
import { createPromptCheck } from "../../../supabase/functions/_shared/moderation/prompt-check.ts";
import type { ImageScores } from "../../../supabase/functions/_shared/moderation/image-verdict.ts";
import { type ImageResult, ok as scored } from "../../../supabase/functions/_shared/image/result.ts";

const SAFE: ImageScores = { Drawing: 0.6, Hentai: 0.01, Neutral: 0.37, Porn: 0.01, Sexy: 0.01 };
const EXPLICIT: ImageScores = { Drawing: 0.05, Hentai: 0.1, Neutral: 0.05, Porn: 0.7, Sexy: 0.1 };
const NOW = Date.parse("2026-11-26T15:00:00.000Z");

class FakePublisher implements Publisher {
  rows = new Map<string, PublishRow>();
  suspensions = new Map<string, string>();
  images = new Map<string, Uint8Array>();
  users = new Map<string, string>();
  writes: string[] = [];
  /** The publish trigger's refusal for the next publish write, when set. */
  triggerRefuses: string | null = null;

  addRow(userId: string, prompt = "a quiet harbour at dawn"): PublishRow {
    const id = crypto.randomUUID();
    const row: PublishRow = {
      id,
      user_id: userId,
      prompt,
      image_path: `${userId}/${id}.png`,
      is_public: false,
      flagged_at: null,
      removed_at: null,
      removed_reason: null,
      moderation_scores: null,
    };
    this.rows.set(id, row);
    this.images.set(row.image_path, new Uint8Array([137, 80, 78, 71]));
    return row;
  }
  identify(jwt: string) {
    const id = this.users.get(jwt);
    return Promise.resolve(id ? ok(id) : fail<string>(appError("auth_required")));
  }
  findRow(id: string) {
    const row = this.rows.get(id);
    return Promise.resolve(ok(row ? { ...row } : null));
  }
  suspendedUntil(userId: string) {
    const until = this.suspensions.get(userId);
    return Promise.resolve(ok(until && Date.parse(until) > NOW ? until : null));
  }
  readImage(path: string) {
    const bytes = this.images.get(path);
    return Promise.resolve(bytes ? ok(bytes) : fail<Uint8Array>(appError("server_error", { detail: "no object" })));
  }
  flag(row: PublishRow, scores: ImageScores, at: string) {
    this.writes.push(`flag ${row.id}`);
    const stored = this.rows.get(row.id);
    if (!stored) return Promise.resolve(ok({ kind: "gone" as const }));
    Object.assign(stored, { moderation_scores: scores, flagged_at: at, is_public: false });
    return Promise.resolve(ok({ kind: "done" as const }));
  }
  publish(row: PublishRow, scores: ImageScores) {
    this.writes.push(`publish ${row.id}`);
    const stored = this.rows.get(row.id);
    if (!stored) return Promise.resolve(ok({ kind: "gone" as const }));
    if (this.triggerRefuses) return Promise.resolve(ok({ kind: "refused" as const, message: this.triggerRefuses }));
    Object.assign(stored, { moderation_scores: scores, is_public: true });
    return Promise.resolve(ok({ kind: "done" as const }));
  }
}

function setup() {
  const publisher = new FakePublisher();
  const owner = { id: crypto.randomUUID(), jwt: "jwt-owner" };
  const stranger = { id: crypto.randomUUID(), jwt: "jwt-stranger" };
  publisher.users.set(owner.jwt, owner.id).set(stranger.jwt, stranger.id);
  let next: ImageResult<ImageScores> = scored(SAFE);
  const classified: number[] = [];
  const logs: Record<string, unknown>[] = [];
  const deps: Deps = {
    publisher,
    checkPrompt: createPromptCheck({ terms: () => Promise.resolve(ok(["kraken"])) }),
    classify: (file) => (classified.push(file.length), Promise.resolve(next)),
    now: () => NOW,
    log: (event, fields) => void logs.push({ event, ...fields }),
  };
  const call = (body: unknown, jwt: string | null = owner.jwt, method = "POST") =>
    handler(
      new Request("http://localhost/functions/v1/publish-generation", {
        method,
        headers: { "content-type": "application/json", ...(jwt ? { authorization: `Bearer ${jwt}` } : {}) },
        body: method === "POST" ? (typeof body === "string" ? body : JSON.stringify(body)) : undefined,
      }),
      deps,
    );
  return { publisher, owner, stranger, deps, call, classified, logs, setScores: (r: typeof next) => (next = r) };
}

async function answer(res: Response) {
  const body = await res.json();
  return { status: res.status, ...(body.error ?? body) };
}

Deno.test("a passing image is published with its scores kept; a repeated publish reuses them", async () => {
  const t = setup();
  const row = t.publisher.addRow(t.owner.id);
  const first = await answer(await t.call({ generation_id: row.id }));
  assert.deepEqual(first, { status: 200, published: true, generation_id: row.id, scores: SAFE });
  assert.equal(t.publisher.rows.get(row.id)?.is_public, true);
  assert.deepEqual(t.publisher.rows.get(row.id)?.moderation_scores, SAFE);
  assert.equal((await t.call({ generation_id: row.id })).status, 200);
  assert.equal(t.classified.length, 1, "an image is scored once");
});

Deno.test("a flagged image stays private, flagged with its scores, and the answer says why; again, the same", async () => {
  const t = setup();
  const row = t.publisher.addRow(t.owner.id);
  t.setScores(scored(EXPLICIT));
  const refused = await answer(await t.call({ generation_id: row.id }));
  assert.deepEqual(refused, { status: 422, code: "nsfw_content", message: MESSAGES.flagged, retryable: false });
  const stored = t.publisher.rows.get(row.id)!;
  assert.equal(stored.is_public, false);
  assert.equal(stored.flagged_at, new Date(NOW).toISOString());
  assert.deepEqual(stored.moderation_scores, EXPLICIT);
  assert.equal((await answer(await t.call({ generation_id: row.id }))).code, "nsfw_content");
  assert.equal(t.classified.length, 1);
  assert.equal(t.publisher.rows.get(row.id)?.is_public, false);
});

Deno.test("a prompt the check refuses is refused before the image is read or scored", async () => {
  const t = setup();
  for (const prompt of ["a p0rn still", "a kraken rising"]) {
    const row = t.publisher.addRow(t.owner.id, prompt);
    const refused = await answer(await t.call({ generation_id: row.id }));
    assert.deepEqual(refused, { status: 422, code: "nsfw_content", message: MESSAGES.prompt, retryable: false });
    assert.equal(t.publisher.rows.get(row.id)?.is_public, false);
  }
  assert.deepEqual(t.classified, []);
  assert.deepEqual(t.publisher.writes, []);
});

Deno.test("a suspended owner gets 403 publishing_suspended with the end, and nothing is checked or written", async () => {
  const t = setup();
  const row = t.publisher.addRow(t.owner.id);
  t.publisher.suspensions.set(t.owner.id, "2026-12-03T15:00:00.000Z");
  const refused = await answer(await t.call({ generation_id: row.id }));
  assert.equal(refused.status, 403);
  assert.equal(refused.code, "publishing_suspended");
  assert.equal(refused.until, "2026-12-03T15:00:00.000Z");
  assert.match(refused.message, /suspended for your account until 2026-12-03 15:00 UTC/);
  assert.deepEqual([t.classified, t.publisher.writes], [[], []]);
  // An ended suspension no longer counts.
  t.publisher.suspensions.set(t.owner.id, "2026-11-26T14:00:00.000Z");
  assert.equal((await t.call({ generation_id: row.id })).status, 200);
});

Deno.test("the publish trigger's refusal (a suspension that began meanwhile) is the same 403", async () => {
  const t = setup();
  const row = t.publisher.addRow(t.owner.id);
  t.publisher.triggerRefuses = "publishing_suspended";
  const refused = await answer(await t.call({ generation_id: row.id }));
  assert.deepEqual([refused.status, refused.code, refused.until], [403, "publishing_suspended", null]);
  t.publisher.triggerRefuses = "removed_by_operator";
  assert.deepEqual((await answer(await t.call({ generation_id: row.id }))).code, "removed_by_operator");
});

Deno.test("a row an operator removed is not published again: 403 removed_by_operator", async () => {
  const t = setup();
  const row = t.publisher.addRow(t.owner.id);
  t.publisher.rows.get(row.id)!.removed_at = "2026-11-26T12:00:00.000Z";
  const refused = await answer(await t.call({ generation_id: row.id }));
  assert.deepEqual(refused, { status: 403, code: "removed_by_operator", message: MESSAGES.removed, retryable: false });
  assert.deepEqual(t.publisher.writes, []);
});

Deno.test("an image that cannot be read as PNG, JPEG or GIF, or not in time, is not published unchecked (422)", async () => {
  const t = setup();
  for (const code of ["image_unsupported_format", "image_corrupt", "image_too_slow"] as const) {
    const row = t.publisher.addRow(t.owner.id);
    t.setScores({ ok: false, error: { code, message: code } });
    const refused = await answer(await t.call({ generation_id: row.id }));
    assert.deepEqual([refused.status, refused.code], [422, "invalid_input"], code);
    assert.equal(t.publisher.rows.get(row.id)?.is_public, false);
  }
});

Deno.test("bad requests are 4xx with codes: method, token, body, id, someone else's or a missing row", async () => {
  const t = setup();
  const mine = t.publisher.addRow(t.owner.id);
  const cases: [Promise<Response>, number, string][] = [
    [t.call(null, t.owner.jwt, "GET"), 405, "invalid_input"],
    [t.call({ generation_id: mine.id }, null), 401, "auth_required"],
    [t.call({ generation_id: mine.id }, "jwt-unknown"), 401, "auth_required"],
    [t.call("{not json"), 400, "invalid_input"],
    [t.call("[]"), 400, "invalid_input"],
    [t.call({}), 400, "invalid_input"],
    [t.call({ generation_id: 42 }), 400, "invalid_input"],
    [t.call({ generation_id: "not-a-uuid" }), 400, "invalid_input"],
    [t.call({ generation_id: crypto.randomUUID() }), 404, "invalid_input"],
    [t.call({ generation_id: mine.id }, t.stranger.jwt), 404, "invalid_input"],
    [t.call({ generation_id: mine.id, padding: "x".repeat(5000) }), 413, "invalid_input"],
  ];
  for (const [res, status, code] of cases) {
    const got = await answer(await res);
    assert.deepEqual([got.status, got.code], [status, code], JSON.stringify(got));
  }
  assert.equal((await t.call(null, null, "OPTIONS")).status, 200);
  assert.equal(t.publisher.rows.get(mine.id)?.is_public, false);
  assert.deepEqual(t.classified, []);
});

Deno.test("a row deleted while it is checked answers 404, not success", async () => {
  const t = setup();
  const row = t.publisher.addRow(t.owner.id);
  t.deps.classify = (file) => {
    t.publisher.rows.delete(row.id);
    t.classified.push(file.length);
    return Promise.resolve(scored(SAFE));
  };
  assert.equal((await t.call({ generation_id: row.id })).status, 404);
});

Deno.test("a classifier that cannot start is the server's failure (500, retryable), logged without the prompt", async () => {
  const t = setup();
  const row = t.publisher.addRow(t.owner.id, "a lighthouse in fog");
  t.deps.classify = () => Promise.reject(new Error("wasm did not load"));
  const got = await answer(await t.call({ generation_id: row.id }));
  assert.deepEqual([got.status, got.code, got.retryable], [500, "server_error", true]);
  assert.ok(t.logs.some((l) => l.event === "publish.failed" && l.step === "classify"));
  assert.ok(!JSON.stringify(t.logs).includes("lighthouse"));
});
