// keep-upscale through handler(req, deps) with the fake data layer (tests/functions/fakes/fake-store.ts): an
// upscaled file of the caller's own original is stored in their folder and recorded with the original's
// recipe at the new size, private, linked as 'upscale-2x' | 'upscale-4x', charged to no quota; a resend
// answers the same row; another person's or a missing original is the same 404; a file that is not what it
// says, or not exactly the original's size times the scale, or too large, is refused (4xx) and nothing is kept.
import assert from "node:assert/strict";
import { type Deps, handler, MESSAGES } from "../../../supabase/functions/keep-upscale/handler.ts";
import { UPSCALE_MAX_BYTES } from "../../../supabase/functions/keep-upscale/image-check.ts";
import type { GenerationRow } from "../../../supabase/functions/_shared/vocabulary/rows.ts";
import { FakeDb, FakeStore } from "../fakes/fake-store.ts";
import { solidPng } from "../fakes/fake-server.ts";

const fixture = (name: string) => Deno.readFileSync(new URL(`../fixtures/${name}`, import.meta.url));
/** Chromium's own 12 × 8 WebP (tests/functions/fixtures). */
const WEBP_12x8 = fixture("chromium-halves.webp");

function setup() {
  const db = new FakeDb();
  const logs: string[] = [];
  const deps: Deps = { store: new FakeStore(db), log: (event) => logs.push(event) };
  const owner = db.addUser();
  return { db, deps, owner, logs };
}

function addOriginal(db: FakeDb, userId: string, width: number, height: number): GenerationRow {
  const id = crypto.randomUUID();
  const row: GenerationRow = {
    id,
    user_id: userId,
    prompt: "a lighthouse in fog",
    negative_prompt: "people",
    style: "anime",
    quality: "high",
    aspect_ratio: "1:1",
    width,
    height,
    seed: 42,
    provider: "builtin",
    model: "builtin-procedural",
    image_path: `${userId}/${id}.png`,
    is_public: false,
    is_saved: true,
    created_at: new Date().toISOString(),
  };
  db.rows.set(id, row);
  return row;
}

type Fields = { id?: string; original_id?: string; scale?: string; image?: Blob | string };

function keepRequest(jwt: string | null, fields: Fields): Request {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) form.append(k, v);
  return new Request("http://local/functions/v1/keep-upscale", {
    method: "POST",
    headers: jwt ? { authorization: `Bearer ${jwt}` } : {},
    body: form,
  });
}

const file = (bytes: Uint8Array, type: string) => new Blob([bytes as Uint8Array<ArrayBuffer>], { type });

Deno.test("an upscale of one's own image is stored and recorded with its recipe, linked, private and uncharged", async () => {
  const { db, deps, owner } = setup();
  const original = addOriginal(db, owner.id, 6, 4);
  const id = crypto.randomUUID();
  const res = await handler(
    keepRequest(owner.jwt, { id, original_id: original.id, scale: "2", image: file(WEBP_12x8, "image/webp") }),
    deps,
  );
  assert.equal(res.status, 200, await res.clone().text());
  const { generation } = await res.json();
  assert.equal(generation.id, id);
  assert.equal(generation.image_path, `${owner.id}/${id}.webp`);
  assert.deepEqual([generation.width, generation.height], [12, 8]);
  assert.deepEqual([generation.parent_id, generation.variation, generation.is_public], [
    original.id,
    "upscale-2x",
    false,
  ]);
  for (
    const k of ["prompt", "negative_prompt", "style", "quality", "aspect_ratio", "seed", "provider", "model"] as const
  ) {
    assert.equal(generation[k], original[k], k);
  }
  assert.deepEqual(db.objects.get(generation.image_path), { bytes: WEBP_12x8, contentType: "image/webp" });
  assert.equal(db.quota(owner.id).remaining, 5, "a kept upscale counts against no quota");

  const again = await handler(
    keepRequest(owner.jwt, { id, original_id: original.id, scale: "2", image: file(WEBP_12x8, "image/webp") }),
    deps,
  );
  assert.equal(again.status, 200);
  assert.deepEqual((await again.json()).generation, generation, "a resend answers the same row");
  assert.equal([...db.rows.values()].filter((r) => r.parent_id === original.id).length, 1);
});

Deno.test("4× of a PNG is kept as PNG; the kind names the scale", async () => {
  const { db, deps, owner } = setup();
  const original = addOriginal(db, owner.id, 5, 3);
  const res = await handler(
    keepRequest(owner.jwt, {
      id: crypto.randomUUID(),
      original_id: original.id,
      scale: "4",
      image: file(solidPng(20, 12), "image/png"),
    }),
    deps,
  );
  assert.equal(res.status, 200, await res.clone().text());
  const { generation } = await res.json();
  assert.equal(generation.variation, "upscale-4x");
  assert.match(generation.image_path, /\.png$/);
});

