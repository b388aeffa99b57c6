// The render priority generate-image passes to the platform's renderer (docs/decisions/153-paid-renders-start-first.md):
// the tier the quota reservation read, as builtin.ts numbers it, reaches the render and the reference
// image's decode, with the request's deadline as the render's signal. Through handler(req, deps) with the
// fake data layer and the built-in engine's provider over a renderer that records what it was given.
import assert from "node:assert/strict";
import type { Deps } from "../../../supabase/functions/generate-image/handler.ts";
import {
  createBuiltinProvider,
  RENDER_PRIORITY,
  type RenderFn,
  type RenderOptions,
  renderPriorityOf,
} from "../../../supabase/functions/_shared/providers/builtin.ts";
import { decodeImage } from "../../../supabase/functions/_shared/image/decode.ts";
import { TIERS } from "../../../supabase/functions/_shared/vocabulary/tiers.ts";
import { FakeDb } from "../fakes/fake-store.ts";
import { generateDeps, sendGenerate } from "../fakes/generate-deps.ts";
import { solidPng, toBase64 } from "../fakes/fake-server.ts";

interface Seen {
  renders: RenderOptions[];
  decodes: RenderOptions[];
}

function depsFor(db: FakeDb, seen: Seen): Deps {
  const render: RenderFn = (input, options = {}) => {
    seen.renders.push(options);
    return Promise.resolve(solidPng(input.width, input.height));
  };
  return generateDeps(db, createBuiltinProvider(render), {
    decode: (file, options = {}) => {
      seen.decodes.push(options);
      return Promise.resolve(decodeImage(file));
    },
  });
}

async function generate(deps: Deps, jwt: string, body: Record<string, unknown> = {}): Promise<Response> {
  return await sendGenerate(deps, jwt, { prompt: "a lighthouse", style: "anime", ...body });
}

Deno.test("each tier's render and reference decode wait at that tier's priority: premium over pro over free", async () => {
  for (const tier of TIERS) {
    const db = new FakeDb();
    const user = db.addUser(tier);
    const seen: Seen = { renders: [], decodes: [] };
    const reference = `data:image/png;base64,${toBase64(solidPng(16, 16))}`;
    const res = await generate(depsFor(db, seen), user.jwt, { reference_image: reference });
    assert.equal(res.status, 200, await res.clone().text());
    assert.equal(seen.renders.length, 1);
    assert.equal(seen.renders[0].priority, RENDER_PRIORITY[tier], tier);
    assert.ok(seen.renders[0].signal instanceof AbortSignal, "the render carries the request's deadline");
    assert.deepEqual(seen.decodes.map((o) => o.priority), [RENDER_PRIORITY[tier]], tier);
  }
  assert.ok(RENDER_PRIORITY.premium > RENDER_PRIORITY.pro && RENDER_PRIORITY.pro > RENDER_PRIORITY.free);
});

Deno.test("the priority follows the tier the reservation reads, not one the caller claims", async () => {
  const db = new FakeDb();
  const user = db.addUser("free");
  const seen: Seen = { renders: [], decodes: [] };
  const deps = depsFor(db, seen);
  const res = await generate(deps, user.jwt, { tier: "premium", priority: 99 });
  // Unknown fields are the caller's to send and the server's to ignore: the row is made, at free's priority.
  assert.equal(res.status, 200, await res.clone().text());
  db.limits.get(user.id)!.tier = "premium";
  assert.equal((await generate(deps, user.jwt)).status, 200);
  assert.deepEqual(seen.renders.map((o) => o.priority), [RENDER_PRIORITY.free, RENDER_PRIORITY.premium]);
});

Deno.test("a tier the product does not know waits as free", () => {
  assert.equal(renderPriorityOf("enterprise"), RENDER_PRIORITY.free);
  assert.equal(renderPriorityOf(""), RENDER_PRIORITY.free);
});
