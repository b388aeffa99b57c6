// A deployment of its own whose engines are self-hosted: the function tier's AUTOMATIC1111 and ComfyUI
// contract fakes (tests/functions/fakes, run by Deno, each behind a recorder on a fixed port) and
// `node scripts/start.mjs` (the built app plus the local backend, on ports of its own and an empty data
// directory) with A1111_URL and COMFYUI_URL pointing at them and every other engine's variable blanked.
// The app is served from the build the shared e2e web server made (dist/, SKIP_BUILD=1). Nothing here
// edits the product; close() stops what start() started.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";
import { HOSTED_ENGINES_OFF } from "../../support/backend.ts";

const ROOT = resolve(fileURLToPath(new URL("../../..", import.meta.url)));
const DENO = join(ROOT, "node_modules", ".bin", "deno");
const fake = (name: string) => pathToFileURL(join(ROOT, "tests", "functions", "fakes", name)).href;

/**
 * The Deno program (`deno eval`) that starts both fakes and a recorder in front of each on its fixed port.
 * A recorder forwards every request to its fake unchanged and keeps what it saw (method, path, JSON body,
 * when it arrived and when it was answered, the status), so the journey can count the calls and how many
 * were in flight at once: `GET /__e2e/log` answers that record. It prints `{"event":"ready"}` once both
 * listen; SIGTERM stops it. Inline, not a file: the fakes are Deno code that neither the Node type check
 * (tsconfig includes tests/e2e) nor Knip's unused-file check (nothing imports a spawned file) should read.
 */
function fakesProgram(ports: { a1111: number; comfyui: number }, a1111DelayMs: number): string {
  return `
import { startA1111Fake } from ${JSON.stringify(fake("a1111-fake.ts"))};
import { startComfyFake } from ${JSON.stringify(fake("comfyui-fake.ts"))};

function recorder(port, target) {
  const log = { requests: [], inFlight: 0, maxInFlight: 0 };
  return Deno.serve({ hostname: "127.0.0.1", port, onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/__e2e/log") {
      return new Response(JSON.stringify(log), { headers: { "content-type": "application/json" } });
    }
    const body = req.method === "GET" || req.method === "HEAD" ? null : new Uint8Array(await req.arrayBuffer());
    let parsed = null;
    if (body && (req.headers.get("content-type") ?? "").startsWith("application/json")) {
      try {
        parsed = JSON.parse(new TextDecoder().decode(body));
      } catch {
        parsed = null;
      }
    }
    const entry = { method: req.method, path: url.pathname + url.search, body: parsed, startedAt: Date.now(), endedAt: null, status: null };
    log.requests.push(entry);
    log.inFlight += 1;
    log.maxInFlight = Math.max(log.maxInFlight, log.inFlight);
    try {
      const headers = new Headers(req.headers);
      headers.delete("host");
      headers.delete("content-length");
      const answer = await fetch(target + url.pathname + url.search, { method: req.method, headers, body, signal: req.signal });
      const bytes = await answer.arrayBuffer();
      entry.status = answer.status;
      return new Response(bytes, { status: answer.status, headers: answer.headers });
    } catch (e) {
      entry.status = 502;
      return new Response("recorder: " + (e instanceof Error ? e.message : String(e)), { status: 502 });
    } finally {
      entry.endedAt = Date.now();
      log.inFlight -= 1;
    }
  });
}

// The WebUI's call blocks while it draws: held long enough that two calls sent together overlap.
const a1111 = startA1111Fake({ delayMs: ${a1111DelayMs} });
const comfy = startComfyFake({});
const servers = [recorder(${ports.a1111}, a1111.url), recorder(${ports.comfyui}, comfy.url)];
async function stop() {
  await Promise.allSettled([...servers.map((s) => s.shutdown()), a1111.close(), comfy.close()]);
  Deno.exit(0);
}
Deno.addSignalListener("SIGTERM", stop);
Deno.addSignalListener("SIGINT", stop);
console.log(JSON.stringify({ event: "ready" }));
`;
}

export type SelfHostedPorts = { app: number; api: number; a1111: number; comfyui: number };

/** One request a fake received, as its recorder saw it. */
export type FakeCall = {
  method: string;
  path: string;
  body: Record<string, unknown> | null;
  startedAt: number;
  endedAt: number | null;
  status: number | null;
};
export type FakeLog = { requests: FakeCall[]; inFlight: number; maxInFlight: number };

