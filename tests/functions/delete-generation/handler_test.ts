// The delete-generation handler through handler(req, deps), over an in-memory platform that keeps row-level
// security's rule (a caller reaches only their own row and their own folder) and records the order of calls.
import assert from "node:assert/strict";
import { appError, fail, ok, type Result } from "../../../supabase/functions/_shared/errors.ts";
import { type Deps, handler } from "../../../supabase/functions/delete-generation/handler.ts";
import type { GenerationRemover } from "../../../supabase/functions/delete-generation/remover.ts";

const ALICE = "00000000-0000-4000-8000-00000000000a";
const BOB = "00000000-0000-4000-8000-00000000000b";
const G1 = "10000000-0000-4000-8000-000000000001";
const G2 = "10000000-0000-4000-8000-000000000002";

class FakePlatform implements GenerationRemover {
  rows = new Map<string, { userId: string; imagePath: string }>();
  objects = new Set<string>();
  calls: string[] = [];
  /** Fails the named step once with this status. */
  failing = new Map<string, number>();

  add(userId: string, id: string) {
    const imagePath = `${userId}/${id}.png`;
    this.rows.set(id, { userId, imagePath });
    this.objects.add(imagePath);
    return imagePath;
  }

  private fault<T>(step: string): Result<T> | null {
    const status = this.failing.get(step);
    if (status === undefined) return null;
    this.failing.delete(step);
    return fail(
      status === 401 ?
        appError("auth_required") :
        appError(status < 500 ? "invalid_input" : "server_error", { status }),
    );
  }

  identify(jwt: string) {
    this.calls.push("identify");
    return Promise.resolve(
      this.fault<string>("identify") ??
        ([ALICE, BOB].includes(jwt) ? ok(jwt) : fail<string>(appError("auth_required"))),
    );
  }

  deleteRow(jwt: string, id: string) {
    this.calls.push("deleteRow");
    const f = this.fault<{ deleted: boolean; imagePath: string | null }>("deleteRow");
    if (f) return Promise.resolve(f);
    const row = this.rows.get(id);
    if (!row || row.userId !== jwt) return Promise.resolve(ok({ deleted: false, imagePath: null }));
    this.rows.delete(id);
    return Promise.resolve(ok({ deleted: true, imagePath: row.imagePath }));
  }

  removeObject(jwt: string, path: string) {
    this.calls.push("removeObject");
    const f = this.fault<boolean>("removeObject");
    if (f) return Promise.resolve(f);
    if (!path.startsWith(`${jwt}/`)) return Promise.resolve(ok(false));
    return Promise.resolve(ok(this.objects.delete(path)));
  }
}

function setup() {
  const platform = new FakePlatform();
  const logs: Record<string, unknown>[] = [];
  const deps: Deps = { remover: platform, log: (event, fields) => logs.push({ event, ...fields }) };
  const call = (jwt: string | null, body: unknown, method = "POST") =>
    handler(
      new Request("http://fn/delete-generation", {
        method,
        headers: { ...(jwt ? { Authorization: `Bearer ${jwt}` } : {}), "content-type": "application/json" },
        body: method === "POST" ? JSON.stringify(body) : undefined,
      }),
      deps,
    );
  return { platform, logs, call };
}

Deno.test("removes the row, then its image, in one request", async () => {
  const { platform, call } = setup();
  const path = platform.add(ALICE, G1);
  platform.add(ALICE, G2);
  const res = await call(ALICE, { generation_id: G1, image_path: path });
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { deleted: true, generation_id: G1, row_deleted: true, image_removed: true });
  assert.deepEqual(platform.calls, ["identify", "deleteRow", "removeObject"]);
  assert.equal(platform.rows.has(G1), false);
  assert.equal(platform.objects.has(path), false);
  assert.ok(platform.rows.has(G2));
});

Deno.test("a repeated request succeeds and removes an image its row left behind", async () => {
  const { platform, call } = setup();
  const path = platform.add(ALICE, G1);
  // A first request was cut after the row went: the image is still there.
  platform.failing.set("removeObject", 503);
  const cut = await call(ALICE, { generation_id: G1, image_path: path });
  assert.equal(cut.status, 503);
  assert.equal((await cut.json()).error.retryable, true);
  assert.equal(platform.rows.has(G1), false);
  assert.ok(platform.objects.has(path));

  const again = await call(ALICE, { generation_id: G1, image_path: path });
  assert.equal(again.status, 200);
  assert.deepEqual(await again.json(), { deleted: true, generation_id: G1, row_deleted: false, image_removed: true });
  assert.equal(platform.objects.has(path), false);

  const third = await call(ALICE, { generation_id: G1, image_path: path });
  assert.deepEqual(await third.json(), { deleted: true, generation_id: G1, row_deleted: false, image_removed: false });
});

Deno.test("touches nobody else's row or image", async () => {
  const { platform, call } = setup();
  const path = platform.add(ALICE, G1);
  const byRow = await call(BOB, { generation_id: G1 });
  assert.equal(byRow.status, 200);
  assert.equal((await byRow.json()).row_deleted, false);
  const byPath = await call(BOB, { generation_id: G1, image_path: path });
  assert.equal(byPath.status, 403);
  assert.equal((await byPath.json()).error.code, "invalid_input");
  assert.ok(platform.rows.has(G1));
  assert.ok(platform.objects.has(path));
});

Deno.test("refuses a missing sign-in, other methods and malformed input before touching anything", async () => {
  const { platform, call } = setup();
  platform.add(ALICE, G1);
  assert.equal((await call(null, { generation_id: G1 })).status, 401);
  assert.equal((await call("forged", { generation_id: G1 })).status, 401);
  assert.equal((await call(ALICE, null, "GET")).status, 405);
  for (const body of [{}, { generation_id: "g1" }, { generation_id: G1, image_path: 7 }, [G1]]) {
    const res = await call(ALICE, body);
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal((await res.json()).error.code, "invalid_input");
  }
  assert.ok(platform.rows.has(G1));
  assert.deepEqual(platform.calls.filter((c) => c !== "identify"), []);
});

Deno.test("an expired token asks for a renewal; a platform failure is worth another try and logs no token", async () => {
  const { platform, logs, call } = setup();
  const path = platform.add(ALICE, G1);
  platform.failing.set("deleteRow", 401);
  assert.equal((await call(ALICE, { generation_id: G1, image_path: path })).status, 401);
  platform.failing.set("deleteRow", 500);
  const res = await call(ALICE, { generation_id: G1, image_path: path });
  assert.equal(res.status, 500);
  assert.equal((await res.json()).error.retryable, true);
  assert.ok(platform.rows.has(G1));
  assert.ok(logs.every((l) => !JSON.stringify(l).includes("Bearer")));
  assert.deepEqual(logs.at(-1), {
    event: "generation.delete_failed",
    step: "row",
    generation_id: G1,
    code: "server_error",
    detail: undefined,
  });
});
