// Runs one seeded payments schedule (schedule.ts) against a running local backend and its Stripe
// stand-in, as a person would move through it (the billing function from two devices, the stand-in's
// checkout and portal pages) while the stand-in drops, duplicates, reorders and delays its signed events.
// After every step, once the stand-in has delivered what it will, it checks the invariants of decision
// 148: one Stripe customer per person, never two live subscriptions, a paid tier only with a paid
// invoice, and, when no event was lost, a state that a fresh sync from Stripe leaves as it is (order,
// duplicates and delays change nothing). A lost event is made good by the next sync, as the success
// page and /billing do; that sync must then agree.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { SupabaseClient } from "@supabase/supabase-js";
import type { Backend } from "../../support/backend.ts";
import { anonClient, newUser } from "../../support/clients.ts";
import { type BillingStep, type Card, describeBillingStep, isBillingFault, makeBillingSchedule } from "./schedule.ts";

export type BillingViolation = { seed: number; step: number; where: string; message: string };
export const BILLING_PATHS = [
  "event dropped, sync made good",
  "duplicate event ignored",
  "events reordered",
  "event delayed",
  "second press to the portal",
  "renewal failed",
  "tier ended on its own",
] as const;
export type BillingCounters = Record<(typeof BILLING_PATHS)[number], number>;
const zeroCounters = () => Object.fromEntries(BILLING_PATHS.map((p) => [p, 0])) as BillingCounters;

const CARD_NUMBERS: Record<Card, string> = {
  pays: "4242 4242 4242 4242",
  renewalFails: "4000 0000 0000 0341",
  declined: "4000 0000 0000 0002",
};
const LIVE = new Set(["active", "trialing", "past_due", "unpaid", "paused"]);
const DAY_S = 86_400;

/** What the billing function answers a plan button: Stripe Checkout, or the portal for a live plan. */
interface Started {
  url: string;
  kind: "checkout" | "portal";
}
type StripeList<T> = { data: T[] };

interface Summary {
  tier: string;
  subscription: { status: string; plan: string; tier: string; cancelAtPeriodEnd: boolean } | null;
}

/** What a person's billing looks like to the database: the tier the quota reads and the subscription row. */
async function dbState(client: SupabaseClient): Promise<string> {
  const limits = await client.rpc("get_my_limits");
  if (limits.error) throw new Error(`get_my_limits: ${limits.error.message}`);
  const rows = await client
    .from("subscriptions")
    .select("status, plan, tier, current_period_end, cancel_at_period_end, ends_at, grace_until");
  if (rows.error) throw new Error(`subscriptions: ${rows.error.message}`);
  const { tier, daily_limit } = limits.data as { tier: string; daily_limit: number };
  return JSON.stringify({ tier, daily_limit, rows: rows.data });
}

export class BillingRun {
  readonly counters = zeroCounters();
  readonly violations: BillingViolation[] = [];
  private deviceA!: SupabaseClient;
  private deviceB!: SupabaseClient;
  private email = "";
  private step = 0;
  /** How many of the stand-in's deliveries the checks have already read. */
  private deliveriesSeen = 0;

  constructor(
    private readonly b: Backend,
    readonly seed: number,
  ) {}

  /** The stand-in's keys and prices, read once from its state file (which grows with every object). */
  private standIn?: { secretKey: string; prices: Record<string, string> };
  private get state() {
    return (this.standIn ??= JSON.parse(readFileSync(join(this.b.dataDir, "stripe-standin.json"), "utf8")));
  }

  private get key(): string {
    return this.state.secretKey;
  }

