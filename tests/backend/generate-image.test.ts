// generate-image through the real local backend with supabase-js, as the app calls it: the built-in
// engine draws, Storage keeps the PNG in the owner's folder, the row is readable by its owner only, a
// replay is free, and the quota holds under twenty parallel requests. On PGlite and on real Postgres.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FunctionsHttpError, type SupabaseClient } from "@supabase/supabase-js";
import { randomUUID } from "node:crypto";
import { BUILTIN_ONLY, type Backend } from "../support/backend.ts";
import { startBackendOn } from "../support/backend-targets.ts";
import { newUser } from "../support/clients.ts";
import { ADMIN_URL, postgresAvailable } from "../support/postgres.ts";

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function body(overrides: Record<string, unknown> = {}) {
  return {
    request_id: randomUUID(),
    prompt: "a lighthouse on a cliff at dusk",
    negative_prompt: "",
    style: "watercolor",
    quality: "standard",
    aspect_ratio: "1:1",
    seed: 7,
    ...overrides,
  };
}

async function errorBody(error: unknown): Promise<{ status: number; error: Record<string, unknown> }> {
  expect(error).toBeInstanceOf(FunctionsHttpError);
  const res = (error as FunctionsHttpError).context as Response;
  return { status: res.status, ...(await res.json()) };
}

async function bytesOf(blob: Blob): Promise<number[]> {
  return [...new Uint8Array(await blob.arrayBuffer())];
}

