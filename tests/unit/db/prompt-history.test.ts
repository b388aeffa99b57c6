import { afterEach, describe, expect, it } from "vitest";
import { openAppDb, type AppDb } from "#src/db/db.ts";
import { addPrompt, clearPrompts, removePrompt } from "#src/db/prompt-history.ts";
import { listPromptHistory } from "#src/db/queries.ts";

let db: AppDb;
afterEach(async () => {
  await db?.delete();
});

const entry = (prompt: string) => ({ prompt, style: "anime", quality: "high" as const });
const prompts = async () => (await listPromptHistory(db)).map((p) => p.prompt);

describe("prompt history", () => {
  it("keeps prompts newest first and moves a repeated prompt to the front", async () => {
    db = openAppDb("history-order");
    await addPrompt(db, entry("a fox"), 1000);
    await addPrompt(db, entry("a lighthouse"), 2000);
    await addPrompt(db, entry("  a fox  "), 3000);
    expect(await prompts()).toEqual(["a fox", "a lighthouse"]);
  });

  it("ignores blank prompts", async () => {
    db = openAppDb("history-blank");
    expect(await addPrompt(db, entry("   "))).toBeNull();
    expect(await prompts()).toEqual([]);
  });

  it("keeps the 20 newest", async () => {
    db = openAppDb("history-cap");
    for (let i = 1; i <= 23; i++) await addPrompt(db, entry(`prompt ${i}`), 1000);
    const kept = await prompts();
    expect(kept).toHaveLength(20);
    expect(kept[0]).toBe("prompt 23");
    expect(kept.at(-1)).toBe("prompt 4");
  });

  it("removes one or all", async () => {
    db = openAppDb("history-remove");
    const id = await addPrompt(db, entry("one"));
    await addPrompt(db, entry("two"));
    await removePrompt(db, id!);
    expect(await prompts()).toEqual(["two"]);
    await clearPrompts(db);
    expect(await prompts()).toEqual([]);
  });
});
