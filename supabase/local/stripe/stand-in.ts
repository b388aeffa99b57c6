// A local Stripe stand-in, built from Stripe's published contract (its OpenAPI description and docs) the way
// the image-provider fakes are: the API paths `/v1/...` the server's `stripe` library calls (form-encoded
// params, Bearer secret key, Idempotency-Key, Stripe-Version), its hosted pages under `/stripe/...`, and
// stand-in-only controls under `/__stripe/...` (clock, webhook faults, deliveries). It never runs where real
// keys are set (supabase/local/config.ts decides). Decision record 149.
import { type BillingCtx, processDue } from "./billing.ts";
import { BodyTooLarge, readBody } from "../http.ts";
import { invalid, StripeError } from "./errors.ts";
import { FormShapeError, type Params, parseForm } from "./form.ts";
import { API_VERSION, createProductAndPrice, PLANS } from "./objects.ts";
import { servePage } from "./pages.ts";
import * as r from "./resources.ts";
import { newId, openStore, type Store } from "./store.ts";
import { createWebhooks, type Faults, type Webhooks } from "./webhooks.ts";

export interface StripeStandInOptions {
  /** Listen on this 127.0.0.1 port (0: any free one); omit when another server mounts `handle`. */
  port?: number;
  /** Base of the URLs it hands out (pages, STRIPE_API_URL); default its own listen URL. */
  publicUrl?: string | (() => string);
  /** Where events are POSTed; default `<publicUrl>/functions/v1/stripe-webhook`; null: nowhere. */
  webhookUrl?: string | null | (() => string | null);
  /** JSON file the state is kept in; omitted: memory only. */
  stateFile?: string;
  secretKey?: string;
  webhookSecret?: string;
  /** What webhooks are POSTed with (default: global fetch). */
  fetch?: typeof fetch;
  /** Waits before each retry of an event the endpoint did not take (ms). */
  retryDelaysMs?: number[];
  quiet?: boolean;
}

export interface StripeStandIn {
  url: string;
  secretKey: string;
  webhookSecret: string;
  prices: { creator: string; pro: string };
  /** STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_PRICE_CREATOR, STRIPE_PRICE_PRO, STRIPE_API_URL. */
  readonly env: Record<string, string>;
  handle(req: Request): Promise<Response>;
  close(): Promise<void>;
}

export const DEFAULT_RETRY_DELAYS_MS = [1000, 2000, 4000, 8000, 16000];

/** Is this path the stand-in's (API, pages or controls)? */
export const isStripePath = (path: string) => /^\/(v1|stripe|__stripe)(\/|$)/.test(path);

type Route = [method: string, pattern: RegExp, endpoint: r.Endpoint];
const ID = "([A-Za-z0-9_]+)";
const ROUTES: Route[] = [
  ["GET", /^\/v1\/products$/, r.listProducts],
  ["GET", new RegExp(`^/v1/products/${ID}$`), r.getProduct],
  ["GET", /^\/v1\/prices$/, r.listPrices],
  ["GET", new RegExp(`^/v1/prices/${ID}$`), r.getPrice],
  ["POST", /^\/v1\/customers$/, r.createCustomer],
  ["GET", /^\/v1\/customers$/, r.listCustomers],
  ["GET", /^\/v1\/customers\/search$/, r.searchCustomers],
  ["GET", new RegExp(`^/v1/customers/${ID}$`), r.getCustomer],
  ["POST", new RegExp(`^/v1/customers/${ID}$`), r.updateCustomer],
  ["DELETE", new RegExp(`^/v1/customers/${ID}$`), r.deleteCustomer],
  ["POST", /^\/v1\/checkout\/sessions$/, r.createSession],
  ["GET", /^\/v1\/checkout\/sessions$/, r.listSessions],
  ["GET", new RegExp(`^/v1/checkout/sessions/${ID}$`), r.getSession],
  ["GET", new RegExp(`^/v1/checkout/sessions/${ID}/line_items$`), r.sessionLineItems],
  ["POST", new RegExp(`^/v1/checkout/sessions/${ID}/expire$`), r.expireSession],
  ["GET", /^\/v1\/subscriptions$/, r.listSubscriptions],
  ["GET", new RegExp(`^/v1/subscriptions/${ID}$`), r.getSubscription],
  ["POST", new RegExp(`^/v1/subscriptions/${ID}$`), r.updateSubscription],
  ["DELETE", new RegExp(`^/v1/subscriptions/${ID}$`), r.deleteSubscription],
  ["POST", /^\/v1\/billing_portal\/sessions$/, r.createPortalSession],
  ["GET", /^\/v1\/invoices$/, r.listInvoices],
  ["GET", new RegExp(`^/v1/invoices/${ID}$`), r.getInvoice],
  ["GET", /^\/v1\/events$/, r.listEvents],
  ["GET", new RegExp(`^/v1/events/${ID}$`), r.getEvent],
];

