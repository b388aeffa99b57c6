// Events and their delivery: each change makes an `event` object (kept, listable), and the events one request
// made are POSTed as a batch to the webhook URL, signed as Stripe signs them (`Stripe-Signature: t=…,v1=…`,
// HMAC-SHA256 of `${t}.${payload}` keyed with the whole signing secret), retried on a non-2xx answer or a
// network failure after each delay of the (shortened) schedule. Faults the tests set change the next
// deliveries: drop, duplicate, delay, or send one request's events in reverse order.
import { API_VERSION } from "./objects.ts";
import { newId, type Obj, type Store } from "./store.ts";

export interface Faults {
  drop?: boolean;
  duplicate?: boolean;
  reorder?: boolean;
  delay_ms?: number;
  /** Events the faults apply to before they reset themselves; absent: until reset. */
  count?: number;
}

export interface Delivery {
  event: string;
  type: string;
  attempts: number;
  status: "pending" | "delivered" | "failed" | "dropped";
  /** HTTP status of the last attempt (0: no answer). */
  last_status: number | null;
  duplicate: boolean;
}

export interface Webhooks {
  /** Makes an event of `type` about `object` (copied as it is now) and queues it for this request's batch. */
  record(type: string, object: Obj, previous?: Record<string, unknown>): Obj;
  /** Sends the queued events (called once a request has made all its changes). */
  dispatch(request?: { id: string; idempotencyKey: string | null }): void;
  faults: Faults;
  deliveries: Delivery[];
  /** Resolves when no delivery is waiting for its first answer or a retry. */
  idle(): Promise<void>;
  close(): void;
}

export async function signature(secret: string, payload: string, t: number): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${t}.${payload}`));
  const hex = Array.from(new Uint8Array(mac), (b) => b.toString(16).padStart(2, "0")).join("");
  return `t=${t},v1=${hex}`;
}

export interface WebhookOptions {
  store: Store;
  url: () => string | null;
  fetch: typeof fetch;
  retryDelaysMs: number[];
  log: (msg: string) => void;
}

/** Sends events: attempts, retries on the schedule, and what is still in flight (for idle and close). */
class Sender {
  readonly inFlight = new Set<Promise<void>>();
  private readonly timers = new Map<ReturnType<typeof setTimeout>, () => void>();
  closed = false;

  constructor(private readonly o: WebhookOptions) {}

  wait(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        this.timers.delete(t);
        resolve();
      }, ms);
      this.timers.set(t, resolve);
    });
  }

  track(p: Promise<void>): void {
    this.inFlight.add(p);
    p.finally(() => this.inFlight.delete(p));
  }

  /** One POST of the event, signed now; true when the endpoint answered 2xx. */
  async attempt(event: Obj, d: Delivery): Promise<boolean> {
    const url = this.o.url();
    if (!url || this.closed) return false;
    const payload = JSON.stringify(event, null, 2);
    d.attempts++;
    try {
      const res = await this.o.fetch(url, {
        method: "POST",
        headers: {
          "content-type": "application/json; charset=utf-8",
          "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
          "stripe-signature": await signature(this.o.store.state.webhookSecret, payload, Math.floor(Date.now() / 1000)),
        },
        body: payload,
      });
      await res.body?.cancel();
      d.last_status = res.status;
      return res.ok;
    } catch (e) {
      d.last_status = 0;
      this.o.log(`webhook ${event.id} not delivered: ${e}`);
      return false;
    }
  }

  /** Retries after a failed first attempt, on the schedule, in the background. */
  async retry(event: Obj, d: Delivery): Promise<void> {
    for (const delay of this.o.retryDelaysMs) {
      await this.wait(delay);
      if (this.closed) return;
      if (await this.attempt(event, d)) {
        d.status = "delivered";
        return;
      }
    }
    d.status = "failed";
  }

  /** The first attempt (after the fault's delay); resolves with its outcome, retries carry on beside. */
  async deliver(event: Obj, d: Delivery, delayMs: number): Promise<void> {
    if (delayMs > 0) await this.wait(delayMs);
    if (await this.attempt(event, d)) d.status = "delivered";
    else this.track(this.retry(event, d));
  }

  close(): void {
    this.closed = true;
    // Waits end at once (their retries see `closed` and stop).
    for (const [t, resolve] of this.timers) {
      clearTimeout(t);
      resolve();
    }
    this.timers.clear();
  }
}

const delivery = (event: Obj, status: Delivery["status"], duplicate: boolean): Delivery => ({
  event: event.id,
  type: event.type as string,
  attempts: 0,
  status,
  last_status: null,
  duplicate,
});

/** Which faults apply to each event of a batch (in the order they go out), using up `count`. */
function planFaults(hooks: Webhooks, batch: Obj[]): { event: Obj; fault: Faults }[] {
  const f = hooks.faults;
  const ordered = f.reorder ? [...batch].reverse() : batch;
  return ordered.map((event) => {
    const affected = f.count === undefined || f.count > 0;
    if (affected && f.count !== undefined) f.count--;
    const fault = affected ? { ...f } : {};
    if (f.count === 0) hooks.faults = {};
    return { event, fault };
  });
}

async function sendBatch(hooks: Webhooks, sender: Sender, plans: { event: Obj; fault: Faults }[]): Promise<void> {
  for (const { event, fault } of plans) {
    if (fault.drop) {
      hooks.deliveries.push(delivery(event, "dropped", false));
      continue;
    }
    for (let copy = 0; copy < (fault.duplicate ? 2 : 1); copy++) {
      const d = delivery(event, "pending", copy > 0);
      hooks.deliveries.push(d);
      // One request's events go out one after another; a delayed one does not hold the rest back.
      if (fault.delay_ms) sender.track(sender.deliver(event, d, fault.delay_ms));
      else await sender.deliver(event, d, 0);
    }
  }
}

export function createWebhooks(o: WebhookOptions): Webhooks {
  let queued: Obj[] = [];
  const sender = new Sender(o);
  const hooks: Webhooks = {
    faults: {},
    deliveries: [],
    record(type, object, previous) {
      const event = o.store.put({
        id: newId("evt"),
        object: "event",
        api_version: API_VERSION,
        created: o.store.now(),
        data: previous ?
          { object: structuredClone(object), previous_attributes: previous } :
          { object: structuredClone(object) },
        livemode: false,
        pending_webhooks: o.url() ? 1 : 0,
        request: { id: null, idempotency_key: null },
        type,
      });
      queued.push(event);
      return event;
    },
    dispatch(request) {
      const batch = queued;
      queued = [];
      if (!batch.length) return;
      for (const e of batch) if (request) e.request = { id: request.id, idempotency_key: request.idempotencyKey };
      sender.track(sendBatch(hooks, sender, planFaults(hooks, batch)));
    },
    async idle() {
      while (sender.inFlight.size) await Promise.allSettled([...sender.inFlight]);
    },
    close: () => sender.close(),
  };
  return hooks;
}
