// The billing functions over H2's Stripe stand-in (supabase/local/stripe/stand-in.ts): the official
// library talks to it over HTTP, its signed events are delivered to the stripe-webhook handler in this
// process, and the database is the in-memory store with the migration's rules (memory-store.ts).
// Shared by tests/functions/billing and tests/functions/stripe-webhook.
import { createStripe, readBillingConfig } from "../../../supabase/functions/_shared/billing/config.ts";
import type { BillingCore } from "../../../supabase/functions/_shared/billing/sync.ts";
import { type Deps as BillingDeps, handler as billing } from "../../../supabase/functions/billing/handler.ts";
import { type Deps as WebhookDeps, handler as webhook } from "../../../supabase/functions/stripe-webhook/handler.ts";
import { createStripeStandIn } from "../../../supabase/local/stripe/stand-in.ts";
import { MemoryBillingStore } from "./memory-store.ts";

export const SITE = "http://app.test";
export const TEST_CARD = "4242 4242 4242 4242";
/** Pays the first invoice; every renewal fails (the stand-in's cards, decision 149). */
export const RENEWAL_FAILS_CARD = "4000 0000 0000 0341";

type Person = ReturnType<MemoryBillingStore["addPerson"]>;

export async function billingWorld() {
  const store = new MemoryBillingStore();
  const logs: Record<string, unknown>[] = [];
  const log = (event: string, fields: Record<string, unknown>) => logs.push({ event, ...fields });
  const delivered: Response[] = [];
  let webhookDeps: WebhookDeps | null = null;
  const standIn = await createStripeStandIn({
    port: 0,
    quiet: true,
    retryDelaysMs: [30, 60, 120],
    webhookUrl: "http://functions.test/functions/v1/stripe-webhook",
    fetch: async (input, init) => {
      const res = await webhook(new Request(input, init), webhookDeps!);
      delivered.push(res.clone());
      return res;
    },
  });
  const env = { ...standIn.env, SITE_URL: SITE };
  const config = readBillingConfig((k) => (env as Record<string, string>)[k])!;
  const core: BillingCore = { config, stripe: createStripe(config), store, now: () => Date.now(), log };
  webhookDeps = { billing: core, log };
  const billingDeps: BillingDeps = { store, billing: core, log };

  const control = async (path: string, body?: unknown) => {
    const res = await fetch(`${standIn.url}/__stripe/${path}`, {
      method: body === undefined && path !== "deliveries/flush" ? "GET" : "POST",
      headers: { Authorization: `Bearer ${standIn.secretKey}` },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!res.ok) throw new Error(`stand-in control ${path}: ${res.status} ${await res.text()}`);
    return await res.json();
  };

  return {
    store,
    logs,
    delivered,
    standIn,
    core,
    billingDeps,
    webhookDeps,
    /** One call of the billing function as `person` (their token; Origin the site's unless given). */
    call: async (person: Person, body: unknown, deps: BillingDeps = billingDeps) => {
      const res = await billing(
        new Request("http://fn/billing", {
          method: "POST",
          headers: { Authorization: `Bearer ${person.jwt}`, "content-type": "application/json", Origin: SITE },
          body: JSON.stringify(body),
        }),
        deps,
      );
      return { status: res.status, body: await res.json() };
    },
    /** Pays a Checkout session on the stand-in's page, as the person pressing "Pay" would. */
    pay: async (checkoutUrl: string, card = TEST_CARD) => {
      const res = await fetch(`${checkoutUrl}/pay`, {
        method: "POST",
        body: new URLSearchParams({ number: card, exp: "12 / 34", cvc: "123" }),
        redirect: "manual",
      });
      await res.body?.cancel();
      if (res.status !== 303 && res.status !== 302) throw new Error(`pay: ${res.status}`);
      return res.headers.get("location") ?? "";
    },
    /** Presses an action ("cancel", "resume") on the stand-in's billing portal page. */
    portalAction: async (portalUrl: string, action: string) => {
      const res = await fetch(`${portalUrl}/${action}`, {
        method: "POST",
        body: new URLSearchParams({}),
        redirect: "manual",
      });
      await res.body?.cancel();
      if (res.status >= 400) throw new Error(`portal ${action}: ${res.status}`);
    },
    control,
    /** Waits until every event the stand-in has queued was delivered (or given up). */
    flush: () => control("deliveries/flush"),
    /** Moves the stand-in's clock on and waits for the events that falls due. */
    advanceDays: async (days: number) => {
      await control("clock/advance", { seconds: Math.round(days * 86_400) });
      await control("deliveries/flush");
    },
    close: () => standIn.close(),
  };
}

export type World = Awaited<ReturnType<typeof billingWorld>>;

/** Runs `fn` with a fresh world and closes it afterwards. */
export async function withWorld(fn: (w: World) => Promise<void>): Promise<void> {
  const w = await billingWorld();
  try {
    await fn(w);
  } finally {
    await w.close();
  }
}

/** A person who bought `plan` through Checkout, with every event delivered. */
export async function subscribed(w: World, plan: "creator" | "pro" = "creator", card = TEST_CARD) {
  const person = w.store.addPerson();
  const started = await w.call(person, { action: "checkout", plan });
  if (started.status !== 200) throw new Error(`checkout: ${JSON.stringify(started.body)}`);
  const success = await w.pay(started.body.url, card);
  await w.flush();
  return { person, success, checkoutUrl: started.body.url as string };
}
