// publish-generation on the local backend, as a hostile client would call it, on PGlite and PostgreSQL:
// bodies that are not what it takes (deep, huge, not JSON, wrong types, hostile text for the id), forged
// and missing tokens, someone else's row, a deleted row, and a burst of the same publish; every one is
// answered 4xx with a code, never 5xx, a hang or a dropped connection. Then the path end to end: an
// image the built-in engine drew is scored in the render pool and published; a row whose kept scores are
// explicit is flagged and stays private; a suspended owner is refused 403 with the suspension's end.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { main as operatorCommand } from "../../scripts/operator.mjs";
import { describeOnBackends, people } from "../support/backend-suite.ts";
import { BUILTIN_ONLY } from "../support/backend.ts";
import { newUser, type NewUser, serviceClient } from "../support/clients.ts";
import {
  type Answer,
  authHeaders,
  BAD,
  claimsFor,
  deepArray,
  deepObject,
  gzip,
  HOSTILE_TEXT,
  hugeJson,
  jsonWith,
  mintJwt,
  type ProbeResult,
  report,
  send,
} from "../support/hostile.ts";

const PATH = "/functions/v1/publish-generation";
const results: ProbeResult[] = [];

afterAll(() => {
  if (results.length) console.log(`\npublish-generation: hostile answers by class\n${report(results)}\n`);
});

