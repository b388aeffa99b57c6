// The Supabase implementation of delete-generation's platform, over a fake fetch that answers as PostgREST
// does: a refusal for good (a 4xx) is final, a server's failure (5xx) is worth another try.
import assert from "node:assert/strict";
import { createSupabaseRemover } from "../../../supabase/functions/delete-generation/remover.ts";

const ID = "10000000-0000-4000-8000-000000000001";

function answering(status: number, body: unknown): typeof fetch {
  return () =>
    Promise.resolve(
      new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } }),
    );
}

function remover(platform: typeof fetch) {
  return createSupabaseRemover({ url: "http://backend.test", anonKey: "anon", fetch: platform });
}

/** The error of a row delete PostgREST answers with `status` and `body`; the delete must have failed. */
async function deleteFailure(status: number, body: unknown) {
  const r = await remover(answering(status, body)).deleteRow("token", ID);
  assert.ok(!r.ok, "the delete must fail");
  return r.error;
}

Deno.test("a row delete PostgREST refuses with a 4xx is final, with PostgREST's status", async () => {
  const error = await deleteFailure(400, { code: "22023", message: 'role "postgres" does not exist', details: null });
  assert.equal(error.code, "invalid_input");
  assert.equal(error.status, 400);
});

Deno.test("a row delete PostgREST fails with a 5xx is worth another try", async () => {
  const error = await deleteFailure(503, { code: "57P01", message: "restarting", details: null });
  assert.equal(error.code, "server_error");
});

Deno.test("a row delete that answers names the stored image", async () => {
  const r = await remover(answering(200, [{ image_path: "u/x.png" }])).deleteRow("token", ID);
  assert.deepEqual(r, { ok: true, value: { deleted: true, imagePath: "u/x.png" } });
});