function stripeJson(body: unknown, status: number, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body, null, 2), {
    status,
    headers: { "content-type": "application/json", "cache-control": "no-cache, no-store", ...headers },
  });
}

const errorResponse = (e: StripeError, headers: Record<string, string> = {}) => stripeJson(e.body(), e.status, headers);

const unauthenticated = (message: string) => new StripeError(401, "invalid_request_error", message);

/** The secret key of a request: Bearer, or Basic with the key as user name (both are Stripe's). */
function keyOf(req: Request): string | null {
  const auth = req.headers.get("authorization") ?? "";
  const bearer = /^Bearer\s+(\S+)$/i.exec(auth);
  if (bearer) return bearer[1];
  const basic = /^Basic\s+(\S+)$/i.exec(auth);
  if (!basic) return null;
  try {
    return atob(basic[1]).split(":")[0] || null;
  } catch {
    return null;
  }
}

function checkKey(req: Request, store: Store): void {
  const key = keyOf(req);
  if (!key) {
    throw unauthenticated(
      "You did not provide an API key. Send your secret key in the Authorization header as a Bearer token.",
    );
  }
  if (key !== store.state.secretKey) {
    const shown = key.length > 12 ?
      `${key.slice(0, 8)}${"*".repeat(Math.min(key.length - 12, 24))}${key.slice(-4)}` :
      "****";
    throw unauthenticated(`Invalid API Key provided: ${shown}`);
  }
}

/** Stripe takes request bodies up to about a megabyte. */
const MAX_BODY_BYTES = 1_000_000;

async function bodyText(req: Request): Promise<string> {
  try {
    return new TextDecoder().decode(await readBody(req, MAX_BODY_BYTES));
  } catch (e) {
    if (e instanceof BodyTooLarge) {
      throw new StripeError(413, "invalid_request_error", "The request body is too large.");
    }
    throw e;
  }
}

async function paramsOf(req: Request, url: URL): Promise<Params> {
  try {
    if (req.method === "GET" || req.method === "DELETE") {
      const fromQuery = parseForm(url.search.slice(1));
      const text = req.method === "DELETE" ? await bodyText(req) : "";
      return text ? { ...fromQuery, ...parseForm(text) } : fromQuery;
    }
    const text = await bodyText(req);
    const type = req.headers.get("content-type") ?? "";
    if (text && !type.startsWith("application/x-www-form-urlencoded")) {
      throw invalid("Invalid request: the body must be form-encoded (application/x-www-form-urlencoded).");
    }
    return parseForm(text);
  } catch (e) {
    if (e instanceof FormShapeError) throw invalid(e.message, e.key);
    throw e;
  }
}

const VERSION = /^\d{4}-\d{2}-\d{2}(\.[a-z]+)?$/;

interface Inner {
  store: Store;
  hooks: Webhooks;
  c: BillingCtx;
  log: (msg: string) => void;
}

