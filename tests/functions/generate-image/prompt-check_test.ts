// generate-image's prompt check: a refused prompt is the spec's nsfw_content (422, "Content Policy
// Violation"'s message), answered before any quota slot is held or anything decoded or drawn: no
// provider call, no object, no row, no charge. The negative prompt is not checked, an operator's term
// from the check's source counts, and a streamed request hears the same refusal as a plain one.
import assert from "node:assert/strict";
import { DEFAULT_CONFIG, type Deps, handler } from "../../../supabase/functions/generate-image/handler.ts";
import { ok } from "../../../supabase/functions/_shared/errors.ts";
import { createPromptCheck } from "../../../supabase/functions/_shared/moderation/prompt-check.ts";
import { createProviderRegistry } from "../../../supabase/functions/_shared/providers/select.ts";
import type { ImageProvider } from "../../../supabase/functions/_shared/providers/types.ts";
import { ERROR_CATALOGUE } from "../../../supabase/functions/_shared/vocabulary/errors.ts";
import { FakeDb, FakeStore } from "../fakes/fake-store.ts";
import { solidPng, toBase64 } from "../fakes/fake-server.ts";

function setup(withDefaultCheck = false) {
  const db = new FakeDb();
  const drawn: string[] = [];
  const decoded: number[] = [];
  const provider: ImageProvider = {
    id: "replicate",
    kind: "ai-model",
    model: () => "fake",
    generate: (input) => {
      drawn.push(input.prompt);
      return Promise.resolve(ok({ bytes: solidPng(16, 9), seed: 1, model: "fake" }));
    },
  };
  const deps: Deps = {
    store: new FakeStore(db),
    providers: createProviderRegistry([provider], { timeoutMs: 5_000 }),
    fetch,
    now: () => Date.now(),
    log: () => undefined,
    config: DEFAULT_CONFIG,
    decode: (file) => (decoded.push(file.length), Promise.reject(new Error("not reached"))),
    ...(withDefaultCheck ? {} : { checkPrompt: createPromptCheck({ terms: () => Promise.resolve(ok(["kraken"])) }) }),
  };
  const user = db.addUser("free");
  const call = async (body: Record<string, unknown>, accept = "application/json") => {
    const res = await handler(
      new Request("http://localhost/functions/v1/generate-image", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${user.jwt}`, accept },
        body: JSON.stringify({ request_id: crypto.randomUUID(), ...body }),
      }),
      deps,
    );
    return { status: res.status, body: await res.text() };
  };
  return { db, user, drawn, decoded, call };
}

const REFERENCE = `data:image/png;base64,${toBase64(solidPng(8, 8))}`;

Deno.test("a refused prompt is nsfw_content with the catalogue's message: nothing held, decoded, drawn, stored or charged", async () => {
  for (const withDefaultCheck of [false, true]) {
    const t = setup(withDefaultCheck);
    const before = t.db.quota(t.user.id);
    for (const prompt of ["a p0rn still", "N U D E figure", "ｐｏｒｎ"]) {
      const res = await t.call({ prompt, reference_image: REFERENCE });
      assert.equal(res.status, 422, prompt);
      const { error } = JSON.parse(res.body);
      assert.deepEqual(error, {
        code: "nsfw_content",
        message: ERROR_CATALOGUE.nsfw_content.message,
        retryable: false,
      });
    }
    assert.deepEqual([t.drawn, t.decoded], [[], []]);
    assert.deepEqual(t.db.quota(t.user.id), before);
    assert.equal(t.db.reservations.size + t.db.rows.size + t.db.objects.size, 0);
    assert.ok(!t.db.calls.includes("reserve"));
  }
});

Deno.test("an operator's term refuses too; the negative prompt is never checked", async () => {
  const t = setup();
  assert.equal((await t.call({ prompt: "a kraken rising from the sea" })).status, 422);
  const res = await t.call({ prompt: "a quiet beach at noon", negative_prompt: "nude, naked, porn, kraken" });
  assert.equal(res.status, 200);
  assert.deepEqual(t.drawn, ["a quiet beach at noon"]);
  assert.equal(t.db.quota(t.user.id).remaining, 4);
});

Deno.test("a streamed request hears the same refusal as a plain answer, not an event stream", async () => {
  const t = setup();
  const res = await t.call({ prompt: "porn" }, "text/event-stream");
  assert.equal(res.status, 422);
  assert.equal(JSON.parse(res.body).error.code, "nsfw_content");
  assert.deepEqual(t.drawn, []);
});
