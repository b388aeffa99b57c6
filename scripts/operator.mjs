// npm run operator -- grant EMAIL | revoke EMAIL | list
//
// Makes a person an operator (app_metadata.role = "operator"), takes the role back, or lists who has it,
// through the auth admin API with the service role, the one way app_metadata is written: a person cannot
// set it on themselves. The same calls work on the local backend and on hosted Supabase. They are the
// GoTrue admin endpoints supabase-js's auth.admin calls, sent with fetch: supabase-js's client wants a
// WebSocket for realtime that Node 20 lacks, and this command needs none.
//
// Environment: SUPABASE_URL (default: the local backend of `npm start`, http://127.0.0.1:$API_PORT, port
// 54321) and SUPABASE_SERVICE_ROLE_KEY. Without a key, the local backend's is made from its signing
// secret (JWT_SECRET, else DATA_DIR/jwt-secret, DATA_DIR defaulting to .data as for `npm start`).
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const OPERATOR_ROLE = "operator";
const PER_PAGE = 1000;
const root = join(dirname(fileURLToPath(import.meta.url)), "..");

const USAGE = `Usage: npm run operator -- grant EMAIL | revoke EMAIL | list

  grant EMAIL    make the person with this e-mail an operator
  revoke EMAIL   take the operator role back (at once)
  list           list the operators

SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY choose the project; without them, the local backend of npm start.`;

/** The project to act on: the environment's, else the local backend's with a key made from its secret. */
export function projectFromEnv(env = process.env) {
  const url = env.SUPABASE_URL || `http://127.0.0.1:${env.API_PORT || 54321}`;
  if (env.SUPABASE_SERVICE_ROLE_KEY) return { url, serviceRoleKey: env.SUPABASE_SERVICE_ROLE_KEY };
  if (env.SUPABASE_URL && !/^https?:\/\/(127\.0\.0\.1|localhost)(:\d+)?\/?$/.test(env.SUPABASE_URL)) {
    throw new Error("SUPABASE_SERVICE_ROLE_KEY is needed for a project other than the local backend.");
  }
  const secret = env.JWT_SECRET || readLocalSecret(resolve(root, env.DATA_DIR || ".data"));
  return { url, serviceRoleKey: localServiceKey(secret) };
}

function readLocalSecret(dataDir) {
  try {
    return readFileSync(join(dataDir, "jwt-secret"), "utf8").trim();
  } catch {
    throw new Error(`No local backend secret in ${dataDir}: start the backend once (npm start) or set JWT_SECRET.`);
  }
}

/**
 * The local backend's own service-role key, made from its secret as it makes it (supabase/local/config.ts:
 * HS256, the legacy key claims issued at 1,700,000,000 for ten years). Its gateway takes only its own two
 * keys, byte for byte, so any other token signed with the secret would be refused as an invalid API key.
 */
export function localServiceKey(secret) {
  const part = (v) => Buffer.from(JSON.stringify(v)).toString("base64url");
  const iat = 1_700_000_000;
  const claims = { iss: "supabase-local", role: "service_role", iat, exp: iat + 10 * 365 * 24 * 3600 };
  const body = `${part({ alg: "HS256", typ: "JWT" })}.${part(claims)}`;
  return `${body}.${createHmac("sha256", secret).update(body).digest("base64url")}`;
}

/** The auth admin API of a project: list users a page at a time, and update one. */
export function adminClient({ url, serviceRoleKey }) {
  const base = `${url.replace(/\/+$/, "")}/auth/v1/admin/users`;
  const headers = { apikey: serviceRoleKey, authorization: `Bearer ${serviceRoleKey}` };
  async function send(what, path, init = {}) {
    const res = await fetch(`${base}${path}`, { ...init, headers: { ...headers, ...init.headers } });
    const body = await res.json().catch(() => null);
    if (!res.ok) throw new Error(`Cannot ${what}: ${res.status} ${body?.msg ?? body?.message ?? res.statusText}`);
    return body;
  }
  return {
    listUsers: (page, perPage) => send("list users", `?page=${page}&per_page=${perPage}`),
    updateUser: (id, attributes) =>
      send("update the user", `/${encodeURIComponent(id)}`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(attributes),
      }),
  };
}

/** Every user, page by page (the admin API has no lookup by e-mail). */
async function* allUsers(client) {
  for (let page = 1; ; page++) {
    const { users } = await client.listUsers(page, PER_PAGE);
    yield* users;
    if (users.length < PER_PAGE) return;
  }
}

export async function findUserByEmail(client, email) {
  const wanted = email.trim().toLowerCase();
  for await (const user of allUsers(client)) if (user.email?.toLowerCase() === wanted) return user;
  return null;
}

/** Sets or removes the role; answers the user as it now is. Throws when nobody has this e-mail. */
export async function setOperator(client, email, on) {
  const user = await findUserByEmail(client, email);
  if (!user) throw new Error(`Nobody has signed up with ${email.trim()}.`);
  // GoTrue merges app_metadata: a key given as null is removed, the others are kept.
  try {
    return await client.updateUser(user.id, { app_metadata: { role: on ? OPERATOR_ROLE : null } });
  } catch (e) {
    throw new Error(`${email.trim()}: ${e.message}`, { cause: e });
  }
}

export async function listOperators(client) {
  const out = [];
  for await (const user of allUsers(client)) if (user.app_metadata?.role === OPERATOR_ROLE) out.push(user);
  return out;
}

/** Runs one command; answers the exit code, writing to `out` and `err`. */
export async function main(argv, { env = process.env, out = console.log, err = console.error } = {}) {
  const [command, email] = argv;
  const needsEmail = command === "grant" || command === "revoke";
  if (!(needsEmail && email?.includes("@")) && !(command === "list" && !email)) {
    err(USAGE);
    return 2;
  }
  try {
    const client = adminClient(projectFromEnv(env));
    if (command === "list") {
      const operators = await listOperators(client);
      out(operators.length ? operators.map((u) => u.email).join("\n") : "No operators.");
    } else if (command === "grant") {
      const user = await setOperator(client, email, true);
      out(
        `${user.email} is an operator. The role is in their session from their next sign-in or token refresh (within the hour); /moderation then opens for them.`,
      );
    } else {
      const user = await setOperator(client, email, false);
      out(`${user.email} is no longer an operator. The database refuses their operator calls from now on.`);
    }
    return 0;
  } catch (e) {
    err(e instanceof Error ? e.message : String(e));
    return 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exitCode = await main(process.argv.slice(2));
}
