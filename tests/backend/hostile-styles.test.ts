// Custom styles (decision 152) on the local backend, as a hostile client would send them, on PGlite and
// PostgreSQL: the custom_styles table through the REST gateway (upserts as the outbox sends them, with bodies
// that are not what it takes, hostile text, an oversize preview, another person's id, a tier that does not
// allow it) and generate-image's custom_style field (wrong shapes, hostile text, words past the spec's
// limits). Every one is answered 4xx with a code, never 5xx, a hang or a dropped connection; nothing is
// stored for the stranger or below premium; and a well-formed style is stored and named by the row it drew.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { castFor, describeOnBackends } from "../support/backend-suite.ts";
import { BUILTIN_ONLY } from "../support/backend.ts";
import {
  type Answer,
  authHeaders,
  deepObject,
  HOSTILE_TEXT,
  hugeJson,
  jsonWith,
  type ProbeResult,
  report,
  send,
} from "../support/hostile.ts";
import { expect4xxWithCode } from "../support/hostile-expect.ts";

const TABLE = "/rest/v1/custom_styles";
const GENERATE = "/functions/v1/generate-image";
const results: ProbeResult[] = [];

afterAll(() => {
  if (results.length) console.log(`\ncustom styles: hostile answers by class\n${report(results)}\n`);
});

const style = (over: Record<string, unknown> = {}) => ({
  id: randomUUID(),
  name: "Moody film",
  prompt: "35mm film, teal and orange",
  negative_prompt: "",
  quality: "high",
  aspect_ratio: "16:9",
  ...over,
});

