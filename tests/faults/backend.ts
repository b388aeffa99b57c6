// The fault harness's own servers: the built app (scripts/serve-app.mjs, in this process), the local
// backend (Deno, spawned here so it can be SIGKILLed and started again on the same port and data
// directory, which is what `node scripts/start.mjs` does minus the part that stops everything when the
// backend dies) and a fake OpenAI-style image provider whose next answers the harness chooses
// (429, 500, a hang past the provider timeout, or an image). Nothing here edits the product.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { encode } from "fast-png";
import { buildApp, describeBuild, ROOT } from "../../scripts/build.mjs";
import { denoPath } from "../../scripts/deno-path.mjs";
import { createAppServer } from "../../scripts/serve-app.mjs";

/** How many of the backend's last stderr lines a violation may quote. */
const TAIL_LINES = 20;

export type ProviderMode = "ok" | "429" | "500" | "hang";

export type Servers = {
  appUrl: string;
  apiUrl: string;
  anonKey: string;
  serviceKey: string;
  dataDir: string;
  jwtSecret: string;
  /** The provider's next answers, consumed one per request; empty means images. */
  providerPlan: ProviderMode[];
  /** Provider requests seen, by mode answered. */
  providerSeen: Record<ProviderMode, number>;
  killBackend(): Promise<void>;
  startBackend(): Promise<void>;
  backendAlive(): boolean;
  /** The backend's last lines on stderr and how its last process ended (for a violation's detail). */
  backendTail(): string;
  close(): Promise<void>;
};

export type ServerOptions = { port: number; apiPort: number; providerPort: number; log?: (line: string) => void };

/** A small valid PNG (the function sniffs the bytes it stores). */
function samplePng(): Buffer {
  const w = 64;
  const h = 64;
  const data = new Uint8Array(w * h * 3);
  for (let i = 0; i < data.length; i += 3) {
    data[i] = (i / 3) % 256;
    data[i + 1] = 128;
    data[i + 2] = 200;
  }
  return Buffer.from(encode({ width: w, height: h, data, channels: 3, depth: 8 }));
}

function startProvider(port: number, servers: Pick<Servers, "providerPlan" | "providerSeen">): Promise<Server> {
  const b64 = samplePng().toString("base64");
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const mode = servers.providerPlan.shift() ?? "ok";
      servers.providerSeen[mode] += 1;
      if (mode === "hang") {
        // Answers long after the provider timeout; the function has given up by then.
        const timer = setTimeout(() => res.destroy(), 30_000);
        res.on("close", () => clearTimeout(timer));
        return;
      }
      if (mode === "429") {
        res.writeHead(429, { "content-type": "application/json", "retry-after": "1" });
        res.end(JSON.stringify({ error: { message: "Rate limit reached", type: "rate_limit" } }));
        return;
      }
      if (mode === "500") {
        res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: "The server had an error", type: "server_error" } }));
        return;
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ created: Math.floor(Date.now() / 1000), data: [{ b64_json: b64 }] }));
    });
  });
  return new Promise((ok, fail) => {
    server.once("error", fail);
    server.listen(port, "127.0.0.1", () => ok(server));
  });
}

