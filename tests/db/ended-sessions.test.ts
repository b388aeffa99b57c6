import { expect, it } from "vitest";
import { describeDb, type Actor, type TestDb, type TestUser } from "../support/db.ts";

// Ended sessions are announced on the person's private topic (migration announce_ended_sessions): one
// message per person and statement naming the sessions that ended, readable only by that person.
describeDb("ended sessions", (ctx) => {
  async function sessionOf(db: TestDb, user: TestUser): Promise<string> {
    const [row] = await db.query<{ id: string }>(
      "insert into auth.sessions (id, user_id) values (gen_random_uuid(), $1) returning id::text as id",
      [user.id],
    );
    return row.id;
  }

  async function messagesTo(db: TestDb, user: TestUser) {
    return db.query<{ event: string; private: boolean; payload: { session_ids: string[] } }>(
      "select event, private, payload from realtime.messages where topic = $1 order by inserted_at",
      [`session:${user.id}`],
    );
  }

  /** What `actor` may read of `topic` when joined to it (Realtime sets realtime.topic to the channel's name). */
  function readAs(db: TestDb, actor: Actor, topic: string) {
    return db.as(actor, async (tx) => {
      await tx.query("select set_config('realtime.topic', $1, true)", [topic]);
      return tx.query<{ event: string }>("select event from realtime.messages where topic = $1", [topic]);
    });
  }

  it("announces every session a statement ends, once per person, on that person's private topic", async () => {
    const owner = await ctx.db.createUser();
    const other = await ctx.db.createUser();
    const ids = [await sessionOf(ctx.db, owner), await sessionOf(ctx.db, owner)].sort();
    const kept = await sessionOf(ctx.db, other);

    await ctx.db.query("delete from auth.sessions where user_id = $1", [owner.id]);

    expect(await messagesTo(ctx.db, owner)).toEqual([
      {
        event: "session.ended",
        private: true,
        payload: { session_ids: ids, id: expect.any(String) },
      },
    ]);
    expect(await messagesTo(ctx.db, other)).toEqual([]);
    expect(await ctx.db.query("select 1 from auth.sessions where id = $1", [kept])).toHaveLength(1);
  });

  it("announces the sessions of a deleted account", async () => {
    const owner = await ctx.db.createUser();
    const id = await sessionOf(ctx.db, owner);

    await ctx.db.query("delete from auth.users where id = $1", [owner.id]);

    const [message] = await messagesTo(ctx.db, owner);
    expect(message.payload.session_ids).toEqual([id]);
  });

  it("sends nothing when a statement deletes no session", async () => {
    const owner = await ctx.db.createUser();
    await ctx.db.query("delete from auth.sessions where user_id = $1", [owner.id]);
    expect(await messagesTo(ctx.db, owner)).toEqual([]);
  });

  it("lets the owner read the topic, and neither a stranger nor a visitor", async () => {
    const owner = await ctx.db.createUser();
    const stranger = await ctx.db.createUser();
    await sessionOf(ctx.db, owner);
    await ctx.db.query("delete from auth.sessions where user_id = $1", [owner.id]);
    const topic = `session:${owner.id}`;

    expect(await readAs(ctx.db, owner, topic)).toEqual([{ event: "session.ended" }]);
    expect(await readAs(ctx.db, stranger, topic)).toEqual([]);
    expect(await readAs(ctx.db, "anon", topic)).toEqual([]);
    // Joined to their own topic, the owner still reads nothing of another's.
    expect(
      await ctx.db.as(owner, async (tx) => {
        await tx.query("select set_config('realtime.topic', $1, true)", [`session:${owner.id}`]);
        return tx.query("select 1 from realtime.messages where topic = $1", [`session:${stranger.id}`]);
      }),
    ).toEqual([]);
  });

  it("lets nobody signed in send on a person's topic", async () => {
    const owner = await ctx.db.createUser();
    const topic = `session:${owner.id}`;
    for (const actor of [owner, "anon"] as const) {
      const refused = await ctx.db
        .as(actor, async (tx) => {
          await tx.query("select set_config('realtime.topic', $1, true)", [topic]);
          await tx.query(
            "insert into realtime.messages (topic, extension, event, payload) values ($1, 'broadcast', 'session.ended', '{}')",
            [topic],
          );
          return false;
        })
        .catch(() => true);
      expect(refused).toBe(true);
    }
  });
});
