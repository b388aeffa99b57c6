import { afterEach, describe, expect, it } from "vitest";
import { openAppDb, type AppDb } from "#src/db/db.ts";
import { addPrompt, clearPrompts, removePrompt } from "#src/db/prompt-history.ts";
import { listPromptHistory } from "#src/db/queries.ts";

let db: AppDb;
afterEach(async () => {
  await db?.delete();
});

const entry = (prompt: string) => ({ prompt, style: "anime", quality: "high" as const });
const prompts = async (userId = "alice") => (await listPromptHistory(userId, db)).map((p) => p.prompt);

describe("prompt history", () => {
  it("keeps prompts newest first and moves a repeated prompt to the front", async () => {
    db = openAppDb("history-order");
    await addPrompt(db, "alice", entry("a fox"), 1000);
    await addPrompt(db, "alice", entry("a lighthouse"), 2000);
    await addPrompt(db, "alice", entry("  a fox  "), 3000);
    expect(await prompts()).toEqual(["a fox", "a lighthouse"]);
  });

  it("ignores blank prompts", async () => {
    db = openAppDb("history-blank");
    expect(await addPrompt(db, "alice", entry("   "))).toBeNull();
    expect(await prompts()).toEqual([]);
  });

  it("keeps the 20 newest of each account", async () => {
    db = openAppDb("history-cap");
    await addPrompt(db, "bob", entry("bob's only prompt"), 500);
    for (let i = 1; i <= 23; i++) await addPrompt(db, "alice", entry(`prompt ${i}`), 1000);
    const kept = await prompts();
    expect(kept).toHaveLength(20);
    expect(kept[0]).toBe("prompt 23");
    expect(kept.at(-1)).toBe("prompt 4");
    expect(await prompts("bob")).toEqual(["bob's only prompt"]);
  });

  it("removes one or all", async () => {
    db = openAppDb("history-remove");
    const id = await addPrompt(db, "alice", entry("one"));
    await addPrompt(db, "alice", entry("two"));
    await removePrompt(db, "alice", id!);
    expect(await prompts()).toEqual(["two"]);
    await clearPrompts(db, "alice");
    expect(await prompts()).toEqual([]);
  });

  it("belongs to the account that typed it: another account on this browser neither sees nor removes it", async () => {
    db = openAppDb("history-owner");
    const aliceId = await addPrompt(db, "alice", entry("alice's secret"), 1000);
    await addPrompt(db, "bob", entry("a fox"), 2000);
    await addPrompt(db, "alice", entry("a fox"), 3000);
    expect(await prompts("bob")).toEqual(["a fox"]);
    expect(await prompts("alice")).toEqual(["a fox", "alice's secret"]);
    await removePrompt(db, "bob", aliceId!);
    await clearPrompts(db, "bob");
    expect(await prompts("bob")).toEqual([]);
    expect(await prompts("alice")).toEqual(["a fox", "alice's secret"]);
  });

  it("shows entries from before prompts had an owner to no one, and drops them on the next write", async () => {
    db = openAppDb("history-legacy");
    await db.promptHistory.add({
      id: "old",
      prompt: "typed by someone",
      timestamp: 1,
      style: "anime",
      quality: "high",
    });
    expect(await prompts("alice")).toEqual([]);
    await addPrompt(db, "alice", entry("mine"), 2000);
    expect(await db.promptHistory.get("old")).toBeUndefined();
    expect(await prompts("alice")).toEqual(["mine"]);
  });
});