function generateImageSuite(database: "pglite" | "postgres") {
  let backend: Backend;

  beforeAll(async () => {
    backend = await startBackendOn(database === "postgres", "pc_generate", BUILTIN_ONLY);
    expect(backend.database).toBe(database);
  });

  afterAll(async () => {
    await backend?.stop();
  });

  describe("with the built-in engine", () => {
    let owner: { client: SupabaseClient; id: string };
    let generation: Record<string, unknown> & { id: string; image_path: string; image_url: string };
    let sent: ReturnType<typeof body>;

    beforeAll(async () => {
      owner = await newUser(backend, "owner");
      sent = body();
      const { data, error } = await owner.client.functions.invoke("generate-image", { body: sent });
      expect(error).toBeNull();
      generation = data.generation;
      expect(data.quota).toMatchObject({ remaining: 4, daily_limit: 5 });
      expect(Date.parse(data.quota.reset_at)).toBeGreaterThan(Date.now());
    });

    it("stores a row whose id is the request id, labelled as the procedural engine", () => {
      expect(generation).toMatchObject({
        id: sent.request_id,
        user_id: owner.id,
        prompt: sent.prompt,
        style: "watercolor",
        quality: "standard",
        aspect_ratio: "1:1",
        width: 1024,
        height: 1024,
        seed: 7,
        provider: "builtin",
        model: "builtin-procedural-v1",
        image_path: `${owner.id}/${sent.request_id}.png`,
        is_public: false,
      });
    });

    it("stores a PNG the owner can download through Storage and through the returned image_url", async () => {
      const { data: blob, error } = await owner.client.storage.from("generations").download(generation.image_path);
      expect(error).toBeNull();
      const stored = await bytesOf(blob!);
      expect(stored.slice(0, 8)).toEqual(PNG_SIGNATURE);
      const res = await fetch(generation.image_url);
      expect(res.status).toBe(200);
      expect(await bytesOf(await res.blob())).toEqual(stored);
      const { data: rows } = await owner.client.from("generations").select("id").eq("id", generation.id);
      expect(rows).toEqual([{ id: generation.id }]);
    });

    it("keeps the image and the row from a stranger", async () => {
      const stranger = await newUser(backend, "stranger");
      const { data, error } = await stranger.client.storage.from("generations").download(generation.image_path);
      expect(data).toBeNull();
      // Storage answers "not found" rather than "forbidden", so a stranger cannot even learn the object exists.
      expect(error).toMatchObject({ status: 400, statusCode: "404", message: "Object not found" });
      const { data: rows } = await stranger.client.from("generations").select("id").eq("id", generation.id);
      expect(rows).toEqual([]);
    });

    it("returns the same row for a repeated request id and charges nothing", async () => {
      const { data, error } = await owner.client.functions.invoke("generate-image", { body: sent });
      expect(error).toBeNull();
      expect(data.replayed).toBe(true);
      const { image_url: _a, ...again } = data.generation;
      const { image_url: _b, ...first } = generation;
      expect(again).toEqual(first);
      expect(data.quota.remaining).toBe(4);
      const { data: limits } = await owner.client.rpc("get_my_limits");
      expect(limits).toMatchObject({ generations_today: 1, remaining: 4 });
    });

    it("streams drawn before the answer to a caller that asks for events, through the gateway unbuffered", async () => {
      const request = body({ seed: 11 });
      const { data, error } = await owner.client.functions.invoke("generate-image", {
        body: request,
        headers: { Accept: "text/event-stream" },
      });
      expect(error).toBeNull();
      // supabase-js hands an event stream over unread.
      expect(data).toBeInstanceOf(Response);
      const reader = (data as Response).body!.pipeThrough(new TextDecoderStream()).getReader();
      const heard: { name: string; data: string; at: number }[] = [];
      let text = "";
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += value;
        let end: number;
        while ((end = text.indexOf("\n\n")) >= 0) {
          const block = text.slice(0, end);
          text = text.slice(end + 2);
          heard.push({
            name: /^event: (.*)$/m.exec(block)?.[1] ?? "",
            data: /^data: (.*)$/m.exec(block)?.[1] ?? "",
            at: performance.now(),
          });
        }
      }
      expect(heard.map((e) => e.name)).toEqual(["drawn", "timing", "answer"]);
      // The answer came after the image was stored and recorded: drawn was not held back until then.
      expect(heard[2].at).toBeGreaterThan(heard[0].at);
      const answer = JSON.parse(heard[2].data);
      expect(answer.generation).toMatchObject({ id: request.request_id, seed: 11, provider: "builtin" });
      expect(answer.replayed).toBe(false);
      const { data: rows } = await owner.client.from("generations").select("id").eq("id", request.request_id);
      expect(rows).toHaveLength(1);
    });

    it("answers invalid input with the spec's message in the error body", async () => {
      const { data, error } = await owner.client.functions.invoke("generate-image", { body: body({ prompt: "   " }) });
      expect(data).toBeNull();
      expect(await errorBody(error)).toEqual({
        status: 400,
        error: { code: "invalid_input", message: "Please enter a prompt", retryable: false },
      });
    });
  });

  it("gives exactly five images, five rows, five objects and fifteen daily_limit answers to twenty parallel requests", async () => {
    const { client, id } = await newUser(backend, "burst");
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        client.functions.invoke("generate-image", { body: body({ style: "pixel-art" }) }),
      ),
    );
    const succeeded = results.filter((r) => r.error === null);
    const refused = await Promise.all(results.filter((r) => r.error !== null).map((r) => errorBody(r.error)));
    expect(succeeded).toHaveLength(5);
    expect(refused).toHaveLength(15);
    for (const r of refused) {
      expect(r.status).toBe(429);
      expect(r.error.code).toBe("daily_limit");
      expect(r.error.retry_after).toBeGreaterThan(0);
    }
    const { data: rows } = await client.from("generations").select("id").eq("user_id", id);
    expect(rows).toHaveLength(5);
    const { data: objects } = await client.storage.from("generations").list(id);
    expect(objects?.filter((o) => o.name.endsWith(".png"))).toHaveLength(5);
    const { data: limits } = await client.rpc("get_my_limits");
    expect(limits).toMatchObject({ generations_today: 5, remaining: 0 });
  }, 120_000);
}

describe("generate-image on PGlite", () => generateImageSuite("pglite"));

const postgres = await postgresAvailable();
describe.skipIf(!postgres)(
  `generate-image on real PostgreSQL${postgres ? "" : ` (skipped: no PostgreSQL answers at ${ADMIN_URL})`}`,
  () => generateImageSuite("postgres"),
);