describeOnBackends(
  "custom styles on $title",
  { prefix: "pc_hostile_styles", env: BUILTIN_ONLY },
  (b, { postgres, skip }) => {
    const { owner, stranger, server } = castFor(b);

    beforeAll(async () => {
      if (skip) return;
      const { error } = await server
        .from("user_daily_limits")
        .update({ subscription_tier: "premium" })
        .eq("user_id", owner.id);
      if (error) throw error;
    });

    const upsert = (body: string, token: string | null = owner.session.access_token) =>
      send(b, TABLE, {
        method: "POST",
        headers: { ...authHeaders(b, token), prefer: "resolution=merge-duplicates,return=minimal" },
        body,
      });
    const generate = (customStyle: unknown, prompt = "a lighthouse") =>
      send(b, GENERATE, {
        method: "POST",
        headers: authHeaders(b, owner.session.access_token),
        body: JSON.stringify({ request_id: randomUUID(), prompt, custom_style: customStyle }),
      });

    const expectAll4xx = (family: string, probes: [string, Answer][]) =>
      expect4xxWithCode(results, postgres ? "PostgreSQL" : "PGlite", family, probes);

    it.skipIf(skip)(
      "answers every bad style 4xx with a code and stores none of them",
      async () => {
        const probes: [string, Answer][] = [
          ["no token", await upsert(JSON.stringify(style()), null)],
          ["not JSON", await upsert("{name:")],
          ["deep object", await upsert(`{"id":"${randomUUID()}","name":${deepObject(20_000)}}`)],
          ["7 MB body", await upsert(hugeJson(7 * 1024 * 1024, style(), "preview"))],
          ["id not a uuid", await upsert(JSON.stringify(style({ id: "s1" })))],
          ["empty name", await upsert(JSON.stringify(style({ name: "" })))],
          ["name of 41", await upsert(JSON.stringify(style({ name: "n".repeat(41) })))],
          ["words of 201", await upsert(JSON.stringify(style({ prompt: "w".repeat(201) })))],
          ["negative of 201", await upsert(JSON.stringify(style({ negative_prompt: "x".repeat(201) })))],
          ["unknown quality", await upsert(JSON.stringify(style({ quality: "max" })))],
          ["unknown base style", await upsert(JSON.stringify(style({ base_style: "../anime" })))],
          ["script preview", await upsert(JSON.stringify(style({ preview: "javascript:alert(1)" })))],
          ["svg preview", await upsert(JSON.stringify(style({ preview: "data:image/svg+xml;base64,PHN2Zz4=" })))],
          [
            "preview over the limit",
            await upsert(JSON.stringify(style({ preview: `data:image/jpeg;base64,${"A".repeat(150_000)}` }))),
          ],
          ["created_at set", await upsert(JSON.stringify(style({ created_at: "2000-01-01T00:00:00Z" })))],
          ["in the stranger's name", await upsert(JSON.stringify(style({ user_id: stranger.id })))],
          ["below premium", await upsert(JSON.stringify(style()), stranger.session.access_token)],
          ["name nul", await upsert(jsonWith(style(), { name: HOSTILE_TEXT.nul }))],
          ["words lone surrogate", await upsert(jsonWith(style(), { prompt: HOSTILE_TEXT["lone high surrogate"] }))],
        ];
        expectAll4xx("custom_styles", probes);
        const { data } = await server.from("custom_styles").select("id").in("user_id", [owner.id, stranger.id]);
        expect(data).toEqual([]);
        // A well-formed style is stored, and the same upsert sent again (the outbox's resend, a rename) is taken.
        const good = style({ user_id: owner.id });
        expect((await upsert(JSON.stringify(good))).cls).toBe("2xx");
        expect((await upsert(JSON.stringify({ ...good, name: "Renamed" }))).cls).toBe("2xx");
        const { data: kept } = await server.from("custom_styles").select("name").eq("id", good.id);
        expect(kept).toEqual([{ name: "Renamed" }]);
        // As the app's outbox sends it (supabase-js upsert on id, with a preview and the base style).
        const sent = {
          ...style({ user_id: owner.id, base_style: "anime" }),
          // A preview the size of a real one: a row too large for one NOTIFY of the local realtime.
          preview: `data:image/jpeg;base64,/9j/${"A".repeat(40_000)}`,
        };
        for (const name of ["App", "App renamed"]) {
          const { error } = await owner.client.from("custom_styles").upsert({ ...sent, name }, { onConflict: "id" });
          expect(error).toBeNull();
        }
      },
      120_000,
    );

    it.skipIf(skip)(
      "answers every bad custom_style of generate-image 4xx with a code, and draws one well-formed style",
      async () => {
        const good = { id: randomUUID(), name: "Moody film", prompt: "35mm film", negative_prompt: "text" };
        const probes: [string, Answer][] = [
          ["a string", await generate("Moody film")],
          ["an array", await generate([good])],
          ["id not a uuid", await generate({ ...good, id: "s1" })],
          ["id an object", await generate({ ...good, id: { $ne: null } })],
          ["name missing", await generate({ ...good, name: undefined })],
          ["words a number", await generate({ ...good, prompt: 7 })],
          ["words of 201", await generate({ ...good, prompt: "w".repeat(201) })],
          ["prompt past 500 with the words", await generate(good, "a".repeat(495))],
        ];
        // Text no database should store (the RTL override and zero-width text are words a person may mean).
        for (const [name, text] of Object.entries(HOSTILE_TEXT)) {
          if (name === "RTL override" || name === "zero-width") continue;
          const body = `{"request_id":"${randomUUID()}","prompt":"a fox","custom_style":${jsonWith({ id: good.id, name: "n" }, { prompt: text })}}`;
          probes.push([
            `words ${name}`,
            await send(b, GENERATE, { method: "POST", headers: authHeaders(b, owner.session.access_token), body }),
          ]);
        }
        expectAll4xx("generate-image custom_style", probes);
        const { data, error } = await owner.client.functions.invoke("generate-image", {
          body: { request_id: randomUUID(), prompt: "a lighthouse", seed: 3, custom_style: good },
        });
        expect(error).toBeNull();
        expect(data.generation).toMatchObject({
          prompt: "a lighthouse, 35mm film",
          negative_prompt: "text",
          custom_style_id: good.id,
          custom_style_name: "Moody film",
        });
      },
      180_000,
    );
  },
);
