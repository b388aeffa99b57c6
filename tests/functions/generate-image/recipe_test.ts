// The recipe in the image files generate-image stores (docs/decisions/104-every-image-file-carries-its-recipe.md):
// the built-in engine's PNG carries it as drawn, a remote engine's PNG gets it without its pixels being
// re-encoded, and a JPEG gets it as XMP with its image data untouched. Through handler(req, deps) with the fake
// data layer, the real built-in engine and the real Replicate adapter against the fake Replicate server.
import assert from "node:assert/strict";
import { createBuiltinProvider } from "../../../supabase/functions/_shared/providers/builtin.ts";
import { createReplicateProvider } from "../../../supabase/functions/_shared/providers/replicate.ts";
import type { ImageProvider } from "../../../supabase/functions/_shared/providers/types.ts";
import { decodeImage } from "../../../supabase/functions/_shared/image/decode.ts";
import { readRecipe } from "../../../supabase/functions/_shared/recipe-metadata/recipe-file.ts";
import { FakeDb } from "../fakes/fake-store.ts";
import { generateDeps, sendGenerate } from "../fakes/generate-deps.ts";
import { type ReplicateModes, startReplicateFake } from "../fakes/replicate-fake.ts";
import { solidPng } from "../fakes/fake-server.ts";
import { jpegDeclaring } from "../fixtures/jpeg-declaring.ts";

const NO_LIMITS = { maxBytes: Infinity, maxDimension: Infinity, maxPixels: Infinity };

async function generate(provider: ImageProvider, body: Record<string, unknown>) {
  const db = new FakeDb();
  const user = db.addUser();
  const res = await sendGenerate(generateDeps(db, provider), user.jwt, body);
  assert.equal(res.status, 200, await res.clone().text());
  const { generation } = await res.json();
  return { generation, stored: db.objects.get(generation.image_path)! };
}

async function withReplicate<T>(modes: Partial<ReplicateModes>, run: (p: ImageProvider) => Promise<T>): Promise<T> {
  const fake = startReplicateFake(modes);
  try {
    return await run(
      createReplicateProvider({ token: fake.token, baseUrl: fake.url, pollIntervalMs: 5, timeoutMs: 5_000, fetch }),
    );
  } finally {
    await fake.close();
  }
}

/** The recipe of that red fox as drawn by Replicate at 16:9, but for the seed and model. */
const RED_FOX_RECIPE = {
  prompt: "a red fox",
  negativePrompt: "",
  style: "anime",
  quality: "standard",
  aspectRatio: "16:9",
  width: 1344,
  height: 768,
  provider: "replicate",
};

/** What the function stores for an anime red fox at 16:9 when the (fake) Replicate engine answers `engineBytes`. */
const redFoxFromReplicate = (engineBytes: Uint8Array, more: Record<string, unknown> = {}) =>
  withReplicate({ outputBytes: engineBytes }, (replicate) =>
    generate(replicate, {
      prompt: "a red fox",
      negative_prompt: "",
      style: "anime",
      quality: "standard",
      aspect_ratio: "16:9",
      ...more,
    }));

Deno.test("the built-in engine's stored PNG carries the generation's recipe", async () => {
  const { generation, stored } = await generate(createBuiltinProvider(), {
    prompt: "Füchsin 🦊 im Schnee, 雪の中の狐",
    negative_prompt: "blurry",
    style: "watercolor",
    quality: "high",
    aspect_ratio: "1:1",
    seed: 42,
  });
  assert.equal(stored.contentType, "image/png");
  assert.deepEqual(readRecipe(stored.bytes), {
    prompt: "Füchsin 🦊 im Schnee, 雪の中の狐",
    negativePrompt: "blurry",
    style: "watercolor",
    quality: "high",
    aspectRatio: "1:1",
    width: 1024,
    height: 1024,
    seed: 42,
    provider: "builtin",
    model: "builtin-procedural-v1",
  });
  assert.equal(generation.model, "builtin-procedural-v1");
  const text = new TextDecoder().decode(stored.bytes);
  assert.ok(text.includes("Füchsin 🦊 im Schnee, 雪の中の狐\nNegative prompt: blurry\nSeed: 42, Size: 1024x1024"));
  // The engine wrote it with its own text chunks, so the function stored the engine's bytes as they were.
  assert.equal(text.split("promptcanvas:recipe").length - 1, 1);
  assert.ok(text.indexOf("promptcanvas:recipe") < text.indexOf("IDAT"));
  assert.ok(decodeImage(stored.bytes, NO_LIMITS).ok);
});

Deno.test("a remote engine's PNG is stored with the recipe added and its pixels untouched", async () => {
  const engineBytes = solidPng(1344, 768, [200, 40, 40]);
  const { stored } = await redFoxFromReplicate(engineBytes, { seed: 7 });
  assert.deepEqual(readRecipe(stored.bytes), { ...RED_FOX_RECIPE, seed: 7, model: "black-forest-labs/flux-schnell" });
  // Every chunk of the engine's file is kept in order (all but its IEND come first, unchanged).
  const iend = engineBytes.length - 12;
  assert.deepEqual(stored.bytes.subarray(0, iend), engineBytes.subarray(0, iend));
  assert.deepEqual(stored.bytes.subarray(stored.bytes.length - 12), engineBytes.subarray(iend));
  const [a, b] = [decodeImage(stored.bytes, NO_LIMITS), decodeImage(engineBytes, NO_LIMITS)];
  assert.ok(a.ok && b.ok);
  assert.deepEqual(a.value.rgba, b.value.rgba);
});

Deno.test("a remote engine's JPEG is stored with its recipe as XMP, its image data untouched", async () => {
  const engineBytes = jpegDeclaring(1344, 768);
  const { stored } = await redFoxFromReplicate(engineBytes);
  assert.equal(stored.contentType, "image/jpeg");
  assert.equal(readRecipe(engineBytes), null);
  assert.deepEqual(readRecipe(stored.bytes), {
    ...RED_FOX_RECIPE,
    seed: readRecipe(stored.bytes)?.seed ?? null,
    model: readRecipe(stored.bytes)?.model ?? "",
  });
  // Only segments were added, after the engine's own header: its bytes are all there, in order, around them.
  const header = engineBytes[2] === 0xff && engineBytes[3] === 0xe0 ? 4 + ((engineBytes[4] << 8) | engineBytes[5]) : 2;
  assert.deepEqual(stored.bytes.subarray(0, header), engineBytes.subarray(0, header));
  const tail = engineBytes.subarray(header);
  assert.deepEqual(stored.bytes.subarray(stored.bytes.length - tail.length), tail);
  assert.ok(stored.bytes.length > engineBytes.length);
});
