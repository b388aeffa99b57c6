// Plans you can buy, end to end on the local backend with its Stripe stand-in (decision 148): the billing
// function opens Checkout, the stand-in's Pay button pays, its signed event reaches stripe-webhook through
// the gateway with no token (verify_jwt = false), and the tier the quota reads changes for every device of
// the person; a second press of a plan button lands in the portal; deleting the account cancels the
// subscription in Stripe first.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { describeOnBackends, people } from "../support/backend-suite.ts";
import { anonClient, serviceClient } from "../support/clients.ts";
import { listenChanges, sleep, waitFor } from "../support/realtime.ts";

interface StandInState {
  secretKey: string;
  webhookSecret: string;
}

describeOnBackends("plans you can buy on $title", { prefix: "pc_billing" }, (b, { skip }) => {
  const [buyer, stranger] = people(b, "buyer", "stranger");
  const standIn = (): StandInState => JSON.parse(readFileSync(join(b.dataDir, "stripe-standin.json"), "utf8"));
  const stripeGet = async (path: string) =>
    (await fetch(`${b.url}/v1/${path}`, { headers: { Authorization: `Bearer ${standIn().secretKey}` } })).json();
  const billing = async (body: Record<string, unknown>, client = buyer.client) => {
    const { data, error } = await client.functions.invoke("billing", { body });
    if (error) throw new Error(`billing ${JSON.stringify(body)}: ${await error.context?.text?.()}`);
    return data;
  };
  const limits = async (client = buyer.client) =>
    (await client.rpc("get_my_limits")).data as { tier: string; daily_limit: number };
  const until = async (what: () => Promise<boolean>, ms = 15_000) => {
    const end = Date.now() + ms;
    while (!(await what())) {
      if (Date.now() > end) throw new Error("timed out");
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  it.skipIf(skip)(
    "free → Creator through the stand-in's checkout; a second device reads 999; a second press opens the portal",
    async () => {
      const before = await billing({ action: "summary" });
      expect(before).toEqual({ configured: true, testMode: true, tier: "free", subscription: null, invoices: [] });

      const started = await billing({ action: "checkout", plan: "creator" });
      expect(started.kind).toBe("checkout");
      expect(started.url.startsWith(`${b.url}/stripe/checkout/cs_`)).toBe(true);
      const paid = await fetch(`${started.url}/pay`, {
        method: "POST",
        body: new URLSearchParams({ number: "4242 4242 4242 4242", exp: "12 / 34", cvc: "123" }),
        redirect: "manual",
      });
      await paid.text();
      expect(paid.status).toBe(303);
      expect(paid.headers.get("location")).toMatch(/\/payment-success\?session_id=cs_/);

      // The webhook alone (no sync from the page) brings the tier.
      await until(async () => (await limits()).tier === "pro");
      const device2 = anonClient(b);
      await device2.auth.signInWithPassword({ email: buyer.email, password: buyer.password });
      expect(await limits(device2)).toMatchObject({ tier: "pro", daily_limit: 999 });
      const { data: rows } = await device2.from("subscriptions").select("*");
      expect(rows).toHaveLength(1);
      expect(rows![0]).toMatchObject({ plan: "creator", tier: "pro", status: "active", cancel_at_period_end: false });
      expect(JSON.stringify(rows)).not.toMatch(/cus_|sub_|price_/);

      const summary = await billing({ action: "summary" }, device2);
      expect(summary.subscription).toMatchObject({ plan: "creator", tier: "pro", status: "active" });
      expect(summary.invoices).toHaveLength(1);
      expect(summary.invoices[0]).toMatchObject({ amountPaid: 999, currency: "usd", status: "paid" });

      const again = await billing({ action: "checkout", plan: "pro" }, device2);
      expect(again.kind).toBe("portal");
      expect(again.url.startsWith(`${b.url}/stripe/portal/`)).toBe(true);
    },
    60_000,
  );

  it.skipIf(skip)(
    "every device of the person hears a cancel in the portal through realtime; a stranger hears nothing",
    async () => {
      const device2 = anonClient(b);
      await device2.auth.signInWithPassword({ email: buyer.email, password: buyer.password });
      const binding = { event: "*", schema: "public", table: "subscriptions" };
      type Change = { eventType: string; new: { cancel_at_period_end?: boolean; user_id?: string } };
      const heard = await listenChanges<Change>(device2, "plan-device2", binding);
      const strangers = await listenChanges<Change>(stranger.client, "plan-stranger", binding);
      const { url } = await billing({ action: "portal" });
      const cancelled = await fetch(`${url}/cancel`, {
        method: "POST",
        body: new URLSearchParams(),
        redirect: "manual",
      });
      await cancelled.text();
      const change = await waitFor(
        () => heard.changes.find((c) => c.new.cancel_at_period_end === true),
        "the cancel on the second device",
      );
      expect(change).toMatchObject({ eventType: "UPDATE", new: { user_id: buyer.id } });
      expect(await limits(device2)).toMatchObject({ tier: "pro" }); // kept to the period's end
      await sleep(500);
      expect(strangers.changes).toEqual([]);
      await device2.removeAllChannels();
    },
    60_000,
  );

  it.skipIf(skip)(
    "the webhook refuses an unsigned event through the gateway (no token needed, 400, nothing recorded)",
    async () => {
      const res = await fetch(`${b.url}/functions/v1/stripe-webhook`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ id: "evt_unsigned", type: "customer.subscription.deleted", data: { object: {} } }),
      });
      expect(res.status).toBe(400);
      expect((await res.json()).error.code).toBe("invalid_signature");
      const { data } = await serviceClient(b).from("stripe_events").select("id").eq("id", "evt_unsigned");
      expect(data).toEqual([]);
    },
  );

  it.skipIf(skip)(
    "deleting the account cancels its subscription in Stripe first",
    async () => {
      const { data: customer } = await serviceClient(b)
        .from("billing_customers")
        .select("stripe_customer_id")
        .eq("user_id", buyer.id)
        .single();
      const { error } = await buyer.client.functions.invoke("delete-account", { body: {} });
      expect(error).toBeNull();
      const subs = await stripeGet(`subscriptions?customer=${customer!.stripe_customer_id}&status=all`);
      expect(subs.data.map((s: { status: string }) => s.status)).toEqual(["canceled"]);
    },
    60_000,
  );
});
