// A custom style in generate-image (decision 152): its words join the prompt where the prompt is validated,
// its negative prompt joins the negative prompt, the spec's limits hold for the result, the stored row names
// it and the stored file's recipe says it. Through handler(req, deps) with the fake data layer and the real
// built-in engine.
import assert from "node:assert/strict";
import { createBuiltinProvider } from "../../../supabase/functions/_shared/providers/builtin.ts";
import { readRecipe } from "../../../supabase/functions/_shared/recipe-metadata/recipe-file.ts";
import { FakeDb } from "../fakes/fake-store.ts";
import { generateDeps, sendGenerate } from "../fakes/generate-deps.ts";

const STYLE = {
  id: "3f0b8c4e-6a1d-4b7e-9c2f-1d2e3f4a5b6c",
  name: "Moody film",
  prompt: "35mm film, teal and orange",
  negative_prompt: "text",
};

async function send(body: Record<string, unknown>) {
  const db = new FakeDb();
  const user = db.addUser();
  const res = await sendGenerate(generateDeps(db, createBuiltinProvider()), user.jwt, { quality: "standard", ...body });
  return { res, db };
}

Deno.test("a custom style's words are drawn, stored and written into the file's recipe, which names it", async () => {
  const { res, db } = await send({ prompt: "a fox", negative_prompt: "blur", custom_style: STYLE });
  assert.equal(res.status, 200, await res.clone().text());
  const { generation } = await res.json();
  assert.equal(generation.prompt, "a fox, 35mm film, teal and orange");
  assert.equal(generation.negative_prompt, "blur, text");
  assert.equal(generation.custom_style_id, STYLE.id);
  assert.equal(generation.custom_style_name, "Moody film");
  const recipe = readRecipe(db.objects.get(generation.image_path)!.bytes);
  assert.equal(recipe?.customStyle, "Moody film");
  assert.equal(recipe?.prompt, "a fox, 35mm film, teal and orange");
  const text = new TextDecoder().decode(db.objects.get(generation.image_path)!.bytes);
  assert.ok(text.includes("Custom style: Moody film"));
});

Deno.test("without a custom style the row and the recipe name none", async () => {
  const { res, db } = await send({ prompt: "a fox" });
  const { generation } = await res.json();
  assert.equal(generation.custom_style_name ?? null, null);
  assert.equal(readRecipe(db.objects.get(generation.image_path)!.bytes)?.customStyle, undefined);
});

Deno.test("the spec's prompt limits hold with the style's words added", async () => {
  const { res } = await send({ prompt: "a".repeat(480), custom_style: STYLE });
  assert.equal(res.status, 400);
  const body = await res.json();
  assert.equal(body.error.code, "invalid_input");
  assert.match(body.error.message, /over 500 characters/);
  const negative = await send({ prompt: "a fox", negative_prompt: "n".repeat(295), custom_style: STYLE });
  assert.equal(negative.res.status, 400);
});

Deno.test("a malformed custom style is refused with invalid_input, never drawn", async () => {
  for (
    const bad of [
      "Moody",
      [],
      { ...STYLE, id: "not-a-uuid" },
      { ...STYLE, name: "" },
      { ...STYLE, name: "n".repeat(41) },
      { ...STYLE, prompt: 42 },
      { ...STYLE, prompt: "w".repeat(201) },
      { ...STYLE, negative_prompt: "x".repeat(201) },
      { ...STYLE, prompt: "bad\u0000byte" },
    ]
  ) {
    const { res, db } = await send({ prompt: "a fox", custom_style: bad });
    assert.equal(res.status, 400, JSON.stringify(bad));
    assert.equal((await res.json()).error.code, "invalid_input");
    assert.equal(db.objects.size, 0);
  }
});
