// Realtime postgres_changes through the real supabase-js client (and raw Phoenix frames where the
// protocol itself is the subject), on PGlite and on PostgreSQL: who receives which row change, and how
// joins, heartbeats and tokens are answered.
import "fake-indexeddb/auto";
import { randomBytes } from "node:crypto";
import type { SupabaseClient } from "@supabase/supabase-js";
import WebSocket from "ws";
import { afterAll, expect, it } from "vitest";
import { setBackendClient } from "#src/api/client.ts";
import { subscribeGenerationChanges } from "#src/api/library.ts";
import { openAppDb } from "#src/db/db.ts";
import { applyServerRows } from "#src/db/library.ts";
import { catchUp } from "#src/sync/pull.ts";
import { followGenerations } from "#src/sync/realtime.ts";
import type { GenerationRow } from "#shared/vocabulary/rows.ts";
import { signJwt } from "../../supabase/local/jwt.ts";
import { clientsFor, describeOnBackends, people } from "../support/backend-suite.ts";
import type { Backend } from "../support/backend.ts";
import { anonClient, serviceClient } from "../support/clients.ts";
import { listenChanges, sleep, waitFor } from "../support/realtime.ts";

/** How long "never receives" waits after the rightful subscriber got the change. */
const SILENCE_MS = 1500;
const DELIVERY_TIMEOUT_MS = 10_000;

type Change = { eventType: string; new: Record<string, unknown>; old: Record<string, unknown>; table: string };
type Binding = { event: "*" | "INSERT" | "UPDATE" | "DELETE"; schema: string; table?: string; filter?: string };
type PhxFrame = [string | null, string | null, string, string, Record<string, unknown>];

/** A token signed the way the backend signs (its own JWT module). */
const signToken = (secret: string, claims: Record<string, unknown>) => signJwt(claims, secret);

/** Subscribes a channel to the `event`s of public.generations (narrowed by `filter`) and resolves once SUBSCRIBED. */
const listen = (client: SupabaseClient, name: string, event: Binding["event"], filter?: string) =>
  listenChanges<Change>(client, name, { event, schema: "public", table: "generations", ...(filter ? { filter } : {}) });

/** A bare Phoenix vsn 2.0.0 socket, for the protocol-level cases. */
async function rawSocket(backend: Backend, apikey = backend.anonKey) {
  const url = `${backend.url.replace(/^http/, "ws")}/realtime/v1/websocket?apikey=${apikey}&vsn=2.0.0`;
  const ws = new WebSocket(url);
  const frames: PhxFrame[] = [];
  ws.on("message", (d) => frames.push(JSON.parse(String(d))));
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  let ref = 0;
  return {
    frames,
    push(topic: string, event: string, payload: Record<string, unknown>, joinRef: string | null = null): string {
      const r = String(++ref);
      ws.send(JSON.stringify([joinRef ?? (event === "phx_join" ? r : null), r, topic, event, payload]));
      return r;
    },
    next(match: (f: PhxFrame) => boolean, what: string) {
      return waitFor(() => frames.find(match), what);
    },
    close: () => ws.close(),
  };
}

/** The secret this file's backends sign with, for tokens the tests mint themselves. */
const SECRET = randomBytes(32).toString("hex");

