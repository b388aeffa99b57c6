// keep-upscale (decision 158) on the local backend, as a hostile client would call it, on PGlite and
// PostgreSQL: junk and truncated bodies, missing or wrong fields, a file that is not what it says, a file
// of the wrong size, another person's original, an oversized body. Each is answered 4xx with a code, never
// 5xx, a hang or a dropped connection, and keeps nothing; a well-formed keep is stored linked, charged to no
// quota, answered the same when resent, and its file is readable by its owner (another device).
import { randomUUID } from "node:crypto";
import { afterAll, expect, it } from "vitest";
import { castFor, describeOnBackends } from "../support/backend-suite.ts";
import { BUILTIN_ONLY } from "../support/backend.ts";
import { authHeaders, BAD, HOSTILE_TEXT, type ProbeResult, report, send } from "../support/hostile.ts";
import { png } from "../support/png.ts";

const KEEP = "/functions/v1/keep-upscale";
const results: ProbeResult[] = [];

afterAll(() => {
  if (results.length) console.log(`\nkeep-upscale: hostile answers by class\n${report(results)}\n`);
});

type Fields = Record<string, string | Blob | undefined>;

const form = (fields: Fields) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) f.append(k, v);
  return f;
};
const blob = (bytes: Uint8Array, type: string) => new Blob([bytes as Uint8Array<ArrayBuffer>], { type });

describeOnBackends("keep-upscale on $title", { prefix: "pc_hostile_keep", env: BUILTIN_ONLY }, (b, ctx) => {
  const { owner, stranger, server } = castFor(b);
  const make = async (who: typeof owner) => {
    const { data, error } = await who.client.functions.invoke("generate-image", {
      body: { request_id: randomUUID(), prompt: "a lighthouse in fog", seed: 9 },
    });
    expect(error).toBeNull();
    return data.generation as { id: string; width: number; height: number; image_path: string };
  };
  const keep = (body: BodyInit, json = false) =>
    send(b, KEEP, { method: "POST", headers: authHeaders(b, owner.session.access_token, json), body });

  it.skipIf(ctx.skip)(
    "answers every bad keep 4xx with a code and keeps nothing; a good one is linked, uncharged and replayable",
    async () => {
      const original = await make(owner);
      const theirs = await make(stranger);
      const twice = blob(png(original.width * 2, original.height * 2), "image/png");
      const good = { id: randomUUID(), original_id: original.id, scale: "2", image: twice };
      const probes: [string, BodyInit, boolean?][] = [
        ["a JSON body", JSON.stringify({ ...good, image: "data:image/png;base64,AAAA" }), true],
        ["an empty body", ""],
        ["junk bytes", blob(new Uint8Array(4096).fill(0xab), "application/octet-stream")],
        ["id not a uuid", form({ ...good, id: "../../etc/passwd" })],
        ["scale 3", form({ ...good, scale: "3" })],
        ["no image", form({ ...good, image: undefined })],
        ["image a text field", form({ ...good, image: "iVBORw0KGgo=" })],
        ["a PNG stated as WebP", form({ ...good, image: blob(png(8, 8), "image/webp") })],
        [
          "a truncated PNG",
          form({ ...good, image: blob(png(original.width * 2, original.height * 2).slice(0, 20), "image/png") }),
        ],
        [
          "one pixel short",
          form({ ...good, image: blob(png(original.width * 2 - 1, original.height * 2), "image/png") }),
        ],
        ["2× sent as 4×", form({ ...good, scale: "4" })],
        ["another person's original", form({ ...good, original_id: theirs.id })],
        ["an original that does not exist", form({ ...good, original_id: randomUUID() })],
        ["the original's own id", form({ ...good, id: original.id })],
        ["oversized", form({ ...good, image: blob(new Uint8Array(21 * 1024 * 1024), "image/webp") })],
        ...Object.entries(HOSTILE_TEXT).map(([name, text]): [string, BodyInit] => [
          `scale ${name}`,
          form({ ...good, scale: text }),
        ]),
      ];
      for (const [probe, body, json] of probes) {
        const answer = await keep(body, json);
        results.push({ database: ctx.postgres ? "PostgreSQL" : "PGlite", family: "keep-upscale", probe, answer });
        expect(BAD.has(answer.cls) || answer.cls !== "4xx", `${probe}: ${answer.status} ${answer.detail}`).toBe(false);
        expect(JSON.parse(answer.detail).error?.code, probe).toBe("invalid_input");
      }
      const { data: kept } = await server.from("generations").select("id").eq("parent_id", original.id);
      expect(kept).toEqual([]);

      const first = await keep(form(good));
      expect(first.status, first.detail).toBe(200);
      const again = await keep(form(good));
      expect(again.status).toBe(200);
      const { data: rows } = await server.from("generations").select("*").eq("parent_id", original.id);
      expect(rows).toHaveLength(1);
      expect(rows![0]).toMatchObject({
        id: good.id,
        variation: "upscale-2x",
        width: original.width * 2,
        is_public: false,
        image_path: `${owner.id}/${good.id}.png`,
      });
      const { data: limits } = await server
        .from("user_daily_limits")
        .select("generations_today")
        .eq("user_id", owner.id);
      expect(limits).toEqual([{ generations_today: 1 }]);
      const { data: file, error } = await owner.client.storage.from("generations").download(rows![0].image_path);
      expect(error).toBeNull();
      expect(file!.size).toBe(twice.size);
    },
    240_000,
  );
});