/** One API request: key, version, params, idempotency, the endpoint, its events sent. */
async function api(x: Inner, req: Request, url: URL): Promise<Response> {
  const requestId = newId("req", 14);
  const base: Record<string, string> = { "request-id": requestId, "stripe-version": API_VERSION };
  try {
    checkKey(req, x.store);
    const version = req.headers.get("stripe-version");
    if (version !== null && !VERSION.test(version)) throw invalid(`Invalid Stripe API version: ${version}`);
    if (version) base["stripe-version"] = version;
    const route = ROUTES.find(([m, p]) => m === req.method && p.test(url.pathname));
    if (!route) {
      throw new StripeError(404, "invalid_request_error", `Unrecognized request URL (${req.method}: ${url.pathname}).`);
    }
    const params = await paramsOf(req, url);
    const id = route[1].exec(url.pathname)![1] ?? "";
    const key = req.method === "GET" ? null : req.headers.get("idempotency-key");
    if (key === null) return run(x, route[2], params, id, requestId, null, base);
    return await idempotent(
      x,
      { key, route: `${req.method} ${url.pathname}`, params },
      () => run(x, route[2], params, id, requestId, key, { ...base, "idempotency-key": key }),
    );
  } catch (e) {
    if (e instanceof StripeError) return errorResponse(e, base);
    throw e;
  }
}

function run(
  x: Inner,
  endpoint: r.Endpoint,
  params: Params,
  id: string,
  requestId: string,
  key: string | null,
  headers: Record<string, string>,
): Response {
  try {
    return stripeJson(endpoint(x.c, params, id), 200, headers);
  } catch (e) {
    if (e instanceof StripeError) return errorResponse(e, headers);
    throw e;
  } finally {
    x.hooks.dispatch({ id: requestId, idempotencyKey: key });
  }
}

const DAY_MS = 86_400_000;

/** Stripe's idempotency: the first answer to a key is replayed; the key with other params is refused. */
async function idempotent(
  x: Inner,
  req: { key: string; route: string; params: Params },
  execute: () => Response,
): Promise<Response> {
  if (req.key.length > 255) throw invalid("Idempotency keys can be at most 255 characters long.", "idempotency_key");
  const saved = x.store.state.idempotency;
  for (const [k, v] of Object.entries(saved)) if (Date.now() - v.at > DAY_MS) delete saved[k];
  const params = JSON.stringify(req.params);
  const before = saved[req.key];
  if (before) {
    if (before.route !== req.route || before.params !== params) {
      throw new StripeError(
        400,
        "idempotency_error",
        `Keys for idempotent requests can only be used with the same parameters they were first used with. ` +
          `Use a key other than '${req.key}' for a different request.`,
      );
    }
    return new Response(before.body, {
      status: before.status,
      headers: { "content-type": "application/json", "idempotent-replayed": "true", "idempotency-key": req.key },
    });
  }
  const res = execute();
  const body = await res.text();
  saved[req.key] = { key: req.key, route: req.route, params, status: res.status, body, at: Date.now() };
  x.store.changed();
  return new Response(body, { status: res.status, headers: res.headers });
}

/** Faults as a control request gives them, checked. */
function faultsOf(body: unknown): Faults {
  if (!body || typeof body !== "object" || Array.isArray(body)) throw invalid("The body must be a JSON object.");
  const f: Faults = {};
  for (const [k, v] of Object.entries(body)) {
    if (k === "drop" || k === "duplicate" || k === "reorder") {
      if (typeof v !== "boolean") throw invalid(`${k} must be true or false.`, k);
      if (v) f[k] = true;
    } else if (k === "delay_ms" || k === "count") {
      if (!Number.isInteger(v) || (v as number) < 0 || (v as number) > 3_600_000) {
        throw invalid(`${k} must be a whole number from 0.`, k);
      }
      f[k] = v as number;
    } else throw invalid(`Received unknown parameter: ${k}`, k);
  }
  return f;
}

async function jsonBody(req: Request): Promise<unknown> {
  const text = await bodyText(req);
  try {
    return text ? JSON.parse(text) : {};
  } catch {
    throw invalid("The body is not JSON.");
  }
}