export type SelfHosted = {
  appUrl: string;
  a1111Url: string;
  comfyuiUrl: string;
  /** What a fake's recorder saw so far. */
  fakeLog(url: string): Promise<FakeLog>;
  close(): Promise<void>;
};

function waitForLine(child: ChildProcess, what: string, match: (line: string) => boolean, ms: number): Promise<void> {
  return new Promise((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`${what} did not start within ${ms / 1000} s`)), ms);
    const exited = (code: number | null) => {
      clearTimeout(timer);
      fail(new Error(`${what} exited (${code}) before it was ready`));
    };
    child.once("exit", exited);
    createInterface({ input: child.stdout! }).on("line", (line) => {
      if (!match(line)) return;
      clearTimeout(timer);
      child.off("exit", exited);
      ok();
    });
  });
}

/** Ends a process group started here: SIGTERM, then SIGKILL if it is still there after 8 s. */
function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    const hard = setTimeout(() => signal(child, "SIGKILL"), 8_000);
    child.once("exit", () => {
      clearTimeout(hard);
      done();
    });
    signal(child, "SIGTERM");
  });
}

function signal(child: ChildProcess, sig: NodeJS.Signals): void {
  try {
    // Started detached: the negative pid is its whole group (start.mjs and the Deno backend it spawned).
    process.kill(-child.pid!, sig);
  } catch {
    child.kill(sig);
  }
}

export async function startSelfHosted(ports: SelfHostedPorts): Promise<SelfHosted> {
  const tail: string[] = [];
  const keep = (who: string) => (line: string) => {
    tail.push(`[${who}] ${line}`);
    if (tail.length > 80) tail.shift();
  };
  const children: ChildProcess[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), "promptcanvas-self-hosted-"));
  // However this process ends, what it started ends with it (the ports are reused by the next run).
  const reap = () => children.forEach((c) => signal(c, "SIGKILL"));
  process.once("exit", reap);

  const a1111Url = `http://127.0.0.1:${ports.a1111}`;
  const comfyuiUrl = `http://127.0.0.1:${ports.comfyui}`;
  const appUrl = `http://127.0.0.1:${ports.app}`;

  async function close(): Promise<void> {
    await Promise.all(children.map(stop));
    process.off("exit", reap);
    rmSync(dataDir, { recursive: true, force: true });
  }

  try {
    const fakes = spawn(DENO, ["eval", fakesProgram(ports, 2_000)], {
      cwd: ROOT,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(fakes);
    createInterface({ input: fakes.stderr! }).on("line", keep("fakes"));
    await waitForLine(fakes, "the self-hosted fakes", (l) => l.includes('"event":"ready"'), 60_000);

    const app = spawn(process.execPath, ["scripts/start.mjs"], {
      cwd: ROOT,
      detached: true,
      env: {
        ...process.env,
        ...HOSTED_ENGINES_OFF, // every engine but the two self-hosted ones
        PORT: String(ports.app),
        API_PORT: String(ports.api),
        HOST: "127.0.0.1",
        DATA_DIR: dataDir,
        DIST_DIR: "dist",
        SKIP_BUILD: "1",
        A1111_URL: a1111Url,
        COMFYUI_URL: comfyuiUrl,
        COMFYUI_POLL_INTERVAL_MS: "250",
        AUTH_RATE_LIMIT_SIGN_IN_SIGN_UPS: "1000000",
        AUTH_RATE_LIMIT_TOKEN_REFRESH: "1000000",
        AUTH_RATE_LIMIT_TOKEN_VERIFICATIONS: "1000000",
        AUTH_RATE_LIMIT_EMAIL_SENT: "1000000",
        AUTH_RATE_LIMIT_BURST: "1000000",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(app);
    createInterface({ input: app.stderr! }).on("line", keep("app"));
    await waitForLine(app, "the app and its backend", (l) => l.startsWith("PromptCanvas is running."), 180_000);
  } catch (e) {
    const lines = tail.join("\n");
    await close();
    throw new Error(`${e instanceof Error ? e.message : String(e)}\n${lines}`, { cause: e });
  }

  return {
    appUrl,
    a1111Url,
    comfyuiUrl,
    async fakeLog(url) {
      const res = await fetch(`${url}/__e2e/log`);
      if (!res.ok) throw new Error(`${url}/__e2e/log answered ${res.status}`);
      return (await res.json()) as FakeLog;
    },
    close,
  };
}
