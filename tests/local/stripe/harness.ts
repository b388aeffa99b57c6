// What the stand-in's tests share: a stand-in on a free port driven through the official `stripe` library,
// a webhook endpoint that verifies each event with the library's constructEventAsync (and answers what a
// test tells it to), the stand-in-only controls, and the checkout page's Pay button.
import Stripe from "stripe";
import {
  createStripeStandIn,
  type StripeStandIn,
  type StripeStandInOptions,
} from "../../../supabase/local/stripe/stand-in.ts";

export interface Received {
  event: Stripe.Event;
  at: number;
}

export interface Harness {
  standIn: StripeStandIn;
  stripe: Stripe;
  /** Verified events in the order they arrived. */
  received: Received[];
  /** Bodies whose signature did not verify. */
  rejected: string[];
  /** The webhook endpoint's next answers (status codes, used up in order; then 200). */
  answers: number[];
  control(path: string, body?: unknown, method?: string): Promise<Response>;
  /** Advances the stand-in clock and waits until every delivery is done. */
  advance(seconds: number): Promise<void>;
  flush(): Promise<void>;
  /** Presses Pay on a checkout page with a card number; the page's answer (303 to success_url when paid). */
  pay(checkoutUrl: string, number?: string): Promise<Response>;
  /** A customer with a paid Creator subscription made through Checkout. */
  subscribed(number?: string): Promise<{ customer: Stripe.Customer; subscription: Stripe.Subscription }>;
  types(): string[];
  close(): Promise<void>;
}

export const DAY = 86_400;

export function clientFor(standIn: StripeStandIn, key = standIn.secretKey): Stripe {
  const url = new URL(standIn.url);
  return new Stripe(key, {
    host: url.hostname,
    port: Number(url.port),
    protocol: "http",
    maxNetworkRetries: 0,
  });
}

/**
 * The webhook endpoint: starts before the stand-in (which needs its URL) and verifies each event with the
 * library under `secret.value`, set once the stand-in exists.
 */
function startReceiver() {
  const received: Received[] = [];
  const rejected: string[] = [];
  const answers: number[] = [];
  const verifier = new Stripe("sk_test_verifier");
  const secret = { value: "" };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const body = await req.text();
    try {
      const signature = req.headers.get("stripe-signature") ?? "";
      const event = await verifier.webhooks.constructEventAsync(body, signature, secret.value);
      const status = answers.shift() ?? 200;
      if (status < 300) received.push({ event, at: Date.now() });
      return new Response(null, { status });
    } catch {
      rejected.push(body);
      return new Response(null, { status: 400 });
    }
  });
  return { received, rejected, answers, secret, server };
}

export async function startHarness(options: StripeStandInOptions = {}): Promise<Harness> {
  const { received, rejected, answers, secret, server: hook } = startReceiver();
  const standIn = await createStripeStandIn({
    port: 0,
    webhookUrl: `http://127.0.0.1:${hook.addr.port}/functions/v1/stripe-webhook`,
    retryDelaysMs: [50, 100, 200],
    quiet: true,
    ...options,
  });
  secret.value = standIn.webhookSecret;
  const stripe = clientFor(standIn);
  const control = (path: string, body?: unknown, method = body === undefined ? "GET" : "POST") =>
    fetch(`${standIn.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${standIn.secretKey}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const flush = async () => void await (await control("/__stripe/deliveries/flush", {})).body?.cancel();
  const h: Harness = {
    standIn,
    stripe,
    received,
    rejected,
    answers,
    control,
    flush,
    async advance(seconds) {
      const res = await control("/__stripe/clock/advance", { seconds });
      if (!res.ok) throw new Error(`advance: ${res.status} ${await res.text()}`);
      await res.body?.cancel();
      await flush();
    },
    pay: (url, number = "4242 4242 4242 4242") =>
      fetch(`${url}/pay`, {
        method: "POST",
        body: new URLSearchParams({ number, exp: "12 / 34", cvc: "123" }),
        redirect: "manual",
      }),
    async subscribed(number) {
      const customer = await stripe.customers.create({ email: `p${crypto.randomUUID().slice(0, 8)}@example.com` });
      const session = await stripe.checkout.sessions.create({
        mode: "subscription",
        customer: customer.id,
        line_items: [{ price: standIn.prices.creator, quantity: 1 }],
        success_url: "http://app.test/payment-success?session_id={CHECKOUT_SESSION_ID}",
        cancel_url: "http://app.test/payment-canceled",
      });
      const res = await h.pay(session.url!, number);
      await res.body?.cancel();
      if (res.status !== 303) throw new Error(`pay answered ${res.status}`);
      const [subscription] = (await stripe.subscriptions.list({ customer: customer.id })).data;
      await flush();
      return { customer, subscription };
    },
    types: () => received.map((r) => r.event.type),
    async close() {
      await standIn.close();
      await hook.shutdown();
    },
  };
  return h;
}

/** Runs `fn` with a fresh harness, closed afterwards. */
export async function withHarness(fn: (h: Harness) => Promise<void>, options?: StripeStandInOptions): Promise<void> {
  const h = await startHarness(options);
  try {
    await fn(h);
  } finally {
    await h.close();
  }
}