/** The stand-in-only controls: the clock, faults, deliveries. */
async function controls(x: Inner, req: Request, path: string): Promise<Response> {
  try {
    checkKey(req, x.store);
    const at = `${req.method} ${path}`;
    if (at === "GET /__stripe/clock") return stripeJson({ now: x.store.now() }, 200);
    if (at === "POST /__stripe/clock/advance") {
      const { seconds } = (await jsonBody(req)) as { seconds?: unknown };
      if (!Number.isInteger(seconds) || (seconds as number) <= 0 || (seconds as number) > 10 * 366 * 86_400) {
        throw invalid("seconds must be a whole number from 1 to ten years.", "seconds");
      }
      x.store.state.clockOffset += seconds as number;
      x.store.changed();
      processDue(x.c);
      x.hooks.dispatch();
      return stripeJson({ now: x.store.now() }, 200);
    }
    if (at === "GET /__stripe/faults") return stripeJson({ faults: x.hooks.faults }, 200);
    if (at === "POST /__stripe/faults") {
      x.hooks.faults = faultsOf(await jsonBody(req));
      return stripeJson({ faults: x.hooks.faults }, 200);
    }
    if (at === "GET /__stripe/deliveries") return stripeJson({ data: x.hooks.deliveries }, 200);
    if (at === "POST /__stripe/deliveries/flush") {
      await x.hooks.idle();
      return stripeJson({ data: x.hooks.deliveries }, 200);
    }
    throw new StripeError(404, "invalid_request_error", `Unrecognized request URL (${at}).`);
  } catch (e) {
    if (e instanceof StripeError) return errorResponse(e);
    throw e;
  }
}

/** The two plans' prices (made once; kept in the state file, so their ids survive a restart). */
function ensurePrices(store: Store): void {
  for (const plan of PLANS) {
    const id = store.state.prices[plan.key];
    if (id && store.get(id)?.object === "price") continue;
    store.state.prices[plan.key] = createProductAndPrice(store, plan).price.id;
  }
  store.changed();
}

export async function createStripeStandIn(options: StripeStandInOptions = {}): Promise<StripeStandIn> {
  const store = await openStore(options.stateFile, options);
  ensurePrices(store);
  const log = (msg: string) => {
    if (!options.quiet) console.error(`[stripe stand-in] ${msg}`);
  };
  let server: Deno.HttpServer | undefined;
  let ownUrl = "";
  const publicUrl = () => typeof options.publicUrl === "function" ? options.publicUrl() : options.publicUrl ?? ownUrl;
  const webhookUrl = () => {
    const w = options.webhookUrl;
    if (w === null) return null;
    if (w !== undefined) return typeof w === "function" ? w() : w;
    return `${publicUrl()}/functions/v1/stripe-webhook`;
  };
  const hooks = createWebhooks({
    store,
    url: webhookUrl,
    fetch: options.fetch ?? fetch,
    retryDelaysMs: options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
    log,
  });
  const c: BillingCtx = { store, hooks, publicUrl };
  const x: Inner = { store, hooks, c, log };

  async function handle(req: Request): Promise<Response> {
    const url = new URL(req.url);
    const path = url.pathname;
    if (path.startsWith("/v1/") || path === "/v1") return await api(x, req, url);
    if (path.startsWith("/__stripe/")) return await controls(x, req, path);
    if (path.startsWith("/stripe/")) {
      const res = await servePage(c, req, path);
      hooks.dispatch({ id: newId("req", 14), idempotencyKey: null });
      return res;
    }
    return errorResponse(
      new StripeError(404, "invalid_request_error", `Unrecognized request URL (${req.method}: ${path}).`),
    );
  }

  // Real time passes too: what falls due without a clock advance is done within a few seconds.
  const tick = setInterval(() => {
    processDue(c);
    hooks.dispatch();
  }, 5000);

  if (options.port !== undefined) {
    server = Deno.serve({ hostname: "127.0.0.1", port: options.port, onListen: () => {} }, handle);
    ownUrl = `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`;
  }
  return {
    get url() {
      return publicUrl();
    },
    secretKey: store.state.secretKey,
    webhookSecret: store.state.webhookSecret,
    prices: { ...store.state.prices },
    get env() {
      return {
        STRIPE_SECRET_KEY: store.state.secretKey,
        STRIPE_WEBHOOK_SECRET: store.state.webhookSecret,
        STRIPE_PRICE_CREATOR: store.state.prices.creator,
        STRIPE_PRICE_PRO: store.state.prices.pro,
        STRIPE_API_URL: publicUrl(),
      };
    },
    handle,
    async close() {
      clearInterval(tick);
      hooks.close();
      await hooks.idle();
      await server?.shutdown();
      await store.flush();
    },
  };
}
