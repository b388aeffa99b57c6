// The delete-account handler through handler(req, deps), over an in-memory platform with Auth's,
// Storage's and the foreign keys' semantics (fake-account-store.ts).
import assert from "node:assert/strict";
import { appError } from "../../../supabase/functions/_shared/errors.ts";
import { type Deps, handler } from "../../../supabase/functions/delete-account/handler.ts";
import { LIST_PAGE_SIZE } from "../../../supabase/functions/delete-account/purge-folder.ts";
import { FakeAccounts } from "./fake-account-store.ts";

function setup() {
  const store = new FakeAccounts();
  const logs: Record<string, unknown>[] = [];
  const deps: Deps = { store, log: (event, fields) => logs.push({ event, ...fields }) };
  const call = (jwt: string | null, method = "POST") =>
    handler(
      new Request("http://fn/delete-account", {
        method,
        headers: jwt ? { Authorization: `Bearer ${jwt}` } : {},
      }),
      deps,
    );
  return { store, logs, call };
}

/** Asserts that `res` is a 500 server_error and the account `id` is still there. */
async function assertServerErrorKeeps(res: Response, store: { users: Set<string> }, id: string) {
  assert.equal(res.status, 500);
  assert.equal((await res.json()).error.code, "server_error");
  assert.equal(store.users.has(id), true);
}

Deno.test("removes the person's rows, every image of their folder and their auth user", async () => {
  const { store, call } = setup();
  const me = store.addUser(["a.png", "b.png", "album/c.png", "album/deeper/d.webp"]);
  const other = store.addUser(["keep.png"]);
  store.objects.add(`${me.id}x/not-mine.png`); // a neighbour whose id merely starts the same way

  const res = await call(me.jwt);
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { deleted: true, user_id: me.id, images_removed: 4, already_deleted: false });
  assert.deepEqual(store.objectsOf(me.id), []);
  assert.deepEqual(store.rowsOf(me.id), []);
  assert.equal(store.users.has(me.id), false);
  assert.deepEqual(store.objectsOf(other.id), [`${other.id}/keep.png`]);
  assert.equal(store.rowsOf(other.id).length, 5);
  assert.ok(store.objects.has(`${me.id}x/not-mine.png`));
});

Deno.test("deletes the rows before the images and the images before the auth user", async () => {
  const { store, call } = setup();
  const me = store.addUser(["a.png"]);
  await call(me.jwt);
  const order = store.calls.filter((c) => c !== "listFolder");
  assert.deepEqual(order, ["identify", "deleteGenerations", "removeObjects", "deleteUser"]);
});

Deno.test("removes more images than one listing holds", async () => {
  const { store, call } = setup();
  const names = Array.from({ length: LIST_PAGE_SIZE * 2 + 7 }, (_, i) => `${String(i).padStart(5, "0")}.png`);
  const me = store.addUser(names);
  const res = await call(me.jwt);
  assert.equal((await res.json()).images_removed, names.length);
  assert.deepEqual(store.objectsOf(me.id), []);
  assert.equal(store.calls.filter((c) => c === "removeObjects").length, 3);
});

Deno.test("sweeps images stored while the folder was being emptied or the account deleted", async () => {
  const { store, call } = setup();
  const me = store.addUser(["a.png"]);
  let listed = false;
  store.afterList = (folder) => {
    if (folder === me.id && !listed) {
      listed = true;
      store.objects.add(`${me.id}/during-listing.png`);
    }
  };
  // A generation in flight stores its image just before the auth user goes (its row then cannot follow).
  const deleteUser = store.deleteUser.bind(store);
  store.deleteUser = (id) => {
    store.objects.add(`${me.id}/during-user-deletion.png`);
    return deleteUser(id);
  };
  const res = await call(me.jwt);
  assert.equal(res.status, 200);
  assert.equal((await res.json()).images_removed, 3);
  assert.deepEqual(store.objectsOf(me.id), []);
});

Deno.test("answers a repeated request with the same success, finishing what is left", async () => {
  const { store, call } = setup();
  const me = store.addUser(["a.png"]);
  assert.equal((await call(me.jwt)).status, 200);
  store.objects.add(`${me.id}/left-behind.png`);
  store.calls = [];

  const again = await call(me.jwt);
  assert.equal(again.status, 200);
  assert.deepEqual(await again.json(), { deleted: true, user_id: me.id, images_removed: 1, already_deleted: true });
  assert.deepEqual(store.objectsOf(me.id), []);
  assert.equal(store.calls.includes("deleteUser"), false);
  assert.equal(store.calls.includes("deleteGenerations"), false);
});

