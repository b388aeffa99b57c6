// What delete-account runs before it deletes anything (cancelSubscriptionsOf, _shared/billing/sync.ts),
// against the Stripe stand-in: every subscription of the person's customer ends at once; a person with no
// customer has nothing to end; Stripe unreachable is a network_error and nothing is ended.
import assert from "node:assert/strict";
import { createStripe } from "../../../supabase/functions/_shared/billing/config.ts";
import { cancelSubscriptionsOf } from "../../../supabase/functions/_shared/billing/sync.ts";
import { subscribed, withWorld } from "./world.ts";

Deno.test("ends the person's live subscription in Stripe at once, and the event returns the tier to free", () =>
  withWorld(async (w) => {
    const { person } = await subscribed(w, "pro");
    const down = { ...w.core.config, apiUrl: "http://127.0.0.1:9" };
    const unreachable = await cancelSubscriptionsOf({ ...w.core, config: down, stripe: createStripe(down) }, person.id);
    assert.equal(unreachable.ok ? "ok" : unreachable.error.code, "network_error");
    const customer = w.store.customers.get(person.id)!;
    const live = await w.core.stripe.subscriptions.list({ customer, status: "all" });
    assert.deepEqual(live.data.map((s) => s.status), ["active"]);

    const ended = await cancelSubscriptionsOf(w.core, person.id);
    assert.deepEqual(ended, { ok: true, value: 1 });
    const after = await w.core.stripe.subscriptions.list({ customer, status: "all" });
    assert.deepEqual(after.data.map((s) => s.status), ["canceled"]);
    await w.flush();
    assert.equal(w.store.tierOf(person.id), "free");
    // A second run (a repeated delete-account) finds nothing left to end.
    assert.deepEqual(await cancelSubscriptionsOf(w.core, person.id), { ok: true, value: 0 });
    assert.deepEqual(await cancelSubscriptionsOf(w.core, w.store.addPerson().id), { ok: true, value: 0 });
  }));