describeOnBackends(
  "realtime on $title",
  { prefix: "pc_realtime", env: { JWT_SECRET: SECRET } },
  (backend, { skip }) => {
    const secret = SECRET;
    const [owner, stranger] = people(backend, "rt-owner", "rt-stranger");
    const { anon } = clientsFor(backend);
    afterAll(async () => {
      if (!skip) await anon.removeAllChannels();
    });

    async function insertGeneration(isPublic: boolean): Promise<string> {
      const id = crypto.randomUUID();
      // As generate-image stores it: with the service role (clients cannot insert generations).
      const { error } = await serviceClient(backend)
        .from("generations")
        .insert({
          id,
          user_id: owner.id,
          prompt: "harbour lights in the rain",
          provider: "builtin",
          model: "procedural-v1",
          image_path: `${owner.id}/${id}.png`,
          is_public: isPublic,
        });
      expect(error).toBeNull();
      return id;
    }

    it.skipIf(skip)(
      "delivers the owner's INSERT to the owner's filtered channel and never to a stranger or anon",
      async () => {
        const mine = await listen(owner.client, "generations-changes", "INSERT", `user_id=eq.${owner.id}`);
        const theirs = await listen(stranger.client, "snoop", "*");
        const visitor = await listen(anon, "visitor", "*");

        const id = await insertGeneration(false);
        const got = await waitFor(() => mine.changes.find((c) => c.new.id === id), "the owner's INSERT");
        expect(got.eventType).toBe("INSERT");
        expect(got.table).toBe("generations");
        expect(got.new).toMatchObject({
          user_id: owner.id,
          width: 1024,
          is_public: false,
          prompt: "harbour lights in the rain",
        });
        expect(got.old).toEqual({});

        await sleep(SILENCE_MS);
        expect(theirs.changes.filter((c) => c.new.id === id)).toEqual([]);
        expect(visitor.changes.filter((c) => c.new.id === id)).toEqual([]);
        for (const s of [mine, theirs, visitor]) await s.channel.unsubscribe();
      },
    );

    it.skipIf(skip)("delivers a published row to subscribers who may read it, anonymous ones included", async () => {
      const visitor = await listen(anon, "gallery", "INSERT");
      const other = await listen(stranger.client, "gallery-member", "INSERT");
      const id = await insertGeneration(true);
      const seen = await waitFor(() => visitor.changes.find((c) => c.new.id === id), "the published INSERT for anon");
      expect(seen.new).toMatchObject({ is_public: true, user_id: owner.id });
      await waitFor(() => other.changes.find((c) => c.new.id === id), "the published INSERT for a stranger");
      for (const s of [visitor, other]) await s.channel.unsubscribe();
    });

    it.skipIf(skip)("delivers an UPDATE with the new row and the old primary key", async () => {
      const id = await insertGeneration(false);
      const mine = await listen(owner.client, "updates", "UPDATE", `user_id=eq.${owner.id}`);
      const theirs = await listen(stranger.client, "updates-snoop", "UPDATE");
      const { error } = await owner.client.from("generations").update({ is_saved: true }).eq("id", id);
      expect(error).toBeNull();
      const got = await waitFor(() => mine.changes.find((c) => c.new.id === id), "the owner's UPDATE");
      expect(got.eventType).toBe("UPDATE");
      expect(got.new.is_saved).toBe(true);
      expect(got.old).toEqual({ id });
      await sleep(SILENCE_MS);
      expect(theirs.changes.filter((c) => c.new.id === id)).toEqual([]);
      for (const s of [mine, theirs]) await s.channel.unsubscribe();
    });

    // Hosted Realtime (realtime.apply_rls) matches a DELETE against the old values the log carries, which
    // with the default replica identity are the primary key alone, and skips RLS for it (the row is gone).
    it.skipIf(skip)(
      "sends a DELETE to every unfiltered subscriber as the primary key alone, and none to a filtered one",
      async () => {
        const id = await insertGeneration(true);
        const filtered = await listen(owner.client, "deletes-filtered", "DELETE", `user_id=eq.${owner.id}`);
        const mine = await listen(owner.client, "deletes", "DELETE");
        const theirs = await listen(stranger.client, "deletes-stranger", "DELETE");
        const visitor = await listen(anon, "deletes-visitor", "*");
        const byKey = await listen(stranger.client, "deletes-by-key", "DELETE", `id=eq.${id}`);
        const service = serviceClient(backend);
        const server = await listen(service, "deletes-server", "DELETE");
        const { error } = await owner.client.from("generations").delete().eq("id", id);
        expect(error).toBeNull();
        for (const [who, sub] of [
          ["owner", mine],
          ["stranger", theirs],
          ["anon", visitor],
          ["filter on the key", byKey],
          ["service role", server],
        ] as const) {
          const got = await waitFor(() => sub.changes.find((c) => c.old.id === id), `the ${who}'s DELETE`);
          expect(got.eventType).toBe("DELETE");
          // RLS is on: even the service role, which may read every column, gets the key alone.
          expect(got.old).toEqual({ id });
          expect(got.new).toEqual({});
        }
        await sleep(SILENCE_MS);
        expect(filtered.changes).toEqual([]);
        for (const s of [filtered, mine, theirs, visitor, byKey, server]) await s.channel.unsubscribe();
        await service.removeAllChannels();
      },
    );

    it.skipIf(skip)("a delete on one device reaches the app's library on another, live", async () => {
      // Device B: the app's own subscription, apply path and catch-up, on its own session and Dexie.
      const deviceB = anonClient(backend);
      expect(
        (await deviceB.auth.signInWithPassword({ email: owner.email, password: owner.password })).error,
      ).toBeNull();
      setBackendClient(deviceB);
      const db = openAppDb(`realtime-device-b-${randomBytes(4).toString("hex")}`);
      const id = await insertGeneration(false);
      const { data: row } = await serviceClient(backend).from("generations").select("*").eq("id", id).single();
      await applyServerRows(db, owner.id, [row as GenerationRow]);
      let subscribed!: () => void;
      const joined = new Promise<void>((r) => (subscribed = r));
      const errors: unknown[] = [];
      const live = followGenerations(
        {
          db,
          subscribe: subscribeGenerationChanges,
          catchUp: async (uid) => {
            await catchUp(db, uid);
            subscribed();
          },
          onError: (_what, e) => errors.push(e),
        },
        owner.id,
      );
      await joined;
      expect(await db.generations.get(id)).toBeDefined();
      // Device A deletes it; nothing but the realtime DELETE tells device B (no catch-up runs).
      expect((await owner.client.from("generations").delete().eq("id", id)).error).toBeNull();
      const until = Date.now() + DELIVERY_TIMEOUT_MS;
      while ((await db.generations.get(id)) !== undefined) {
        if (Date.now() > until) throw new Error("timed out waiting for device B's record to go");
        await sleep(25);
      }
      await live.settled();
      expect(errors).toEqual([]);
      live.stop();
      await deviceB.removeAllChannels();
      db.close();
    });

    it.skipIf(skip)("answers heartbeats on the phoenix topic", async () => {
      const ws = await rawSocket(backend);
      const ref = ws.push("phoenix", "heartbeat", {});
      const reply = await ws.next((f) => f[1] === ref, "the heartbeat reply");
      expect(reply).toEqual([null, ref, "phoenix", "phx_reply", { status: "ok", response: {} }]);
      ws.close();
    });

    it.skipIf(skip)("answers any other frame on the phoenix topic as an unmatched topic", async () => {
      const ws = await rawSocket(backend);
      for (const event of ["phx_join", "broadcast"]) {
        const ref = ws.push("phoenix", event, { config: {} });
        const reply = await ws.next((f) => f[1] === ref, `the ${event} reply`);
        // A join's reply carries its ref as the join ref too; the frame's other fields are the point here.
        expect(reply.slice(1)).toEqual([
          ref,
          "phoenix",
          "phx_reply",
          { status: "error", response: { reason: "unmatched topic" } },
        ]);
      }
      ws.close();
    });

    it.skipIf(skip)("echoes each binding exactly, with a numeric id, and confirms the subscription", async () => {
      const ws = await rawSocket(backend);
      const bindings = [
        { event: "INSERT", schema: "public", table: "generations", filter: `user_id=eq.${owner.id}` },
        { event: "*", schema: "public", table: "generations" },
      ];
      const ref = ws.push("realtime:echo", "phx_join", {
        config: {
          broadcast: { ack: false, self: false },
          presence: { key: "", enabled: false },
          postgres_changes: bindings,
          private: false,
        },
        access_token: await signToken(secret, {
          sub: owner.id,
          role: "authenticated",
          exp: Math.floor(Date.now() / 1000) + 600,
        }),
      });
      const reply = await ws.next((f) => f[1] === ref, "the join reply");
      expect(reply.slice(0, 4)).toEqual([ref, ref, "realtime:echo", "phx_reply"]);
      const response = reply[4] as { status: string; response: { postgres_changes: Record<string, unknown>[] } };
      expect(response.status).toBe("ok");
      const echoed = response.response.postgres_changes;
      expect(echoed.map(({ id: _id, ...rest }) => rest)).toEqual(bindings);
      expect(echoed.every((b) => typeof b.id === "number")).toBe(true);
      const system = await ws.next((f) => f[3] === "system", "the subscription notice");
      expect(system[4]).toMatchObject({
        extension: "postgres_changes",
        message: "Subscribed to PostgreSQL",
        status: "ok",
      });
      ws.close();
    });

    it.skipIf(skip)("bounds the channels of one socket and the bindings of one channel", async () => {
      const ws = await rawSocket(backend);
      const binding = { event: "INSERT", schema: "public", table: "generations" };
      const refs: string[] = [];
      for (let i = 0; i < 101; i++) {
        refs.push(ws.push(`realtime:many-${i}`, "phx_join", { config: { postgres_changes: [binding] } }));
      }
      const last = await ws.next((f) => f[1] === refs[100], "the 101st join reply");
      expect(last[4]).toEqual({ status: "error", response: { reason: "Too many channels" } });
      const first = await ws.next((f) => f[1] === refs[0], "the first join reply");
      expect(first[4]).toMatchObject({ status: "ok" });
      // Rejoining a joined topic replaces it, and leaving one frees its place.
      const again = ws.push("realtime:many-0", "phx_join", { config: { postgres_changes: [binding] } });
      expect((await ws.next((f) => f[1] === again, "the rejoin reply"))[4]).toMatchObject({ status: "ok" });
      const leave = ws.push("realtime:many-1", "phx_leave", {}, refs[1]);
      await ws.next((f) => f[1] === leave, "the leave reply");
      const freed = ws.push("realtime:many-extra", "phx_join", { config: { postgres_changes: [binding] } });
      expect((await ws.next((f) => f[1] === freed, "the join after a leave"))[4]).toMatchObject({ status: "ok" });

      const wide = ws.push("realtime:wide", "phx_join", {
        config: { postgres_changes: Array.from({ length: 101 }, () => binding) },
      });
      const leave2 = ws.push("realtime:many-2", "phx_leave", {}, refs[2]);
      await ws.next((f) => f[1] === leave2, "the second leave reply");
      const wide2 = ws.push("realtime:wide", "phx_join", {
        config: { postgres_changes: Array.from({ length: 101 }, () => binding) },
      });
      expect((await ws.next((f) => f[1] === wide, "the wide join reply"))[4]).toMatchObject({ status: "error" });
      const reply = await ws.next((f) => f[1] === wide2, "the second wide join reply");
      expect(reply[4]).toEqual({ status: "error", response: { reason: "Too many postgres_changes bindings" } });
      ws.close();
    });

    it.skipIf(skip)("refuses joins with a forged or expired token", async () => {
      const ws = await rawSocket(backend);
      const forged = ws.push("realtime:forged", "phx_join", {
        config: { postgres_changes: [{ event: "*", schema: "public", table: "generations" }] },
        access_token: await signToken("not-the-server-secret-not-the-server-secret", {
          role: "authenticated",
          sub: owner.id,
        }),
      });
      const expired = ws.push("realtime:expired", "phx_join", {
        config: { postgres_changes: [] },
        access_token: await signToken(secret, {
          role: "authenticated",
          sub: owner.id,
          exp: Math.floor(Date.now() / 1000) - 10,
        }),
      });
      for (const ref of [forged, expired]) {
        const reply = await ws.next((f) => f[1] === ref, "the join refusal");
        expect(reply[4]).toEqual({ status: "error", response: { reason: "Invalid JWT" } });
      }
      ws.close();

      // supabase-js reports it as CHANNEL_ERROR with the server's reason.
      const client = anonClient(backend);
      await client.realtime.setAuth("not-a-jwt");
      const err = await new Promise<Error | undefined>((resolve) => {
        client
          .channel("refused")
          .on("postgres_changes" as never, { event: "*", schema: "public", table: "generations" } as never, () => {})
          .subscribe((status, e) => status === "CHANNEL_ERROR" && resolve(e));
      });
      expect(err?.message).toBe("Invalid JWT");
      await client.removeAllChannels();
    });

    it.skipIf(skip)("closes a channel when the token it holds expires", async () => {
      const ws = await rawSocket(backend);
      const ref = ws.push("realtime:short", "phx_join", {
        config: { postgres_changes: [{ event: "*", schema: "public", table: "generations" }] },
        access_token: await signToken(secret, {
          role: "authenticated",
          sub: owner.id,
          exp: Math.floor(Date.now() / 1000) + 2,
        }),
      });
      expect((await ws.next((f) => f[1] === ref, "the join reply"))[4]).toMatchObject({ status: "ok" });
      const notice = await ws.next((f) => f[3] === "system" && f[4].status === "error", "the expiry notice");
      expect(notice[4]).toMatchObject({ extension: "system", message: "Token has expired" });
      await ws.next((f) => f[3] === "phx_close" && f[2] === "realtime:short", "the channel close");
      ws.close();
    });

    it.skipIf(skip)("accepts a refreshed access token and closes the channel on an invalid one", async () => {
      const ws = await rawSocket(backend);
      const topic = "realtime:refresh";
      const joinRef = ws.push(topic, "phx_join", {
        config: { postgres_changes: [] },
        access_token: await signToken(secret, {
          role: "authenticated",
          sub: owner.id,
          exp: Math.floor(Date.now() / 1000) + 600,
        }),
      });
      await ws.next((f) => f[1] === joinRef, "the join reply");
      const fresh = ws.push(
        topic,
        "access_token",
        {
          access_token: await signToken(secret, {
            role: "authenticated",
            sub: owner.id,
            exp: Math.floor(Date.now() / 1000) + 900,
          }),
        },
        joinRef,
      );
      expect((await ws.next((f) => f[1] === fresh, "the refresh reply"))[4]).toMatchObject({ status: "ok" });
      const bad = ws.push(topic, "access_token", { access_token: "garbage" }, joinRef);
      expect((await ws.next((f) => f[1] === bad, "the refusal"))[4]).toEqual({
        status: "error",
        response: { reason: "Invalid JWT" },
      });
      await ws.next((f) => f[3] === "phx_close" && f[2] === topic, "the channel close");
      ws.close();
    });

    it.skipIf(skip)("refuses a connection without the project's API key", async () => {
      const url = `${backend.url.replace(/^http/, "ws")}/realtime/v1/websocket?apikey=nope&vsn=2.0.0`;
      const status = await new Promise<number>((resolve) => {
        const ws = new WebSocket(url);
        ws.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
        ws.on("open", () => resolve(101));
        ws.on("error", () => {});
      });
      expect(status).toBe(401);
    });
  },
);