Deno.test("answers a storage failure with a server_error body, and a retry completes the deletion", async () => {
  const { store, call, logs } = setup();
  const me = store.addUser(["a.png", "b.png"]);
  store.failOnce("removeObjects");

  const res = await call(me.jwt);
  assert.equal(res.status, 500);
  const body = await res.json();
  assert.equal(body.error.code, "server_error");
  assert.match(body.error.message, /could not be deleted/);
  assert.equal(body.error.retryable, true);
  assert.equal(store.users.has(me.id), true, "the account stays until its images are gone");
  assert.ok(logs.some((l) => l.event === "account.delete_failed" && l.step === "images"));
  assert.ok(!JSON.stringify(logs).includes(me.jwt), "tokens never reach the log");

  const retry = await call(me.jwt);
  assert.equal(retry.status, 200);
  assert.deepEqual(store.objectsOf(me.id), []);
  assert.equal(store.users.has(me.id), false);
});

Deno.test("answers a failed auth deletion with server_error, and a retry removes the account", async () => {
  const { store, call } = setup();
  const me = store.addUser(["a.png"]);
  store.failOnce("deleteUser");
  assert.equal((await call(me.jwt)).status, 500);
  assert.deepEqual(store.rowsOf(me.id).includes("generations"), false);
  const retry = await call(me.jwt);
  assert.equal(retry.status, 200);
  assert.equal((await retry.json()).already_deleted, false);
  assert.deepEqual(store.rowsOf(me.id), []);
});

Deno.test("stops with server_error when Storage lists objects it never removes", async () => {
  const { store, call } = setup();
  const me = store.addUser(["stuck.png"]);
  store.removeObjects = () => Promise.resolve({ ok: true, value: 0 });
  await assertServerErrorKeeps(await call(me.jwt), store, me.id);
});

Deno.test("refuses a request without a valid token, and touches nothing", async () => {
  const { store, call } = setup();
  const me = store.addUser(["a.png"]);
  for (const jwt of [null, "jwt-forged"]) {
    const res = await call(jwt);
    assert.equal(res.status, 401);
    assert.deepEqual(await res.json(), {
      error: { code: "auth_required", message: "Please sign in to delete your account", retryable: false },
    });
  }
  assert.deepEqual(store.objectsOf(me.id), [`${me.id}/a.png`]);
  assert.equal(store.users.has(me.id), true);
});

Deno.test("tells an Auth outage apart from a bad token", async () => {
  const { store, call } = setup();
  const me = store.addUser();
  store.failOnce("identify", appError("server_error", { detail: "auth.getUser: 503" }));
  await assertServerErrorKeeps(await call(me.jwt), store, me.id);
});

Deno.test("answers CORS preflight and refuses other methods than POST", async () => {
  const { store, call } = setup();
  const me = store.addUser();
  const pre = await call(null, "OPTIONS");
  assert.equal(pre.status, 200);
  assert.match(pre.headers.get("access-control-allow-headers") ?? "", /authorization/);
  await pre.body?.cancel();
  const get = await call(me.jwt, "GET");
  assert.equal(get.status, 405);
  assert.equal((await get.json()).error.code, "invalid_input");
  assert.equal(store.users.has(me.id), true);
});

Deno.test("cancels the person's subscription before anything is deleted", async () => {
  const { store } = setup();
  const me = store.addUser(["a.png"]);
  const order: string[] = [];
  const deps: Deps = {
    store,
    log: () => {},
    cancelSubscriptions: (id) => {
      order.push(`cancel ${id === me.id}`, ...store.calls);
      return Promise.resolve({ ok: true, value: 1 });
    },
  };
  const res = await handler(
    new Request("http://fn/delete-account", { method: "POST", headers: { Authorization: `Bearer ${me.jwt}` } }),
    deps,
  );
  assert.equal(res.status, 200);
  assert.deepEqual(order, ["cancel true", "identify"]);
  assert.equal(store.users.has(me.id), false);
});

Deno.test("deletes nothing when the subscription cannot be cancelled (Stripe unreachable: 502)", async () => {
  const { store } = setup();
  const me = store.addUser(["a.png"]);
  const deps: Deps = {
    store,
    log: () => {},
    cancelSubscriptions: () => Promise.resolve({ ok: false, error: appError("network_error") }),
  };
  const res = await handler(
    new Request("http://fn/delete-account", { method: "POST", headers: { Authorization: `Bearer ${me.jwt}` } }),
    deps,
  );
  assert.equal(res.status, 502);
  const body = await res.json();
  assert.equal(body.error.code, "network_error");
  assert.match(body.error.message, /subscription could not be cancelled, so nothing was deleted/);
  assert.equal(store.users.has(me.id), true);
  assert.deepEqual(store.objectsOf(me.id), [`${me.id}/a.png`]);
  assert.equal(store.rowsOf(me.id).length, 5);
});
