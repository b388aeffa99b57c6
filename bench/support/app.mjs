// Starts `npm start`'s script for a benchmark: its own ports, a temporary data directory (removed on
// stop) and any extra environment; resolves once the app serves and, when its build was made just now,
// once its Brotli copies are written (a first start writes them in the background after the app answers,
// decision 138: a benchmark measured beside that would count a build's work), with its URLs, the anon key
// it printed, and stop().
import { spawn } from "node:child_process";
import { createHmac } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = join(dirname(fileURLToPath(import.meta.url)), "../..");

/** What scripts/build.mjs's describeBuild and scripts/start.mjs print about the background Brotli copies. */
const COMPRESSION = {
  pending: "Brotli copies are written in the background",
  ended: /Wrote the build's Brotli copies|Brotli copies were not written/,
};

/** @param {{ port: number, apiPort: number, env?: Record<string, string> }} options */
export async function startApp({ port, apiPort, env = {} }) {
  const dataDir = mkdtempSync(join(tmpdir(), "promptcanvas-bench-"));
  const child = spawn(process.execPath, [join(root, "scripts/start.mjs")], {
    cwd: root,
    env: { ...process.env, PORT: String(port), API_PORT: String(apiPort), DATA_DIR: dataDir, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let anonKey = "";
  let out = "";
  const heard = new Set();
  const read = (d, sink) => {
    sink.write(d);
    out += d;
    anonKey = /Anon key:\s+(\S+)/.exec(out)?.[1] ?? anonKey;
    for (const listener of heard) listener();
  };
  child.stdout.on("data", (d) => read(d, { write: () => undefined }));
  child.stderr.on("data", (d) => read(d, process.stderr));
  /** Resolves once `ready(out)` holds; rejects if the app exits first. */
  const until = (ready) =>
    new Promise((resolve, reject) => {
      const check = () => {
        if (!ready(out)) return;
        heard.delete(check);
        resolve();
      };
      heard.add(check);
      child.once("exit", (code) => reject(new Error(`npm start exited (${code}) before it was ready`)));
      check();
    });
  await until((text) => text.includes("Press Ctrl-C to stop."));
  if (out.includes(COMPRESSION.pending)) await until((text) => COMPRESSION.ended.test(text));
  return {
    url: `http://127.0.0.1:${port}`,
    api: `http://127.0.0.1:${apiPort}`,
    anonKey,
    stop: async () => {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The p-th percentile (nearest rank) of some figures. */
export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** A response's JSON body, or an error carrying its status and text. */
export async function json(res) {
  const text = await res.text();
  if (!res.ok) throw new Error(`${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/** Creates an account through the app's own sign-up form and waits until it is signed in. */
export async function signUpInPage(app, page, email, password) {
  await page.goto(`${app.url}/auth`);
  await page.getByRole("tab", { name: "Create account" }).click();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
  await page.getByRole("button", { name: `Account menu for ${email}` }).waitFor();
}

/** A service-role key signed with the app's JWT secret (the bench starts the app with one of its own). */
export function serviceRoleKeyFor(secret) {
  const b64url = (v) => Buffer.from(v).toString("base64url");
  const head = b64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  // The very key the backend makes from its secret (supabase/local/config.ts): the gateway takes only the
  // project's own keys as `apikey`, so a token with other claims would be refused there.
  const iat = 1_700_000_000;
  const exp = iat + 10 * 365 * 24 * 3600;
  const body = b64url(JSON.stringify({ iss: "supabase-local", role: "service_role", iat, exp }));
  const sig = createHmac("sha256", secret).update(`${head}.${body}`).digest("base64url");
  return `${head}.${body}.${sig}`;
}

/**
 * Signs in with a password (the account exists already) and moves it to `tier` with a service-role key made
 * from the app's JWT secret, as an operator would (the free tier's 5 a day would cut a benchmark short).
 * Answers the account's REST headers: apikey, its bearer token and JSON.
 */
export async function moveToTier(app, secret, email, password, tier) {
  const headers = { apikey: app.anonKey, "Content-Type": "application/json" };
  const session = await json(
    await fetch(`${app.api}/auth/v1/token?grant_type=password`, {
      method: "POST",
      headers,
      body: JSON.stringify({ email, password }),
    }),
  );
  const user = { ...headers, Authorization: `Bearer ${session.access_token}` };
  // The limits row is made on first read; the tier is then set on it.
  await json(await fetch(`${app.api}/rest/v1/rpc/get_my_limits`, { method: "POST", headers: user, body: "{}" }));
  const key = serviceRoleKeyFor(secret);
  const changed = await json(
    await fetch(`${app.api}/rest/v1/user_daily_limits?user_id=eq.${session.user.id}`, {
      method: "PATCH",
      headers: { ...headers, apikey: key, Authorization: `Bearer ${key}`, Prefer: "return=representation" },
      body: JSON.stringify({ subscription_tier: tier }),
    }),
  );
  if (changed?.length !== 1) throw new Error(`could not move the bench account to the ${tier} tier`);
  return user;
}

/** Signs in through the app's own form (the account exists already) and waits until it is signed in. */
export async function signInInPage(app, page, email, password) {
  await page.goto(`${app.url}/auth`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in" }).last().click();
  await page.getByRole("button", { name: `Account menu for ${email}` }).waitFor();
}

/** A password session of an existing account: its access token and user. */
export async function passwordSession(app, email, password) {
  return json(
    await fetch(`${app.api}/auth/v1/token?grant_type=password`, {
      method: "POST",
      headers: { apikey: app.anonKey, "Content-Type": "application/json" },
      body: JSON.stringify({ email, password }),
    }),
  );
}
