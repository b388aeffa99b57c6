// The billing functions' store in memory, with the database's rules (supabase/migrations/
// 20261126140000_create_billing.sql): one customer per person and the first id kept, a sync that read
// Stripe earlier than the one written changes nothing, no subscription for one who never had any
// changes nothing, the tier holds until paid_until and is free after, events recorded once by id. The db tier tests the SQL itself (tests/db/billing.test.ts).
import { appError, fail, ok } from "../../../supabase/functions/_shared/errors.ts";
import type { SubscriptionView } from "../../../supabase/functions/_shared/billing/plans.ts";
import type {
  BillingCaller,
  BillingStore,
  EventOutcome,
  SubscriptionRow,
} from "../../../supabase/functions/_shared/billing/store.ts";

interface Person extends BillingCaller {
  jwt: string;
}

export class MemoryBillingStore implements BillingStore {
  people = new Map<string, Person>();
  customers = new Map<string, string>();
  rows = new Map<string, SubscriptionRow & { synced_at: string }>();
  tiers = new Map<string, { tier: string; until: string | null }>();
  events = new Map<string, { type: string; customer: string | null; outcome: string }>();
  /** When each person's last sync read Stripe (billing_customers.synced_at). */
  lastSync = new Map<string, string>();
  /** Every write, in order (apply, keepCustomer), for tests that count them. */
  writes: string[] = [];

  addPerson(email = `p${this.people.size}@example.test`): Person {
    const id = crypto.randomUUID();
    const person = { id, email, jwt: `jwt-${id}` };
    this.people.set(person.jwt, person);
    this.tiers.set(id, { tier: "free", until: null });
    return person;
  }

  /** The tier the quota reads now, as private.limits_for_update leaves it. */
  tierOf(userId: string, now = Date.now()): string {
    const t = this.tiers.get(userId);
    if (!t) return "free";
    return t.until && Date.parse(t.until) <= now ? "free" : t.tier;
  }

  identify(jwt: string) {
    const p = this.people.get(jwt);
    return Promise.resolve(p ? ok({ id: p.id, email: p.email }) : fail<BillingCaller>(appError("auth_required")));
  }
  customerOf(userId: string) {
    return Promise.resolve(ok(this.customers.get(userId) ?? null));
  }
  keepCustomer(userId: string, customerId: string) {
    this.writes.push(`keepCustomer ${userId}`);
    if (!this.customers.has(userId)) this.customers.set(userId, customerId);
    return Promise.resolve(ok(this.customers.get(userId)!));
  }
  userOfCustomer(customerId: string) {
    const found = [...this.customers].find(([, c]) => c === customerId);
    return Promise.resolve(ok(found?.[0] ?? null));
  }
  apply(userId: string, view: SubscriptionView | null, syncedAt: string) {
    this.writes.push(`apply ${userId}`);
    const had = this.rows.has(userId);
    const last = this.lastSync.get(userId);
    if (last && last > syncedAt) return Promise.resolve(ok(undefined));
    this.lastSync.set(userId, syncedAt);
    if (!view) {
      // Never subscribed: nothing of billing's to undo (20261126140100_billing_leaves_unsubscribed_tiers.sql).
      if (!had) return Promise.resolve(ok(undefined));
      this.rows.delete(userId);
      this.tiers.set(userId, { tier: "free", until: null });
      return Promise.resolve(ok(undefined));
    }
    const { paid_until, ...row } = view;
    this.rows.set(userId, { ...row, synced_at: syncedAt });
    const paid = paid_until !== null && Date.parse(paid_until) > Date.now();
    this.tiers.set(userId, paid ? { tier: view.tier, until: paid_until } : { tier: "free", until: null });
    return Promise.resolve(ok(undefined));
  }
  state(userId: string) {
    const row = this.rows.get(userId);
    const subscription = row ?
      {
        status: row.status,
        plan: row.plan,
        tier: row.tier,
        current_period_end: row.current_period_end,
        cancel_at_period_end: row.cancel_at_period_end,
        ends_at: row.ends_at,
        grace_until: row.grace_until,
      } :
      null;
    return Promise.resolve(ok({ tier: this.tierOf(userId), subscription }));
  }
  recordEvent(event: { id: string; type: string; customer: string | null }) {
    const known = this.events.get(event.id);
    if (!known) {
      this.events.set(event.id, { type: event.type, customer: event.customer, outcome: "received" });
      return Promise.resolve(ok("new" as const));
    }
    return Promise.resolve(
      ok(known.outcome === "failed" || known.outcome === "received" ? "new" as const : "seen" as const),
    );
  }
  finishEvent(id: string, outcome: EventOutcome) {
    const e = this.events.get(id);
    if (e) e.outcome = outcome;
    return Promise.resolve(ok(undefined));
  }
}
