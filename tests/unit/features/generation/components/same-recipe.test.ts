// An identical re-run is found among the person's own generations only when every part of the recipe,
// the seed included, is the same; a random seed or a reference image never matches.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { db } from "#src/db/db.ts";
import type { GenerationRecord } from "#src/db/schema.ts";
import { findSameRecipe, madeWithRecipe } from "#src/features/generation/components/same-recipe.ts";
import type { GenerateSettings } from "#src/features/generation/components/generator-settings.ts";

const record = (over: Partial<GenerationRecord> = {}): GenerationRecord => ({
  id: "g1",
  userId: "u1",
  prompt: "a red fox",
  negativePrompt: "blur",
  style: "anime",
  quality: "high",
  aspectRatio: "16:9",
  width: 1536,
  height: 1024,
  seed: 42,
  provider: "builtin",
  model: "builtin-v1",
  imagePath: "u1/g1.png",
  isPublic: 0,
  isSaved: 0,
  createdAt: "2026-11-20T10:00:00.000Z",
  ...over,
});

const request: GenerateSettings = {
  prompt: "a red fox",
  negativePrompt: "blur",
  style: "anime",
  quality: "high",
  aspectRatio: "16:9",
  seed: 42,
};

describe("madeWithRecipe", () => {
  it("matches the same recipe and engine, and nothing that differs in one part", () => {
    expect(madeWithRecipe(record(), request, "builtin")).toBe(true);
    expect(madeWithRecipe(record(), request, null)).toBe(true);
    expect(madeWithRecipe(record(), request, "replicate")).toBe(false);
    expect(madeWithRecipe(record({ seed: 43 }), request, "builtin")).toBe(false);
    expect(madeWithRecipe(record({ negativePrompt: "" }), request, "builtin")).toBe(false);
    expect(madeWithRecipe(record({ quality: "ultra" }), request, "builtin")).toBe(false);
    expect(madeWithRecipe(record({ aspectRatio: "1:1" }), request, "builtin")).toBe(false);
    expect(madeWithRecipe(record({ style: "watercolor" }), request, "builtin")).toBe(false);
    expect(madeWithRecipe(record(), { ...request, seed: null }, "builtin")).toBe(false);
    expect(madeWithRecipe(record(), { ...request, referenceImage: "data:image/png;base64,AA" }, "builtin")).toBe(false);
  });
});

describe("findSameRecipe", () => {
  beforeEach(async () => {
    await db.generations.bulkPut([
      record(),
      record({ id: "g2", createdAt: "2026-11-21T10:00:00.000Z" }),
      record({ id: "g3", userId: "u2" }),
      record({ id: "g4", seed: 7 }),
    ]);
  });
  afterEach(async () => {
    await db.generations.clear();
  });

  it("answers the person's newest generation with this recipe, and none for another person", async () => {
    expect((await findSameRecipe("u1", request, "builtin"))?.id).toBe("g2");
    expect(await findSameRecipe("u1", { ...request, seed: 8 }, "builtin")).toBeNull();
    await db.generations.where("userId").equals("u1").delete();
    expect(await findSameRecipe("u1", request, "builtin")).toBeNull();
  });

  it("asks for the engine only when there is a recipe to look for (a random seed reads nothing)", async () => {
    const asked: string[] = [];
    const engine = async () => (asked.push("engine"), "builtin");
    expect(await findSameRecipe("u1", { ...request, seed: null }, engine)).toBeNull();
    expect(asked).toEqual([]);
    expect((await findSameRecipe("u1", request, engine))?.id).toBe("g2");
    expect(asked).toEqual(["engine"]);
  });
});