  private async stripe<T = unknown>(method: string, path: string, body?: Record<string, unknown>): Promise<T> {
    const res = await fetch(`${this.b.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${this.key}`, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const out = await res.json();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(out)}`);
    return out as T;
  }

  private async billing<T = Started>(client: SupabaseClient, body: Record<string, unknown>): Promise<T> {
    const { data, error } = await client.functions.invoke("billing", { body });
    if (error) throw new Error(`billing ${JSON.stringify(body)}: ${await error.context?.text?.()}`);
    return data as T;
  }

  /** Submits a form of the stand-in's pages as the browser would; the answer is not followed. */
  private async submit(url: string, form: Record<string, string> = {}): Promise<Response> {
    const res = await fetch(url, { method: "POST", body: new URLSearchParams(form), redirect: "manual" });
    await res.text();
    return res;
  }

  private violation(where: string, message: string) {
    this.violations.push({ seed: this.seed, step: this.step, where, message });
  }

  /** Runs the seed's schedule, or `steps` when given (a scenario written out). */
  async run(steps: BillingStep[] = makeBillingSchedule(this.seed)): Promise<void> {
    const person = await newUser(this.b, `billing-${this.seed}`);
    this.deviceA = person.client;
    this.email = person.email;
    this.deviceB = anonClient(this.b);
    await this.deviceB.auth.signInWithPassword({ email: person.email, password: person.password });
    await this.stripe("POST", "/__stripe/faults", {});
    this.deliveriesSeen = (await this.stripe<StripeList<unknown>>("POST", "/__stripe/deliveries/flush")).data.length;
    try {
      for (const [i, step] of steps.entries()) {
        this.step = i;
        if (isBillingFault(step)) {
          await this.fault(step);
          continue;
        }
        await this.act(step);
        await this.check(describeBillingStep(step), await this.lostEvents(describeBillingStep(step)));
      }
    } finally {
      await this.stripe("POST", "/__stripe/faults", {});
      // Ended, so the next schedules' clock moves renew nothing of this person's (the clock is the stand-in's).
      for (const sub of (await this.subscriptionsInStripe()).filter((s) => LIVE.has(s.status))) {
        await this.stripe("DELETE", `/v1/subscriptions/${sub.id}`);
      }
      await this.stripe("POST", "/__stripe/deliveries/flush");
      await this.deviceA.removeAllChannels();
      await this.deviceB.removeAllChannels();
    }
  }

  private async fault(step: BillingStep & { count: number }) {
    const body: Record<string, unknown> = { count: step.count };
    if (step.kind === "delay") body.delay_ms = (step as { ms: number }).ms;
    else body[step.kind] = true;
    await this.stripe("POST", "/__stripe/faults", body);
    if (step.kind === "duplicate") this.counters["duplicate event ignored"]++;
    if (step.kind === "reorder") this.counters["events reordered"]++;
    if (step.kind === "delay") this.counters["event delayed"]++;
  }

  private async portalUrl(): Promise<string | null> {
    const { data, error } = await this.deviceA.functions.invoke("billing", { body: { action: "portal" } });
    if (error) {
      const text = await error.context?.text?.();
      if (String(text).includes("no_billing_account")) return null;
      throw new Error(`billing portal: ${text}`);
    }
    return (data as { url: string }).url;
  }

  private async act(step: BillingStep) {
    switch (step.kind) {
      case "buy": {
        const started = await this.billing(this.deviceA, { action: "checkout", plan: step.plan });
        if (started.kind === "portal") {
          this.counters["second press to the portal"]++;
          return;
        }
        await this.submit(`${started.url}/pay`, { number: CARD_NUMBERS[step.card], exp: "12 / 34", cvc: "123" });
        return;
      }
      case "pressTwice": {
        // Two devices press the plan button at once; each pays what it was given.
        const [a, b] = await Promise.all([
          this.billing(this.deviceA, { action: "checkout", plan: step.plan }),
          this.billing(this.deviceB, { action: "checkout", plan: step.plan }),
        ]);
        for (const started of [a, b]) {
          if (started.kind === "portal") this.counters["second press to the portal"]++;
          else await this.submit(`${started.url}/pay`, { number: CARD_NUMBERS.pays, exp: "12 / 34", cvc: "123" });
        }
        return;
      }
      case "twoPlansTwoTabs": {
        // One device opens Creator's checkout, the other Pro's, before either pays; then both pay.
        const a = await this.billing(this.deviceA, { action: "checkout", plan: "creator" });
        const b = await this.billing(this.deviceB, { action: "checkout", plan: "pro" });
        for (const started of [a, b]) {
          if (started.kind === "portal") this.counters["second press to the portal"]++;
          else await this.submit(`${started.url}/pay`, { number: CARD_NUMBERS.pays, exp: "12 / 34", cvc: "123" });
        }
        return;
      }
      case "cancel":
      case "resume":
      case "switch": {
        const url = await this.portalUrl();
        if (!url) return;
        const form: Record<string, string> = {};
        if (step.kind === "switch") {
          form.price = this.state.prices[step.plan] ?? "";
        }
        await this.submit(`${url}/${step.kind}`, form);
        return;
      }
      case "newCard": {
        const url = await this.portalUrl();
        if (url) await this.submit(`${url}/card`, { number: CARD_NUMBERS[step.card], exp: "12 / 34", cvc: "123" });
        return;
      }
      case "advanceDays": {
        const before = await this.subscriptionsInStripe();
        await this.stripe("POST", "/__stripe/clock/advance", { seconds: step.days * DAY_S });
        const after = await this.subscriptionsInStripe();
        if (
          after.some((s) => s.status === "past_due" && !before.some((p) => p.id === s.id && p.status === "past_due"))
        ) {
          this.counters["renewal failed"]++;
        }
        if (before.some((s) => LIVE.has(s.status)) && !after.some((s) => LIVE.has(s.status))) {
          this.counters["tier ended on its own"]++;
        }
        return;
      }
      case "successPage":
        await this.billing(this.deviceB, { action: "sync" });
        return;
    }
  }

  /** Waits for the stand-in's deliveries; whether one of this step's events was dropped. */
  private async lostEvents(where: string): Promise<boolean> {
    type Delivery = { event: string; type: string; status: string; last_status: number | null };
    const { data } = await this.stripe<StripeList<Delivery>>("POST", "/__stripe/deliveries/flush");
    const fresh = data.slice(this.deliveriesSeen);
    this.deliveriesSeen = data.length;
    for (const d of fresh.filter((d) => d.status === "failed")) {
      this.violation(where, `${d.type} ${d.event} was refused until Stripe gave up (last ${d.last_status})`);
    }
    return fresh.some((d) => d.status === "dropped");
  }

  private async customers(): Promise<{ id: string }[]> {
    const path = `/v1/customers?email=${encodeURIComponent(this.email)}&limit=100`;
    return (await this.stripe<StripeList<{ id: string }>>("GET", path)).data;
  }

  private async subscriptionsInStripe(): Promise<{ id: string; status: string }[]> {
    const out: { id: string; status: string }[] = [];
    for (const c of await this.customers()) {
      const path = `/v1/subscriptions?customer=${c.id}&status=all&limit=100`;
      out.push(...(await this.stripe<StripeList<{ id: string; status: string }>>("GET", path)).data);
    }
    return out;
  }

  private async check(where: string, lossSinceCheck: boolean) {
    const customers = await this.customers();
    if (customers.length > 1) this.violation(where, `${customers.length} Stripe customers for one person`);
    const subs = await this.subscriptionsInStripe();
    const live = subs.filter((s) => LIVE.has(s.status));
    if (live.length > 1) this.violation(where, `${live.length} live subscriptions: ${live.map((s) => s.status)}`);

    const before = await dbState(this.deviceA);
    const seenByB = await dbState(this.deviceB);
    if (seenByB !== before) this.violation(where, `the second device reads ${seenByB}, the first ${before}`);
    const synced = await this.billing<Summary>(this.deviceA, { action: "sync" });
    const after = await dbState(this.deviceA);
    if (before !== after) {
      if (lossSinceCheck) this.counters["event dropped, sync made good"]++;
      else this.violation(where, `a fresh sync changed the state: ${before} → ${after}`);
    }
    if (synced.tier !== "free") {
      const paid = [];
      for (const c of customers) {
        const invoices = await this.stripe<StripeList<{ status: string }>>(
          "GET",
          `/v1/invoices?customer=${c.id}&limit=100`,
        );
        paid.push(...invoices.data.filter((inv) => inv.status === "paid"));
      }
      if (!paid.length) this.violation(where, `tier ${synced.tier} with no paid invoice`);
      if (!live.length) {
        this.violation(where, `tier ${synced.tier} with no live subscription in Stripe`);
      }
    }
  }
}

/** Runs `seed`'s schedule (or `steps`) on `b`; its violations and how often each recovery path ran. */
export async function runBillingSchedule(
  b: Backend,
  seed: number,
  steps?: BillingStep[],
): Promise<{ violations: BillingViolation[]; counters: BillingCounters }> {
  const run = new BillingRun(b, seed);
  await run.run(steps);
  return { violations: run.violations, counters: run.counters };
}
