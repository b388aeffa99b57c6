// HTTP plumbing shared by every service of the local backend: CORS as Supabase answers it, JSON
// responses, bounded body reading, and bearer-token resolution to verified claims.
import type { Config } from "./config.ts";
import type { Claims, Db } from "./db.ts";
import { verifyJwt } from "./jwt.ts";
import type { Result } from "./result.ts";

export interface Ctx {
  config: Config;
  db: Db;
  log: (msg: string, extra?: Record<string, unknown>) => void;
}

/**
 * Every service (auth/, rest/, storage/, realtime/, functions/) has this one shape, made by
 * `create<Service>(ctx)` in `<service>/<service>.ts`: it answers requests whose path starts with its
 * prefix (`path` is the rest after it), and may hold resources that `close` releases at shutdown.
 */
export type Service = ((req: Request, path: string, info: { remoteAddr: string }) => Promise<Response>) & {
  close?: () => Promise<void>;
};

export const EXPOSED_HEADERS =
  "Content-Range, X-Supabase-Api-Version, x-relay-error, Content-Type, Retry-After, Content-Length, ETag, Location";

/**
 * What a browser may read of a REST answer: exactly the headers PostgREST exposes (its Cors.hs), which
 * hosted Supabase passes through (its gateway's CORS sets no exposed headers of its own). Content-Profile
 * is not among them, so a browser never sees it.
 */
const REST_EXPOSED_HEADERS =
  "Content-Encoding, Content-Location, Content-Range, Content-Type, Date, Location, Server, Transfer-Encoding, Range-Unit";

export function corsHeaders(req: Request): Headers {
  const h = new Headers();
  h.set("Access-Control-Allow-Origin", req.headers.get("origin") ?? "*");
  h.set("Vary", "Origin");
  h.set("Access-Control-Allow-Methods", "GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS");
  h.set(
    "Access-Control-Allow-Headers",
    req.headers.get("access-control-request-headers") ??
      "authorization, x-client-info, apikey, content-type, prefer, accept-profile, content-profile, x-upsert, range",
  );
  const rest = /^\/rest\/v1(\/|$)/.test(new URL(req.url).pathname);
  h.set("Access-Control-Expose-Headers", rest ? REST_EXPOSED_HEADERS : EXPOSED_HEADERS);
  h.set("Access-Control-Max-Age", "86400");
  return h;
}

export function json(body: unknown, status = 200, headers: HeadersInit = {}): Response {
  const h = new Headers(headers);
  if (!h.has("content-type")) h.set("content-type", "application/json; charset=utf-8");
  return new Response(status === 204 ? null : JSON.stringify(body), { status, headers: h });
}

export class BodyTooLarge extends Error {}

/**
 * The body stopped before its end: the client closed the connection (a tab closed mid-request; Deno
 * reports BadResource). Nobody is left to read an answer, so it is answered 400 and not logged as a
 * server fault.
 */
export class BodyUnreadable extends Error {}

/** Reads at most `limit` bytes of the body; throws BodyTooLarge beyond that, BodyUnreadable if it breaks off. */
export async function readBody(req: Request, limit: number): Promise<Uint8Array> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > limit) throw new BodyTooLarge();
  if (!req.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of req.body) {
      size += chunk.byteLength;
      if (size > limit) throw new BodyTooLarge();
      chunks.push(chunk);
    }
  } catch (e) {
    if (e instanceof BodyTooLarge) throw e;
    throw new BodyUnreadable(`the request body broke off: ${String(e)}`, { cause: e });
  }
  const out = new Uint8Array(size);
  let off = 0;
  for (const c of chunks) {
    out.set(c, off);
    off += c.byteLength;
  }
  return out;
}

export function bearer(req: Request): string | null {
  const auth = req.headers.get("authorization");
  if (auth && /^bearer\s+/i.test(auth)) return auth.replace(/^bearer\s+/i, "").trim();
  return null;
}

/** The caller's verified claims and token, or the message to refuse the request with. */
export type ClaimsResult = Result<{ claims: Claims; token: string }, string>;

/**
 * Resolves the caller: the Authorization bearer token, else the apikey header. A token that fails
 * verification is an error (never silently downgraded to anon), as in PostgREST.
 */
export async function resolveClaims(req: Request, config: Config): Promise<ClaimsResult> {
  const token = bearer(req) ?? req.headers.get("apikey") ?? new URL(req.url).searchParams.get("apikey");
  if (!token) return { ok: true, value: { claims: { role: "anon" }, token: "" } };
  const r = await verifyJwt(token, config.jwtSecret);
  if (!r.ok) return { ok: false, error: r.error === "expired" ? "JWT expired" : "Invalid JWT" };
  const role = typeof r.value.role === "string" ? r.value.role : "anon";
  return { ok: true, value: { claims: { ...r.value, role } as Claims, token } };
}
