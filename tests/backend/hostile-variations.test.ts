// Variations (decision 155) on the local backend, as a hostile client would send them, on PGlite and
// PostgreSQL: generate-image's `variation` field in wrong shapes, with hostile text, naming another person's
// image or one that does not exist, or the request's own id. Each is answered 4xx with a code, never 5xx, a
// hang or a dropped connection, and costs nothing; a well-formed variation is stored linked to its parent.
import { randomUUID } from "node:crypto";
import { afterAll, expect, it } from "vitest";
import { castFor, describeOnBackends } from "../support/backend-suite.ts";
import { BUILTIN_ONLY } from "../support/backend.ts";
import {
  authHeaders,
  BAD,
  deepObject,
  HOSTILE_TEXT,
  jsonText,
  type ProbeResult,
  report,
  send,
} from "../support/hostile.ts";

const GENERATE = "/functions/v1/generate-image";
const results: ProbeResult[] = [];

afterAll(() => {
  if (results.length) console.log(`\nvariations: hostile answers by class\n${report(results)}\n`);
});

describeOnBackends("variations on $title", { prefix: "pc_hostile_variations", env: BUILTIN_ONLY }, (b, ctx) => {
  const { owner, stranger, server } = castFor(b);
  const make = async (who: typeof owner, body: Record<string, unknown> = {}) => {
    const { data, error } = await who.client.functions.invoke("generate-image", {
      body: { request_id: randomUUID(), prompt: "a harbour at noon", seed: 5, ...body },
    });
    expect(error).toBeNull();
    return data.generation as { id: string; parent_id: string | null; variation: string | null };
  };
  const raw = (variation: string, id: string = randomUUID()) =>
    send(b, GENERATE, {
      method: "POST",
      headers: authHeaders(b, owner.session.access_token),
      body: `{"request_id":"${id}","prompt":"a fox","variation":${variation}}`,
    });

  it.skipIf(ctx.skip)(
    "answers every bad variation 4xx with a code, charges nothing, and links a well-formed one",
    async () => {
      const parent = await make(owner);
      const theirs = await make(stranger);
      const ownId = randomUUID();
      const v = (parentId: unknown, kind: unknown = "subtle") => JSON.stringify({ parent_id: parentId, kind });
      const probes: [string, string, string?][] = [
        ["a string", '"subtle"'],
        ["an array", `[${v(parent.id)}]`],
        ["kind missing", JSON.stringify({ parent_id: parent.id })],
        ["kind unknown", v(parent.id, "wild")],
        ["kind an object", v(parent.id, { $ne: null })],
        ["parent not a uuid", v("../" + parent.id)],
        ["parent a number", v(7)],
        ["an extra field", JSON.stringify({ parent_id: parent.id, kind: "strong", user_id: stranger.id })],
        ["deep object", `{"parent_id":${deepObject(20_000)},"kind":"subtle"}`],
        ["another person's image", v(theirs.id)],
        ["an image that does not exist", v(randomUUID())],
        ["the request's own id", v(ownId), ownId],
        ...Object.entries(HOSTILE_TEXT).map(([name, text]): [string, string] => [
          `kind ${name}`,
          `{"parent_id":"${parent.id}","kind":${jsonText(text)}}`,
        ]),
      ];
      for (const [probe, variation, id] of probes) {
        const answer = await raw(variation, id);
        results.push({ database: ctx.postgres ? "PostgreSQL" : "PGlite", family: "variation", probe, answer });
        expect(BAD.has(answer.cls) || answer.cls !== "4xx", `${probe}: ${answer.status} ${answer.detail}`).toBe(false);
        expect(JSON.parse(answer.detail).error?.code, probe).toBe("invalid_input");
      }
      const { data: limits } = await server
        .from("user_daily_limits")
        .select("generations_today")
        .eq("user_id", owner.id);
      expect(limits).toEqual([{ generations_today: 1 }]);
      const child = await make(owner, { variation: { parent_id: parent.id, kind: "strong" } });
      expect(child).toMatchObject({ parent_id: parent.id, variation: "strong" });
    },
    180_000,
  );
});
