// Variations through generate-image (decision 155): a request naming one of the caller's images as its
// parent stores the link and the kind in its row and notes it in the file's recipe; a parent that is another
// person's or does not exist is refused before anything is held or drawn, alike; a malformed variation is a
// 400. Through handler(req, deps) with the fake data layer and the built-in engine's provider over a renderer
// that answers a plain PNG.
import assert from "node:assert/strict";
import { VARIATION_MESSAGES } from "../../../supabase/functions/generate-image/variation.ts";
import { createBuiltinProvider, type RenderFn } from "../../../supabase/functions/_shared/providers/builtin.ts";
import { readRecipe } from "../../../supabase/functions/_shared/recipe-metadata/recipe-file.ts";
import { parametersText } from "../../../supabase/functions/_shared/recipe-metadata/recipe.ts";
import { FakeDb } from "../fakes/fake-store.ts";
import { generateDeps, sendGenerate } from "../fakes/generate-deps.ts";
import { solidPng } from "../fakes/fake-server.ts";

function setup() {
  const db = new FakeDb();
  let renders = 0;
  const render: RenderFn = (input) => (renders++, Promise.resolve(solidPng(input.width, input.height)));
  const deps = generateDeps(db, createBuiltinProvider(render));
  const send = (jwt: string, body: Record<string, unknown> = {}) =>
    sendGenerate(deps, jwt, { prompt: "a harbour at noon", style: "anime", ...body });
  return { db, send, renders: () => renders };
}

Deno.test("a variation of one's own image stores its parent and kind, and its file's recipe notes them", async () => {
  const { db, send } = setup();
  const owner = db.addUser();
  const parent = await (await send(owner.jwt, { seed: 11 })).json();
  for (const kind of ["subtle", "strong"] as const) {
    const res = await send(owner.jwt, { seed: 12, variation: { parent_id: parent.generation.id, kind } });
    assert.equal(res.status, 200, await res.clone().text());
    const { generation } = await res.json();
    assert.equal(generation.parent_id, parent.generation.id);
    assert.equal(generation.variation, kind);
    const recipe = readRecipe(db.objects.get(generation.image_path)!.bytes)!;
    assert.deepEqual(recipe.variation, { of: parent.generation.id, kind });
    assert.match(parametersText(recipe), new RegExp(`Variation: ${kind} of ${parent.generation.id}`));
  }
  assert.equal(db.rows.get(parent.generation.id)!.parent_id, undefined, "the parent itself varies nothing");
});

Deno.test("another person's image, or one that does not exist, is refused alike before anything is held", async () => {
  const { db, send, renders } = setup();
  const owner = db.addUser();
  const stranger = db.addUser();
  const theirs = await (await send(stranger.jwt)).json();
  const drawnBefore = renders();
  for (const parentId of [theirs.generation.id, crypto.randomUUID()]) {
    const res = await send(owner.jwt, { variation: { parent_id: parentId, kind: "strong" } });
    assert.equal(res.status, 404);
    assert.deepEqual(await res.json(), {
      error: { code: "invalid_input", message: VARIATION_MESSAGES.parent, retryable: false },
    });
  }
  assert.equal(renders(), drawnBefore, "nothing was drawn");
  assert.equal(db.quota(owner.id).remaining, 5, "nothing was charged or held");
});

Deno.test("a malformed variation is a 400 with its shape, and costs nothing", async () => {
  const { db, send, renders } = setup();
  const owner = db.addUser();
  const id = crypto.randomUUID();
  for (
    const variation of [
      "subtle",
      [id],
      { parent_id: id },
      { parent_id: "not-a-uuid", kind: "subtle" },
      { parent_id: id, kind: "wild" },
      { parent_id: id, kind: "subtle", extra: 1 },
    ]
  ) {
    const res = await send(owner.jwt, { variation });
    assert.equal(res.status, 400, JSON.stringify(variation));
    assert.equal((await res.json()).error.message, VARIATION_MESSAGES.shape);
  }
  assert.equal(renders(), 0);
  assert.equal((await send(owner.jwt, { variation: null })).status, 200, "null is no variation");
});