Deno.test("another person's original, or a missing one, is the same 404, and nothing is stored", async () => {
  const { db, deps, owner } = setup();
  const stranger = db.addUser();
  const theirs = addOriginal(db, stranger.id, 6, 4);
  for (const originalId of [theirs.id, crypto.randomUUID()]) {
    const res = await handler(
      keepRequest(owner.jwt, {
        id: crypto.randomUUID(),
        original_id: originalId,
        scale: "2",
        image: file(WEBP_12x8, "image/webp"),
      }),
      deps,
    );
    assert.equal(res.status, 404);
    assert.deepEqual(await res.json(), {
      error: { code: "invalid_input", message: MESSAGES.original, retryable: false },
    });
  }
  assert.equal(db.objects.size, 0);
});

Deno.test("a file that is not the stated format, is damaged, or is not exactly the size times the scale is refused", async () => {
  const { db, deps, owner } = setup();
  const original = addOriginal(db, owner.id, 6, 4);
  const cut = WEBP_12x8.slice(0, WEBP_12x8.length - 40);
  const cases: [Blob, string, number][] = [
    [file(WEBP_12x8, "image/png"), "2", 400], // a WebP stated as PNG
    [file(new TextEncoder().encode("<svg xmlns='http://www.w3.org/2000/svg'/>"), "image/webp"), "2", 400],
    [file(cut, "image/webp"), "2", 400], // its RIFF length is not the file's
    [file(WEBP_12x8, "image/webp"), "4", 422], // 12 × 8 is 2×, not 4×
    [file(solidPng(13, 8), "image/png"), "2", 422],
    [file(solidPng(12, 8), "image/gif"), "2", 400], // a type that is not kept
  ];
  for (const [image, scale, status] of cases) {
    const res = await handler(
      keepRequest(owner.jwt, { id: crypto.randomUUID(), original_id: original.id, scale, image }),
      deps,
    );
    assert.equal(res.status, status, await res.clone().text());
    assert.equal((await res.json()).error.code, "invalid_input");
  }
  assert.equal(db.objects.size, 0);
  assert.equal(db.rows.size, 1);
});

Deno.test("malformed requests are 400s, a missing session 401, an oversized body 413, before anything is read", async () => {
  const { db, deps, owner } = setup();
  const original = addOriginal(db, owner.id, 6, 4);
  const good = { id: crypto.randomUUID(), original_id: original.id, scale: "2", image: file(WEBP_12x8, "image/webp") };
  const shapes: Fields[] = [
    { ...good, id: "not-a-uuid" },
    { ...good, original_id: undefined },
    { ...good, scale: "3" },
    { ...good, image: "text, not a file" },
    { ...good, id: original.id },
  ];
  for (const fields of shapes) {
    const res = await handler(keepRequest(owner.jwt, fields), deps);
    assert.equal(res.status, 400);
    assert.equal((await res.json()).error.message, MESSAGES.shape);
  }
  const json = new Request("http://local/", {
    method: "POST",
    headers: { authorization: `Bearer ${owner.jwt}` },
    body: "{}",
  });
  assert.equal((await handler(json, deps)).status, 400);
  assert.equal((await handler(keepRequest(null, good), deps)).status, 401);
  assert.equal((await handler(keepRequest("jwt-nobody", good), deps)).status, 401);
  const huge = file(new Uint8Array(UPSCALE_MAX_BYTES + 64 * 1024), "image/webp");
  assert.equal((await handler(keepRequest(owner.jwt, { ...good, image: huge }), deps)).status, 413);
  assert.equal(db.objects.size, 0);
});

Deno.test("an id held by another image is a 409; one the person deleted meanwhile is a 410 and its file goes", async () => {
  const { db, deps, owner } = setup();
  const original = addOriginal(db, owner.id, 6, 4);
  const other = addOriginal(db, owner.id, 6, 4);
  const image = file(WEBP_12x8, "image/webp");
  const taken = await handler(
    keepRequest(owner.jwt, { id: other.id, original_id: original.id, scale: "2", image }),
    deps,
  );
  assert.equal(taken.status, 409);
  const deleted = crypto.randomUUID();
  db.tombstones.set(deleted, owner.id);
  const gone = await handler(
    keepRequest(owner.jwt, { id: deleted, original_id: original.id, scale: "2", image }),
    deps,
  );
  assert.equal(gone.status, 410);
  assert.equal(db.objects.size, 0);
});
