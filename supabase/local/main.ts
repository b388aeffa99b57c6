// The local backend: serves, on one machine, the part of Supabase's HTTP and WebSocket surface this
// product uses (/auth/v1, /rest/v1, /storage/v1, /functions/v1, /realtime/v1/websocket) over embedded
// PGlite or a real Postgres, after applying the same migrations a hosted project gets.
import { loadConfig } from "./config.ts";
import { openDb } from "./db.ts";
import { bootstrap, migrate } from "./migrate.ts";
import { type Ctx, corsHeaders, json, type Service } from "./http.ts";
import { createAuth } from "./auth/auth.ts";
import { createMailbox } from "./auth/mailbox.ts";
import { createRest } from "./rest/rest.ts";
import { createStorage } from "./storage.ts";
import { createRealtime } from "./realtime.ts";
import { createFunctionsHost } from "./functions-host.ts";

const config = await loadConfig();
const log: Ctx["log"] = (msg, extra) => {
  if (!config.quiet) console.error(`[local] ${msg}${extra ? " " + JSON.stringify(extra) : ""}`);
};

const db = await openDb({
  dataDir: config.databaseUrl ? undefined : `${config.dataDir}/pgdata`,
  databaseUrl: config.databaseUrl ?? undefined,
});
await bootstrap(db);
const applied = await migrate(db, Deno.env.get("MIGRATIONS_DIR") ?? "supabase/migrations");
if (applied.length) log(`applied migrations: ${applied.join(", ")}`);

const ctx: Ctx = { config, db, log };
const realtime = await createRealtime(ctx);
const MAILBOX = "/_dev/mailbox";
const services: [string, Service][] = [
  ["/auth/v1", createAuth(ctx)],
  ["/rest/v1", createRest(ctx)],
  ["/storage/v1", createStorage(ctx)],
  ["/functions/v1", createFunctionsHost(ctx)],
  [MAILBOX, createMailbox(ctx)],
];

async function route(req: Request, info: { remoteAddr: string }): Promise<Response> {
  const url = new URL(req.url);
  if (url.pathname === "/health") return json({ status: "ok", database: db.kind });
  if (url.pathname === "/realtime/v1/websocket") return realtime.handle(req);
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
      if (!Deno.env.get("API_URL")) {
        config.publicUrl = `http://${hostname === "0.0.0.0" ? "127.0.0.1" : hostname}:${port}`;
        if (!Deno.env.get("SITE_URL") && !config.appPort) config.siteUrl = config.publicUrl;
        Deno.env.set("SUPABASE_URL", config.publicUrl);
      }
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
  async (req, info) => {
    // The mailbox holds live sign-in links: no other web origin may read it, so it gets no CORS at all.
    const path = new URL(req.url).pathname;
    const shared = path !== MAILBOX && !path.startsWith(MAILBOX + "/");
    if (req.method === "OPTIONS") {
      return new Response(null, { status: 204, headers: shared ? corsHeaders(req) : {} });
    }
    const remoteAddr = (info.remoteAddr as Deno.NetAddr).hostname ?? "";
    let res: Response;
    try {
      res = await route(req, { remoteAddr });
    } catch (e) {
      log("unhandled error", { error: String(e), stack: (e as Error)?.stack });
      res = json({ message: "Internal server error" }, 500);
    }
    if (res.status === 101 || !shared) return res; // websocket upgrade, or the mailbox
    const cors = corsHeaders(req);
    const headers = new Headers(res.headers);
    cors.forEach((v, k) => headers.set(k, v));
    return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
  },
);

let stopping = false;
async function shutdown() {
  if (stopping) return;
  stopping = true;
  await realtime.close();
  await server.shutdown();
  await db.close();
  Deno.exit(0);
}
Deno.addSignalListener("SIGINT", shutdown);
Deno.addSignalListener("SIGTERM", shutdown);
