import { expect, it } from "vitest";
import { describeDb, type Actor } from "../support/db.ts";

// The app's live channel "library:<user id>" is private (migration keep_library_channels_private): as
// Realtime Authorization asks it, only the person may read the topic (join it, receive broadcast, see
// presence) and write to it (send broadcast, track presence); a stranger and a visitor may do neither.
describeDb("library channels", (ctx) => {
  /** Whether `actor`, joined to `topic`, may read a message of `extension` there (Realtime's probe). */
  async function mayRead(actor: Actor, topic: string, extension: string): Promise<boolean> {
    const [probe] = await ctx.db.query<{ id: string }>(
      "insert into realtime.messages (topic, extension) values ($1, $2) returning id::text as id",
      [topic, extension],
    );
    try {
      const rows = await ctx.db.as(actor, async (tx) => {
        await tx.query("select set_config('realtime.topic', $1, true)", [topic]);
        return tx.query("select 1 from realtime.messages where id = $1", [probe.id]);
      });
      return rows.length === 1;
    } finally {
      await ctx.db.query("delete from realtime.messages where id = $1", [probe.id]);
    }
  }

  /** Whether `actor`, joined to `joined`, may write a message of `extension` to `topic`. */
  async function mayWrite(actor: Actor, topic: string, extension: string, joined = topic): Promise<boolean> {
    return ctx.db
      .as(actor, async (tx) => {
        await tx.query("select set_config('realtime.topic', $1, true)", [joined]);
        await tx.query("insert into realtime.messages (topic, extension) values ($1, $2)", [topic, extension]);
        // Thrown to roll the write back: Realtime keeps none of its probes either.
        throw new Error("written");
      })
      .then(
        () => false,
        (e: Error) => e.message === "written",
      );
  }

  it("lets the person read and write broadcast and presence on their own library channel", async () => {
    const owner = await ctx.db.createUser();
    const topic = `library:${owner.id}`;
    for (const extension of ["broadcast", "presence"]) {
      expect(await mayRead(owner, topic, extension), extension).toBe(true);
      expect(await mayWrite(owner, topic, extension), extension).toBe(true);
    }
  });

  it("lets neither a stranger nor a visitor read or write a person's library channel", async () => {
    const owner = await ctx.db.createUser();
    const stranger = await ctx.db.createUser();
    const topic = `library:${owner.id}`;
    for (const actor of [stranger, "anon"] as const) {
      for (const extension of ["broadcast", "presence"]) {
        expect(await mayRead(actor, topic, extension)).toBe(false);
        expect(await mayWrite(actor, topic, extension)).toBe(false);
      }
    }
    // Joined to their own channel, the stranger still cannot write into the owner's.
    expect(await mayWrite(stranger, topic, "broadcast", `library:${stranger.id}`)).toBe(false);
  });

  it("opens no other topic: look-alike names and other extensions stay closed", async () => {
    const owner = await ctx.db.createUser();
    for (const topic of [`library:${owner.id}:x`, `Library:${owner.id}`, `library:`, `library:${owner.id} `]) {
      expect(await mayRead(owner, topic, "broadcast"), topic).toBe(false);
      expect(await mayWrite(owner, topic, "broadcast"), topic).toBe(false);
    }
    expect(await mayWrite(owner, `library:${owner.id}`, "postgres_changes")).toBe(false);
  });
});
