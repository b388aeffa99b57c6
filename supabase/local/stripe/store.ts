// The stand-in's state: every Stripe object it holds (as the JSON it answers), the test cards customers
// gave, idempotent answers, the stand-in clock's offset from real time, and its keys. Kept in one JSON file
// (written after each change, atomically) so a restart of the backend keeps every subscription.

import type { LineSpec } from "./objects.ts";

export type Obj = Record<string, unknown> & { id: string; object: string; created: number };

/** A card given on a stand-in page: what a payment with it does. */
export interface Card {
  pm: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  /** Renewals (off-session payments) fail, as Stripe's 4000 0000 0000 0341 does. */
  failsRenewal: boolean;
}

export interface IdempotentAnswer {
  key: string;
  route: string;
  params: string;
  status: number;
  body: string;
  at: number;
}

export interface State {
  version: 1;
  secretKey: string;
  webhookSecret: string;
  /** Seconds the stand-in clock is ahead of real time. */
  clockOffset: number;
  prices: { creator: string; pro: string };
  objects: Record<string, Obj>;
  cards: Record<string, Card>;
  idempotency: Record<string, IdempotentAnswer>;
  /** Next invoice number per customer. */
  invoiceSeq: Record<string, number>;
  /** Prorations of plan switches, per subscription, waiting for its next invoice. */
  prorations: Record<string, LineSpec[]>;
  /** A checkout session's line items (Stripe answers them only when asked: `expand[]=line_items`). */
  lineItems: Record<string, Obj[]>;
}

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Random base-62 text of `n` characters. */
export function randomText(n: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(n));
  return Array.from(bytes, (b) => ALPHABET[b % 62]).join("");
}

/** A Stripe-like id: `cus_…`, `sub_…`, `cs_test_…`. */
export const newId = (prefix: string, length = 24) => `${prefix}_${randomText(length)}`;

export function emptyState(secretKey?: string, webhookSecret?: string): State {
  return {
    version: 1,
    secretKey: secretKey ?? `sk_test_standin_${randomText(32)}`,
    webhookSecret: webhookSecret ?? `whsec_${randomText(32)}`,
    clockOffset: 0,
    prices: { creator: "", pro: "" },
    objects: {},
    cards: {},
    idempotency: {},
    invoiceSeq: {},
    lineItems: {},
    prorations: {},
  };
}

export interface Store {
  state: State;
  /** Stand-in clock, unix seconds. */
  now(): number;
  get(id: string): Obj | undefined;
  put(o: Obj): Obj;
  /** Objects of one `object` type, newest first. */
  all(object: string): Obj[];
  /** Marks the state changed: it is written to the file shortly. */
  changed(): void;
  flush(): Promise<void>;
}

async function readState(file: string): Promise<State | null> {
  try {
    const parsed = JSON.parse(await Deno.readTextFile(file)) as State;
    return parsed.version === 1 ? parsed : null;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return null;
    throw new Error(`the Stripe stand-in's state file ${file} cannot be read: ${e}`, { cause: e });
  }
}

export async function openStore(
  file: string | undefined,
  keys: { secretKey?: string; webhookSecret?: string },
): Promise<Store> {
  const loaded = file ? await readState(file) : null;
  const state = loaded ?? emptyState(keys.secretKey, keys.webhookSecret);
  state.prorations ??= {};
  if (keys.secretKey) state.secretKey = keys.secretKey;
  if (keys.webhookSecret) state.webhookSecret = keys.webhookSecret;
  let writing: Promise<void> = Promise.resolve();
  let dirty = false;
  const write = async () => {
    if (!file || !dirty) return;
    dirty = false;
    const tmp = `${file}.tmp`;
    await Deno.writeTextFile(tmp, JSON.stringify(state), { mode: 0o600 });
    await Deno.rename(tmp, file);
  };
  const store: Store = {
    state,
    now: () => Math.floor(Date.now() / 1000) + state.clockOffset,
    get: (id) => state.objects[id],
    put: (o) => {
      state.objects[o.id] = o;
      store.changed();
      return o;
    },
    // Newest first; objects made in the same second in reverse order of making (the file keeps key order).
    all: (object) =>
      Object.values(state.objects).filter((o) => o.object === object).reverse()
        .sort((a, b) => b.created - a.created),
    changed: () => {
      if (dirty || !file) return;
      dirty = true;
      writing = writing.then(() => new Promise((r) => setTimeout(r, 20))).then(write);
    },
    flush: async () => {
      await writing;
      await write();
    },
  };
  if (!loaded) store.changed();
  return store;
}
