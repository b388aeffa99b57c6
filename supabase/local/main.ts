// The local backend: serves, on one machine, the part of Supabase's HTTP and WebSocket surface this
// product uses (/auth/v1, /rest/v1, /storage/v1, /functions/v1, /realtime/v1/websocket) over embedded
// PGlite or a real Postgres, after applying the same migrations a hosted project gets.
import { loadConfig } from "./config.ts";
import { DatabaseUnavailable, openDb } from "./db.ts";
import { bootstrap, migrate, type SqlFile } from "./migrate.ts";
import { BodyUnreadable, corsHeaders, type Ctx, json, type Service } from "./http.ts";
import { createRenderPool, defaultPoolSize } from "./render-pool.ts";
import { createAuth } from "./auth/auth.ts";
import { createMailbox } from "./auth/mailbox.ts";
import { createRest } from "./rest/rest.ts";
import { createStorage } from "./storage/storage.ts";
import { createRealtime } from "./realtime/realtime.ts";
import { createFunctions } from "./functions/functions.ts";
import { createStripeStandIn, isStripePath } from "./stripe/stand-in.ts";

const config = await loadConfig();
const log: Ctx["log"] = (msg, extra) => {
  if (!config.quiet) console.error(`[local] ${msg}${extra ? " " + JSON.stringify(extra) : ""}`);
};

async function readMigrations(dir: string): Promise<SqlFile[]> {
  const files: SqlFile[] = [];
  for await (const e of Deno.readDir(dir)) {
    if (e.isFile && e.name.endsWith(".sql")) {
      files.push({ name: e.name, sql: await Deno.readTextFile(`${dir}/${e.name}`) });
    }
  }
  return files;
}

const db = await openDb({
  dataDir: config.databaseUrl ? undefined : `${config.dataDir}/pgdata`,
  databaseUrl: config.databaseUrl ?? undefined,
  poolSize: config.dbPoolSize,
});
await bootstrap(db, await Deno.readTextFile(new URL("./bootstrap.sql", import.meta.url)));
const applied = await migrate(db, await readMigrations(config.migrationsDir));
if (applied.length) log(`applied migrations: ${applied.join(", ")}`);

const ctx: Ctx = { config, db, log };
const renderPool = createRenderPool({ size: config.renderWorkers ?? defaultPoolSize() });
const MAILBOX = "/_dev/mailbox";

/**
 * What functions fetch with: a request to this backend's own URL is served in-process by `serve` below,
 * through the same gateway check, routes and database roles as one over the network, without a loopback
 * connection (HTTP framing, compression, an event-loop turn each way); anything else goes out as usual.
 */
const functionFetch: typeof fetch = (input, init) => {
  const req = new Request(input, init);
  if (new URL(req.url).origin !== new URL(config.publicUrl).origin) return fetch(req);
  return serve(req, { remoteAddr: "127.0.0.1" });
};

// The Stripe stand-in (decision 149), unless real keys are set or STRIPE_STANDIN=0: served on this port under
// Stripe's own paths; the functions get its keys, its prices and STRIPE_API_URL; its events come in-process.
const stripe = config.payments === "stand-in" ?
  await createStripeStandIn({
    publicUrl: () => config.publicUrl,
    stateFile: `${config.dataDir}/stripe-standin.json`,
    fetch: functionFetch,
    quiet: config.quiet,
  }) :
  null;
if (stripe) {
  const hostEnv = config.functionEnv;
  config.functionEnv = (name) => (stripe.env as Record<string, string | undefined>)[name] ?? hostEnv(name);
  log(
    "Stripe stand-in: test payments only (STRIPE_SECRET_KEY switches to Stripe, STRIPE_STANDIN=0 turns payments off)",
  );
}

const services: [string, Service][] = [
  ["/auth/v1", createAuth(ctx)],
  ["/rest/v1", createRest(ctx)],
  ["/storage/v1", createStorage(ctx)],
  ["/realtime/v1", await createRealtime(ctx)],
  [
    "/functions/v1",
    createFunctions(ctx, {
      render: renderPool.render,
      decode: renderPool.decode,
      classify: renderPool.classify,
      fetch: functionFetch,
      background: (work) => void work.catch((e) => log("function background work failed", { error: String(e) })),
    }),
  ],
  [MAILBOX, createMailbox(ctx)],
];

/**
 * Hosted Supabase's API gateway (Kong's key-auth) refuses a request that carries no API key, in the
 * `apikey` header or the `apikey` query parameter, before any service sees it. These are the routes it
 * leaves open: what a browser opens from an e-mail link or an <img>, and what checks its own token.
 */
function apiKeyOptional(path: string, method: string): boolean {
  const read = method === "GET" || method === "HEAD";
  if (path === "/health" || path === MAILBOX || path.startsWith(MAILBOX + "/")) return true;
  // Edge functions: the gateway passes them through; a function verifies the caller's JWT itself.
  if (path === "/functions/v1" || path.startsWith("/functions/v1/")) return true;
  if (["/auth/v1/verify", "/auth/v1/callback", "/auth/v1/authorize"].includes(path)) return true;
  return (
    read &&
    [
      "/storage/v1/object/public/",
      "/storage/v1/object/sign/",
      "/storage/v1/render/image/public/",
      "/storage/v1/render/image/sign/",
    ].some((prefix) => path.startsWith(prefix))
  );
}

