// Starts the real local backend (Deno) on a free port with its own data directory, for one test file.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createInterface } from "node:readline";
import { denoPath } from "../../scripts/deno-path.mjs";

export interface Backend {
  url: string;
  anonKey: string;
  serviceRoleKey: string;
  database: "pglite" | "postgres";
  dataDir: string;
  /** The HS256 secret the backend signs with, for tests that mint their own tokens. */
  jwtSecret: string;
  stop(): Promise<void>;
}

/** Every hosted engine's variable blanked (and the default provider), whatever the caller's shell has. */
export const HOSTED_ENGINES_OFF = {
  REPLICATE_API_TOKEN: "",
  RUNWARE_API_KEY: "",
  OPENAI_API_KEY: "",
  BFL_API_KEY: "",
  FAL_KEY: "",
  GEMINI_API_KEY: "",
  DEFAULT_PROVIDER: "",
};

/** Provider keys blanked: the built-in engine serves only when none is configured, whatever the caller's shell has. */
export const BUILTIN_ONLY = { ...HOSTED_ENGINES_OFF, A1111_URL: "", COMFYUI_URL: "" };

/**
 * Auth rate limits raised for tests, which sign many people up and in from 127.0.0.1 (the hosted
 * defaults from supabase/config.toml would refuse the 31st). A test of the limits themselves passes
 * its own values (or DEFAULT_AUTH_RATE_LIMITS) in `env`.
 */
export const TEST_AUTH_RATE_LIMITS = {
  AUTH_RATE_LIMIT_SIGN_IN_SIGN_UPS: "1000000",
  AUTH_RATE_LIMIT_TOKEN_REFRESH: "1000000",
  AUTH_RATE_LIMIT_TOKEN_VERIFICATIONS: "1000000",
  AUTH_RATE_LIMIT_EMAIL_SENT: "1000000",
  AUTH_RATE_LIMIT_BURST: "1000000",
};

/** Empty values: the backend falls back to supabase/config.toml, as `npm start` does. */
export const DEFAULT_AUTH_RATE_LIMITS = Object.fromEntries(Object.keys(TEST_AUTH_RATE_LIMITS).map((k) => [k, ""]));

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const DENO = denoPath();

export async function startBackend(
  opts: { databaseUrl?: string; env?: Record<string, string> } = {},
): Promise<Backend> {
  const dataDir = mkdtempSync(join(tmpdir(), "pc-backend-"));
  const child: ChildProcess = spawn(DENO, ["run", "-A", "supabase/local/main.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      API_PORT: "0",
      QUIET: process.env.BACKEND_LOGS ? "0" : "1",
      ...TEST_AUTH_RATE_LIMITS,
      ...(opts.databaseUrl ? { DATABASE_URL: opts.databaseUrl } : {}),
      ...opts.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (d) => {
    stderr += d;
    if (process.env.BACKEND_LOGS) process.stderr.write(d);
  });
  const ready = await new Promise<Record<string, string>>((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`backend did not start in 60 s\n${stderr}`)), 60_000);
    createInterface({ input: child.stdout! }).on("line", (line) => {
      try {
        const msg = JSON.parse(line);
        if (msg.event === "ready") {
          clearTimeout(timer);
          res(msg);
        }
      } catch {
        /* other output */
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      rej(new Error(`backend exited with ${code}\n${stderr}`));
    });
  }).catch((e) => {
    child.kill("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
    throw e;
  });
  return {
    url: ready.apiUrl,
    anonKey: ready.anonKey,
    serviceRoleKey: ready.serviceRoleKey,
    database: ready.database as Backend["database"],
    dataDir,
    jwtSecret: opts.env?.JWT_SECRET ?? readFileSync(join(dataDir, "jwt-secret"), "utf8").trim(),
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill("SIGKILL");
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
