// Collections (decision 157) on the local backend, as a hostile client would send them, on PGlite and
// PostgreSQL: the collections and collection_items tables through the REST gateway, with the outbox's
// upserts carrying bodies that are not what they take (junk names, filters and ids, oversize and deep
// bodies, NUL bytes and lone surrogates, another person's rows, a smart collection, columns that are the
// server's), and reads and deletes with junk filters. Every one is answered 4xx with a code, never 5xx, a
// hang or a dropped connection; nothing is stored; a well-formed collection and its item are.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { castFor, describeOnBackends } from "../support/backend-suite.ts";
import {
  type Answer,
  authHeaders,
  deepObject,
  HOSTILE_TEXT,
  hugeJson,
  jsonWith,
  pctEncode,
  type ProbeResult,
  report,
  send,
} from "../support/hostile.ts";
import { expect4xxWithCode } from "../support/hostile-expect.ts";
import { newGeneration } from "../support/records.ts";

const COLLECTIONS = "/rest/v1/collections";
const ITEMS = "/rest/v1/collection_items";
const results: ProbeResult[] = [];

afterAll(() => {
  if (results.length) console.log(`\ncollections: hostile answers by class\n${report(results)}\n`);
});

describeOnBackends("collections on $title", { prefix: "pc_hostile_collections" }, (b, { postgres, skip }) => {
  const { owner, stranger, server } = castFor(b);
  const made = { mine: randomUUID(), smart: randomUUID(), theirs: randomUUID(), image: "", theirImage: "" };

  const collection = (over: Record<string, unknown> = {}) => ({
    id: randomUUID(),
    user_id: owner.id,
    name: "Foxes",
    filter: null,
    ...over,
  });
  const item = (over: Record<string, unknown> = {}) => ({
    collection_id: made.mine,
    generation_id: made.image,
    user_id: owner.id,
    ...over,
  });
  const token = (who: "owner" | "stranger" | null) =>
    who === null ? null : (who === "owner" ? owner : stranger).session.access_token;
  /** The outbox's save: supabase-js's upsert on id. */
  const save = (body: string, who: "owner" | "stranger" | null = "owner") =>
    send(b, `${COLLECTIONS}?on_conflict=id`, {
      method: "POST",
      headers: { ...authHeaders(b, token(who)), prefer: "resolution=merge-duplicates,return=minimal" },
      body,
    });
  /** The outbox's add: supabase-js's upsert ignoring duplicates. */
  const add = (body: string, who: "owner" | "stranger" | null = "owner") =>
    send(b, `${ITEMS}?on_conflict=collection_id,generation_id`, {
      method: "POST",
      headers: { ...authHeaders(b, token(who)), prefer: "resolution=ignore-duplicates,return=minimal" },
      body,
    });
  const call = (method: string, path: string, body?: string) =>
    send(b, path, { method, headers: authHeaders(b, token("owner")), body });
  const expectAll4xx = (family: string, probes: [string, Answer][]) =>
    expect4xxWithCode(results, postgres ? "PostgreSQL" : "PGlite", family, probes);

  beforeAll(async () => {
    if (skip) return;
    for (const [key, user] of [
      ["image", owner],
      ["theirImage", stranger],
    ] as const) {
      const row = newGeneration(randomUUID(), user.id);
      expect((await server.from("generations").insert(row)).error).toBeNull();
      made[key] = row.id;
    }
    const rows = [
      collection({ id: made.mine }),
      collection({ id: made.smart, name: "Smart", filter: { saved: true } }),
      collection({ id: made.theirs, user_id: stranger.id }),
    ];
    expect((await server.from("collections").insert(rows)).error).toBeNull();
  });

  it.skipIf(skip)(
    "answers every bad collection 4xx with a code and stores none of them",
    async () => {
      const filtered = (filter: unknown) => save(JSON.stringify(collection({ filter })));
      const probes: [string, Answer][] = [
        ["no token", await save(JSON.stringify(collection()), null)],
        ["not JSON", await save("{name:")],
        ["deep filter", await save(`{"id":"${randomUUID()}","name":"n","filter":${deepObject(20_000)}}`)],
        ["7 MB body", await save(hugeJson(7 * 1024 * 1024, collection(), "name"))],
        ["id not a uuid", await save(JSON.stringify(collection({ id: "c1" })))],
        ["user_id not a uuid", await save(JSON.stringify(collection({ user_id: "me" })))],
        ["empty name", await save(JSON.stringify(collection({ name: "" })))],
        ["name of 61", await save(JSON.stringify(collection({ name: "n".repeat(61) })))],
        ["padded name", await save(JSON.stringify(collection({ name: " Foxes\u3000" })))],
        ["filter a string", await filtered("saved")],
        ["filter an array", await filtered([{ saved: true }])],
        ["empty filter", await filtered({})],
        ["unknown filter key", await filtered({ saved: true, owner: "*" })],
        ["filter words of 201", await filtered({ text: "w".repeat(201) })],
        ["filter words of 900 KB", await filtered({ text: "w".repeat(900_000) })],
        ["unknown style", await filtered({ style: "../anime" })],
        ["engine with a slash", await filtered({ engine: "a/b" })],
        ["withinDays 0", await filtered({ withinDays: 0 })],
        ["withinDays past a double", await save(`{"id":"${randomUUID()}","name":"n","filter":{"withinDays":1e400}}`)],
        ["from after to", await filtered({ from: "2026-02-01", to: "2026-01-01" })],
        ["created_at set", await save(JSON.stringify(collection({ created_at: "2000-01-01T00:00:00Z" })))],
        ["in the stranger's name", await save(JSON.stringify(collection({ user_id: stranger.id })))],
        ["the stranger's id", await save(JSON.stringify(collection({ id: made.theirs })))],
        [
          "a hand-made one made smart",
          await save(JSON.stringify(collection({ id: made.mine, filter: { saved: true } }))),
        ],
        ["name nul", await save(jsonWith(collection(), { name: HOSTILE_TEXT.nul }))],
        ["name lone surrogate", await save(jsonWith(collection(), { name: HOSTILE_TEXT["lone high surrogate"] }))],
        [
          "filter words nul",
          await save(`{"id":"${randomUUID()}","name":"n","filter":${jsonWith({}, { text: HOSTILE_TEXT.nul })}}`),
        ],
        ["filter key nul", await save(`{"id":"${randomUUID()}","name":"n","filter":{"te\\u0000xt":"fox"}}`)],
        ["junk filter on filter", await call("GET", `${COLLECTIONS}?filter=cs.${pctEncode("{junk")}`)],
        ["nul in a read filter", await call("GET", `${COLLECTIONS}?name=eq.${pctEncode(HOSTILE_TEXT.nul)}`)],
        ["delete by a junk id", await call("DELETE", `${COLLECTIONS}?id=eq.not-a-uuid`)],
      ];
      expectAll4xx("collections", probes);
      const { data } = await server.from("collections").select("id").in("user_id", [owner.id, stranger.id]);
      expect(data?.map((r) => r.id).sort()).toEqual([made.mine, made.smart, made.theirs].sort());
      // A well-formed collection is stored, and the same upsert sent again (a resend, a rename) is taken.
      const good = collection({ filter: { text: "fox", withinDays: 30 } });
      for (const name of ["Recent foxes", "Recent foxes", "Foxes of the month"]) {
        expect((await save(JSON.stringify({ ...good, name }))).cls).toBe("2xx");
      }
      const { data: kept } = await server.from("collections").select("name").eq("id", good.id);
      expect(kept).toEqual([{ name: "Foxes of the month" }]);
    },
    120_000,
  );

  it.skipIf(skip)(
    "answers every bad item 4xx with a code and stores none of them",
    async () => {
      const junkRows = (n: number) => Array.from({ length: n }, (_, i) => item({ generation_id: `g${i}` }));
      const probes: [string, Answer][] = [
        ["no token", await add(JSON.stringify([item()]), null)],
        ["not JSON", await add("[{collection_id:")],
        ["deep body", await add(`[{"collection_id":${deepObject(20_000)}}]`)],
        ["7 MB body", await add(hugeJson(7 * 1024 * 1024, item(), "generation_id"))],
        ["1,000 junk rows", await add(JSON.stringify(junkRows(1000)))],
        ["5,000 rows in one add", await add(JSON.stringify(junkRows(5000)))],
        ["collection id not a uuid", await add(JSON.stringify([item({ collection_id: "c1" })]))],
        ["generation id an object", await add(JSON.stringify([item({ generation_id: { $ne: null } })]))],
        ["added_at not a time", await add(JSON.stringify([item({ added_at: "the day before" })]))],
        ["added_at infinity", await add(JSON.stringify([item({ added_at: "infinity" })]))],
        ["a collection that is gone", await add(JSON.stringify([item({ collection_id: randomUUID() })]))],
        ["an image that is gone", await add(JSON.stringify([item({ generation_id: randomUUID() })]))],
        ["into the stranger's collection", await add(JSON.stringify([item({ collection_id: made.theirs })]))],
        ["the stranger's image", await add(JSON.stringify([item({ generation_id: made.theirImage })]))],
        ["in the owner's name, by the stranger", await add(JSON.stringify([item()]), "stranger")],
        ["into a smart collection", await add(JSON.stringify([item({ collection_id: made.smart })]))],
        ["one good row and one bad", await add(JSON.stringify([item(), item({ collection_id: made.theirs })]))],
        ["id nul", await add(`[${jsonWith(item(), { generation_id: HOSTILE_TEXT.nul })}]`)],
        [
          "changed",
          await call("PATCH", `${ITEMS}?collection_id=eq.${made.mine}`, JSON.stringify({ added_at: "2000-01-01" })),
        ],
        ["removed by junk ids", await call("DELETE", `${ITEMS}?collection_id=eq.${made.mine}&generation_id=in.(x,y)`)],
        [
          "read by a lone surrogate",
          await call("GET", `${ITEMS}?generation_id=eq.${pctEncode(HOSTILE_TEXT["lone low surrogate"])}`),
        ],
      ];
      expectAll4xx("collection_items", probes);
      const { data } = await server
        .from("collection_items")
        .select("collection_id")
        .in("user_id", [owner.id, stranger.id]);
      expect(data).toEqual([]);
      // The well-formed add is taken, and its resend adds nothing and refuses nothing.
      for (let i = 0; i < 2; i++) expect((await add(JSON.stringify([item()]))).cls).toBe("2xx");
      const { data: kept } = await server
        .from("collection_items")
        .select("generation_id")
        .eq("collection_id", made.mine);
      expect(kept).toEqual([{ generation_id: made.image }]);
    },
    120_000,
  );
});