/** The gateway's answer to a request with no API key, as hosted Supabase sends it. */
const NO_API_KEY = {
  message: "No API key found in request",
  hint: "No `apikey` request header or url param was found.",
};

/**
 * The gateway's answer to an API key that is not one of the project's: key-auth knows its consumers' keys
 * (anon and service_role) and refuses any other string, a JWT signed with the project's secret included.
 */
const INVALID_API_KEY = {
  message: "Invalid API key",
  hint: "Double check your Supabase `anon` or `service_role` API key.",
};

async function route(req: Request, info: { remoteAddr: string }): Promise<Response> {
  const url = new URL(req.url);
  if (url.pathname === "/health") return json({ status: "ok", database: db.kind });
  if (stripe && isStripePath(url.pathname)) return await stripe.handle(req);
  if (!apiKeyOptional(url.pathname, req.method)) {
    const key = req.headers.get("apikey")?.trim() || url.searchParams.get("apikey")?.trim();
    if (!key) return json(NO_API_KEY, 401);
    if (key !== config.anonKey && key !== config.serviceRoleKey) return json(INVALID_API_KEY, 401);
  }
  for (const [prefix, service] of services) {
    if (url.pathname === prefix || url.pathname.startsWith(prefix + "/")) {
      return await service(req, url.pathname.slice(prefix.length), info);
    }
  }
  return json({ message: "no route for " + url.pathname }, 404);
}

const server = Deno.serve(
  {
    port: config.apiPort,
    hostname: config.host,
    onListen: ({ port, hostname }) => {
      // With API_PORT=0 the real port is known only now: links, token issuer and functions follow it.
      if (!config.publicUrlFixed) {
        config.publicUrl = `http://${hostname === "0.0.0.0" ? "127.0.0.1" : hostname}:${port}`;
        if (!config.siteUrlFixed && !config.appPort) config.siteUrl = config.publicUrl;
      }
      exportPlatformEnv();
      const apiUrl = config.publicUrl;
      // One machine-readable line for the start script and the test harness.
      console.log(
        JSON.stringify({
          event: "ready",
          apiUrl,
          anonKey: config.anonKey,
          serviceRoleKey: config.serviceRoleKey,
          database: db.kind,
        }),
      );
    },
  },
  (req, info) => serve(req, { remoteAddr: (info.remoteAddr as Deno.NetAddr).hostname ?? "" }),
);

/** Every request, from the network or from a function (functionFetch): CORS, the route, its failures. */
async function serve(req: Request, info: { remoteAddr: string }): Promise<Response> {
  // The mailbox holds live sign-in links: no other web origin may read it, so it gets no CORS at all.
  const path = new URL(req.url).pathname;
  const shared = path !== MAILBOX && !path.startsWith(MAILBOX + "/");
  if (req.method === "OPTIONS") {
    return new Response(null, { status: 204, headers: shared ? corsHeaders(req) : {} });
  }
  let res: Response;
  try {
    res = await route(req, info);
  } catch (e) {
    if (e instanceof DatabaseUnavailable) {
      // The embedded database is being re-opened (db.ts): a retry shortly after will be served.
      res = json({ message: e.message, code: e.code }, 503, { "Retry-After": "1" });
    } else if (e instanceof BodyUnreadable) {
      res = json({ message: "Could not read the request body" }, 400);
    } else {
      log("unhandled error", { error: String(e), stack: (e as Error)?.stack });
      res = json({ message: "Internal server error" }, 500);
    }
  }
  if (res.status === 101 || !shared) return res; // websocket upgrade, or the mailbox
  const cors = corsHeaders(req);
  const headers = new Headers(res.headers);
  // Vary adds to what the route said (an image transformation varies by Accept as well).
  cors.forEach((v, k) => (k === "vary" && headers.has(k) ? headers.append(k, v) : headers.set(k, v)));
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
}

// Functions written to read the platform's variables themselves (rather than through createDeps)
// find them in the process environment, as on the edge runtime.
function exportPlatformEnv(): void {
  Deno.env.set("SUPABASE_URL", config.publicUrl);
  Deno.env.set("SUPABASE_ANON_KEY", config.anonKey);
  Deno.env.set("SUPABASE_SERVICE_ROLE_KEY", config.serviceRoleKey);
  if (config.databaseUrl) Deno.env.set("SUPABASE_DB_URL", config.databaseUrl);
}

let stopping = false;
async function shutdown() {
  if (stopping) return;
  stopping = true;
  for (const [, service] of services) await service.close?.();
  await stripe?.close();
  await renderPool.close();
  await server.shutdown();
  await db.close();
  Deno.exit(0);
}
Deno.addSignalListener("SIGINT", shutdown);
Deno.addSignalListener("SIGTERM", shutdown);