describeOnBackends(
  "publish-generation on $title",
  { prefix: "pc_hostile_publish", env: BUILTIN_ONLY },
  (b, { postgres, skip }) => {
    const [owner, stranger] = people(b, "publisher", "stranger");
    let token: string;
    let made: { id: string; image_path: string };

    beforeAll(async () => {
      if (skip) return;
      token = owner.session.access_token;
      const { data, error } = await owner.client.functions.invoke("generate-image", {
        body: { request_id: randomUUID(), prompt: "a lighthouse above a calm sea", style: "watercolor", seed: 5 },
      });
      if (error) throw error;
      made = data.generation;
    }, 120_000);

    const post = (
      body: string | Uint8Array<ArrayBuffer>,
      t: string | null = token,
      headers: Record<string, string> = {},
    ) => send(b, PATH, { method: "POST", headers: { ...authHeaders(b, t), ...headers }, body });

    it.skipIf(skip)(
      "answers every bad request 4xx with a code, none 5xx, and publishes nothing",
      async () => {
        const deleted = randomUUID();
        const strangers = await stranger.client.functions.invoke("generate-image", {
          body: { request_id: randomUUID(), prompt: "a pear on a plate", seed: 2 },
        });
        const theirs = strangers.data.generation.id as string;
        await owner.client.functions.invoke("generate-image", {
          body: { request_id: deleted, prompt: "a plum", seed: 1 },
        });
        await owner.client.functions.invoke("delete-generation", { body: { generation_id: deleted } });
        const probes: [string, () => Promise<Answer | Answer[]>][] = [
          ["no token", () => post(JSON.stringify({ generation_id: made.id }), null)],
          ["token of another secret", () => post("{}", mintJwt(claimsFor(owner.id), "not-the-secret"))],
          ["unsigned token", () => post("{}", mintJwt(claimsFor(owner.id), null, "none"))],
          ["empty body", () => post("")],
          ["not JSON", () => post("{generation_id:")],
          ["an array", () => post("[]")],
          ["null", () => post("null")],
          ["missing id", () => post("{}")],
          ["id a number", () => post('{"generation_id":7}')],
          ["id not a uuid", () => post('{"generation_id":"g1"}')],
          ["id an object", () => post('{"generation_id":{"$ne":null}}')],
          ["id sql", () => post(JSON.stringify({ generation_id: "' or 1=1 --" }))],
          ...Object.entries(HOSTILE_TEXT).map(([name, text]): [string, () => Promise<Answer>] => [
            `id ${name}`,
            () => post(jsonWith({}, { generation_id: text })),
          ]),
          [
            "deep array",
            () => post(JSON.stringify({ generation_id: made.id }).replace("}", `,"x":${deepArray(20_000)}}`)),
          ],
          ["deep object", () => post(`{"generation_id":"${made.id}","x":${deepObject(20_000)}}`)],
          ["7 MB body", () => post(hugeJson(7 * 1024 * 1024, { generation_id: made.id }))],
          [
            "gzip body",
            () => post(gzip(JSON.stringify({ generation_id: made.id })), token, { "content-encoding": "gzip" }),
          ],
          [
            "form body",
            () => post(`generation_id=${made.id}`, token, { "content-type": "application/x-www-form-urlencoded" }),
          ],
          ["a stranger's row", () => post(JSON.stringify({ generation_id: theirs }))],
          [
            "the owner's row, as the stranger",
            async () => post(JSON.stringify({ generation_id: made.id }), await tokenOf(stranger)),
          ],
          ["a deleted row", () => post(JSON.stringify({ generation_id: deleted }))],
          ["a row that never was", () => post(JSON.stringify({ generation_id: randomUUID() }))],
          ["GET", () => send(b, PATH, { headers: authHeaders(b, token) })],
        ];
        for (const [probe, run] of probes) {
          for (const answer of [await run()].flat()) {
            results.push({ database: postgres ? "PostgreSQL" : "PGlite", family: "publish-generation", probe, answer });
            expect(BAD.has(answer.cls), `${probe}: ${answer.status} ${answer.detail}`).toBe(false);
            expect(answer.cls, `${probe}: ${answer.status} ${answer.detail}`).toBe("4xx");
            // The gateway's refusals carry their own code; the function's carry { error: { code } }.
            const body = JSON.parse(answer.detail || "{}");
            expect(body.error?.code ?? body.code, probe).toBeTruthy();
          }
        }
        const { data } = await serviceClient(b).from("generations").select("id,is_public").in("id", [made.id, theirs]);
        expect(data?.every((r) => r.is_public === false)).toBe(true);
      },
      120_000,
    );

    it.skipIf(skip)(
      "scores a drawn image in the render pool and publishes it; 20 publishes at once all succeed",
      async () => {
        const burst = await Promise.all(
          Array.from({ length: 20 }, () => post(JSON.stringify({ generation_id: made.id }))),
        );
        expect(burst.map((a) => a.status)).toEqual(Array(20).fill(200));
        const answer = JSON.parse(burst[0].detail);
        expect(answer.scores.Porn + answer.scores.Hentai).toBeLessThan(0.5);
        const { data } = await serviceClient(b)
          .from("generations")
          .select("is_public,moderation_scores,flagged_at")
          .eq("id", made.id)
          .single();
        expect(data).toMatchObject({ is_public: true, flagged_at: null });
        expect(Object.keys(data!.moderation_scores).sort()).toEqual(["Drawing", "Hentai", "Neutral", "Porn", "Sexy"]);
      },
      120_000,
    );

    it.skipIf(skip)(
      "a row whose kept scores are explicit is flagged and stays private; the answer says why",
      async () => {
        const { data: gen } = await owner.client.functions.invoke("generate-image", {
          body: { request_id: randomUUID(), prompt: "a field of poppies", seed: 9 },
        });
        const explicit = { Drawing: 0.02, Hentai: 0.08, Neutral: 0.05, Porn: 0.8, Sexy: 0.05 };
        const server = serviceClient(b);
        await server.from("generations").update({ moderation_scores: explicit }).eq("id", gen.generation.id);
        const refused = await post(JSON.stringify({ generation_id: gen.generation.id }));
        expect(refused.status).toBe(422);
        expect(JSON.parse(refused.detail).error.code).toBe("nsfw_content");
        const { data } = await server
          .from("generations")
          .select("is_public,flagged_at")
          .eq("id", gen.generation.id)
          .single();
        expect(data!.is_public).toBe(false);
        expect(data!.flagged_at).not.toBeNull();
      },
      60_000,
    );

    it.skipIf(skip)(
      "a suspended owner is refused 403 publishing_suspended with the end",
      async () => {
        // An operator, made with the documented command, suspends the owner over another of their images.
        const operator = await newUser(b, "operator");
        const granted = await operatorCommand(["grant", operator.email], {
          env: { SUPABASE_URL: b.url, SUPABASE_SERVICE_ROLE_KEY: b.serviceRoleKey },
          out: () => {},
          err: () => {},
        });
        expect(granted).toBe(0);
        await operator.client.auth.signInWithPassword({ email: operator.email, password: operator.password });
        const { data: other } = await owner.client.functions.invoke("generate-image", {
          body: { request_id: randomUUID(), prompt: "a red kite", seed: 4 },
        });
        const until = new Date(Date.now() + 86_400_000).toISOString();
        const { error } = await operator.client.rpc("moderate_generation", {
          p_generation_id: other.generation.id,
          p_action: "suspend",
          p_reason: "repeated explicit images",
          p_suspend_until: until,
        });
        expect(error).toBeNull();
        const refused = await fetch(`${b.url}${PATH}`, {
          method: "POST",
          headers: authHeaders(b, token),
          body: JSON.stringify({ generation_id: made.id }),
        });
        expect(refused.status).toBe(403);
        const body = ((await refused.json()) as { error: { code: string; until: string } }).error;
        expect(body.code).toBe("publishing_suspended");
        expect(Date.parse(body.until)).toBe(Date.parse(until));
      },
      60_000,
    );
  },
);

async function tokenOf(user: NewUser): Promise<string> {
  return (await user.client.auth.getSession()).data.session!.access_token;
}