/** Builds the app into dist-faults, or FAULTS_DIST_DIR (only when an input changed), and starts everything. */
export async function startServers(opts: ServerOptions): Promise<Servers> {
  const log = opts.log ?? (() => undefined);
  const dist = resolve(ROOT, process.env.FAULTS_DIST_DIR ?? "dist-faults");
  log(describeBuild(await buildApp({ root: ROOT, dist }), dist, ROOT));
  const dataDir = mkdtempSync(join(tmpdir(), "promptcanvas-faults-"));
  const appUrl = `http://127.0.0.1:${opts.port}`;
  const state: Pick<Servers, "providerPlan" | "providerSeen"> = {
    providerPlan: [],
    providerSeen: { ok: 0, "429": 0, "500": 0, hang: 0 },
  };
  const provider = await startProvider(opts.providerPort, state);

  let backend: ChildProcess | null = null;
  const tail: string[] = [];
  let ready: { apiUrl: string; anonKey: string; serviceRoleKey: string } | null = null;

  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    API_PORT: String(opts.apiPort),
    PORT: String(opts.port),
    HOST: "127.0.0.1",
    SITE_URL: appUrl,
    QUIET: "1",
    RENDER_WORKERS: "1",
    AUTH_RATE_LIMIT_SIGN_IN_SIGN_UPS: "1000000",
    AUTH_RATE_LIMIT_TOKEN_REFRESH: "1000000",
    AUTH_RATE_LIMIT_TOKEN_VERIFICATIONS: "1000000",
    AUTH_RATE_LIMIT_EMAIL_SENT: "1000000",
    AUTH_RATE_LIMIT_BURST: "1000000",
    // Every generation goes to the fake provider (an OpenAI-style images API), which the harness steers.
    OPENAI_API_KEY: "fault-harness",
    OPENAI_BASE_URL: `http://127.0.0.1:${opts.providerPort}/v1`,
    OPENAI_IMAGE_MODEL: "dall-e-3",
    DEFAULT_PROVIDER: "openai",
    PROVIDER_TIMEOUT_MS: "2500",
  };

  async function startBackend(): Promise<void> {
    const child = spawn(denoPath(), ["run", "-A", "supabase/local/main.ts"], {
      cwd: ROOT,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    backend = child;
    // However this process ends, the backend it started ends with it (its port is reused next run).
    const reap = () => child.kill("SIGKILL");
    process.once("exit", reap);
    child.once("exit", () => process.off("exit", reap));
    createInterface({ input: child.stderr! }).on("line", (line) => {
      log(`[backend] ${line}`);
      tail.push(line.slice(0, 300));
      if (tail.length > TAIL_LINES) tail.shift();
    });
    child.once("exit", (code, signal) => tail.push(`(the backend exited: ${signal ?? code})`));
    ready = await new Promise((ok, fail) => {
      const timer = setTimeout(() => fail(new Error("the backend did not start within 120 s")), 120_000);
      child.once("exit", (code) => {
        clearTimeout(timer);
        fail(new Error(`the backend exited (${code}) before it was ready`));
      });
      createInterface({ input: child.stdout! }).on("line", (line) => {
        try {
          const msg = JSON.parse(line) as { event?: string; apiUrl: string; anonKey: string; serviceRoleKey: string };
          if (msg.event === "ready") {
            clearTimeout(timer);
            ok(msg);
          }
        } catch {
          log(`[backend] ${line}`);
        }
      });
    });
  }

  async function killBackend(): Promise<void> {
    const child = backend;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((done) => {
      child.once("exit", () => done());
      child.kill("SIGKILL");
    });
    backend = null;
  }

  await startBackend();
  const r = ready!;
  const app = createAppServer({
    distDir: dist,
    appConfig: { supabaseUrl: r.apiUrl, supabaseAnonKey: r.anonKey, productionHost: "promptcanvas.app" },
  });
  await new Promise<void>((ok, fail) => {
    app.once("error", fail);
    app.listen(opts.port, "127.0.0.1", () => ok());
  });

  const servers: Servers = {
    appUrl,
    apiUrl: r.apiUrl,
    anonKey: r.anonKey,
    serviceKey: r.serviceRoleKey,
    dataDir,
    jwtSecret: readFileSync(join(dataDir, "jwt-secret"), "utf8").trim(),
    providerPlan: state.providerPlan,
    providerSeen: state.providerSeen,
    killBackend,
    startBackend,
    backendAlive: () => backend !== null && backend.exitCode === null && backend.signalCode === null,
    backendTail: () => tail.join("\n") || "(nothing on stderr)",
    async close() {
      app.closeAllConnections?.();
      await new Promise((done) => app.close(done));
      provider.closeAllConnections?.();
      await new Promise((done) => provider.close(done));
      const child = backend;
      if (child && child.exitCode === null && child.signalCode === null) {
        await new Promise<void>((done) => {
          const t = setTimeout(() => {
            child.kill("SIGKILL");
          }, 5000);
          child.once("exit", () => {
            clearTimeout(t);
            done();
          });
          child.kill("SIGTERM");
        });
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return servers;
}
