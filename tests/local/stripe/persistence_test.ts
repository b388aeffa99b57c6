// The stand-in's state file: after a restart the keys, the prices, the customers, the subscriptions and the
// clock are as they were; and the backend's configuration decides whether the stand-in runs at all.
import assert from "node:assert/strict";
import { loadConfig } from "../../../supabase/local/config.ts";
import { createStripeStandIn } from "../../../supabase/local/stripe/stand-in.ts";
import { clientFor, DAY, startHarness } from "./harness.ts";

Deno.test("a restart keeps keys, prices, subscriptions and the clock", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pc-stripe-" });
  const stateFile = `${dir}/stripe-standin.json`;
  try {
    const h = await startHarness({ stateFile });
    const { subscription } = await h.subscribed();
    await h.advance(3 * DAY);
    const before = { key: h.standIn.secretKey, secret: h.standIn.webhookSecret, prices: h.standIn.prices };
    const clock = (await (await h.control("/__stripe/clock")).json()).now;
    await h.close();

    const again = await createStripeStandIn({ port: 0, stateFile, webhookUrl: null, quiet: true });
    try {
      assert.deepEqual({ key: again.secretKey, secret: again.webhookSecret, prices: again.prices }, before);
      const sub = await clientFor(again).subscriptions.retrieve(subscription.id);
      assert.equal(sub.status, "active");
      const res = await fetch(`${again.url}/__stripe/clock`, {
        headers: { authorization: `Bearer ${again.secretKey}` },
      });
      assert.ok((await res.json()).now >= clock);
    } finally {
      await again.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the backend runs the stand-in by default, never with STRIPE_SECRET_KEY, and none with STRIPE_STANDIN=0", async () => {
  const dir = await Deno.makeTempDir({ prefix: "pc-stripe-config-" });
  const envOf = (vars: Record<string, string>) => (name: string) =>
    ({ DATA_DIR: dir, ...vars } as Record<string, string>)[name];
  try {
    assert.equal((await loadConfig(envOf({}))).payments, "stand-in");
    assert.equal(
      (await loadConfig(envOf({ STRIPE_SECRET_KEY: "sk_test_real", STRIPE_STANDIN: "1" }))).payments,
      "stripe",
    );
    const none = await loadConfig(envOf({ STRIPE_STANDIN: "0", STRIPE_PRICE_PRO: "price_x", OTHER: "y" }));
    assert.equal(none.payments, "none");
    assert.equal(none.functionEnv("STRIPE_PRICE_PRO"), undefined, "functions see no Stripe variable");
    assert.equal(none.functionEnv("OTHER"), "y");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
