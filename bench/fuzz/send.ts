// Sends one fuzz case as its caller and classifies the answer as the hostile-input suite does (2xx…5xx,
// hang, reset, crash): HTTP through tests/support/hostile.ts's send, a realtime case over its own socket
// (the join's reply is the answer; a close with 1011 during the linger is a server error too).
import WebSocket from "ws";
import type { Backend } from "../../tests/support/backend.ts";
import { alive, type Answer, claimsFor, HANG_MS, mintJwt, rawSend, send } from "../../tests/support/hostile.ts";
import { TOKEN_SLOT } from "./realtime.ts";
import { accountOf, type FuzzCase, type HttpCase, type SocketCase, type Who, type World } from "./world.ts";

let freshCount = 0;

/** Signs up an account for one request; its token, or null if the sign-up was refused. */
async function freshToken(world: World): Promise<string | null> {
  const res = await fetch(`${world.url}/auth/v1/signup`, {
    method: "POST",
    headers: { apikey: world.anonKey, "content-type": "application/json" },
    body: JSON.stringify({
      email: `fuzz-fresh-${Date.now().toString(36)}-${freshCount++}@example.test`,
      password: "correct-horse-42",
    }),
  });
  const body = (await res.json().catch(() => ({}))) as { access_token?: string };
  return body.access_token ?? null;
}

/** The bearer token `who` sends (the anon key for a visitor), or null for none. */
async function tokenFor(world: World, who: Who): Promise<string | null> {
  const account = accountOf(world, who);
  const hourAgo = Math.floor(Date.now() / 1000) - 3600;
  switch (who) {
    case "anon":
      return world.anonKey;
    case "fresh":
      return await freshToken(world);
    case "expired":
      return mintJwt(claimsFor(account.id, "authenticated", hourAgo), world.jwtSecret);
    case "wrong-secret":
      return mintJwt(claimsFor(account.id), "not-the-secret");
    case "alg-none":
      return mintJwt(claimsFor(account.id, "service_role"), null);
    case "garbage":
      return "garbage.not.a-token";
    case "unknown-role":
      return mintJwt(claimsFor(account.id, "postgres"), world.jwtSecret);
    default:
      return account.token;
  }
}

/**
 * The local backend's HTTP server (Deno's) reads at most this much of a request's head (request line and
 * headers); a longer head is answered 400 by the server itself, before any route runs, and the connection
 * is closed with the rest unread, so a client still writing may see a reset instead of the 400.
 */
const DOOR_HEAD_BYTES = 64 * 1024;

/** The bytes of `c`'s head as sent: request line and headers (the caller's token and key besides). */
function headBytes(c: HttpCase): number {
  const headers = Object.entries(c.headers ?? {}).reduce((n, [k, v]) => n + k.length + v.length + 4, 0);
  return c.method.length + c.path.length + 11 + headers;
}

async function sendHttp(b: Backend, world: World, c: HttpCase, token: string | null, hangMs: number): Promise<Answer> {
  const headers: Record<string, string> = {
    ...(c.who === "no-apikey" ? {} : { apikey: world.anonKey }),
    ...(token ? { authorization: `Bearer ${token}` } : {}),
    // A header value fetch cannot send would fail here, not at the server: such bytes become "?".
    ...Object.fromEntries(Object.entries(c.headers ?? {}).map(([k, v]) => [k, v.replace(/[^\x20-\x7e]/g, "?")])),
  };
  const body = c.method === "GET" || c.method === "HEAD" ? undefined : c.body;
  // A head well over the door's limit goes over a raw socket that stops just past the limit until
  // answered, so the server's 400 is read rather than lost to the reset a client still writing would meet.
  if (headBytes(c) > DOOR_HEAD_BYTES + 2048) {
    return await rawSend(b, c.method, c.path, headers, body, { hangMs, pauseAt: DOOR_HEAD_BYTES + 1024 });
  }
  return await send(b, c.path, { method: c.method, headers, body }, hangMs);
}

function sendSocket(b: Backend, world: World, c: SocketCase, token: string | null): Promise<Answer> {
  const t0 = performance.now();
  const key = c.who === "no-apikey" ? "" : world.anonKey;
  const url = `${b.url.replace(/^http/, "ws")}/realtime/v1/websocket?apikey=${key}&vsn=2.0.0`;
  const slot = token === null ? "null" : JSON.stringify(token);
  return new Promise<Answer>((resolve) => {
    let answer: Omit<Answer, "ms"> | null = null;
    let ms = 0;
    let finished = false;
    const ws = new WebSocket(url, { maxPayload: 64 * 1024 * 1024 });
    const finish = (a: Omit<Answer, "ms">) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      ws.terminate();
      resolve({ ...a, ms: ms || performance.now() - t0 });
    };
    const answered = (a: Omit<Answer, "ms">) => {
      if (answer) return;
      answer = a;
      ms = performance.now() - t0;
      setTimeout(() => finish(answer!), c.lingerMs);
    };
    const timer = setTimeout(
      () => finish(answer ?? { cls: "hang", status: null, detail: `no reply in ${HANG_MS} ms` }),
      HANG_MS,
    );
    ws.on("open", () => {
      for (const f of c.frames) ws.send(f.split(TOKEN_SLOT).join(slot));
    });
    ws.on("message", (data) => {
      const text = String(data);
      const msg = (() => {
        try {
          return JSON.parse(text) as unknown;
        } catch {
          return null;
        }
      })();
      if (!Array.isArray(msg) || msg[1] !== "1" || msg[3] !== "phx_reply") return;
      const status = (msg[4] as { status?: string } | null)?.status;
      answered({ cls: status === "ok" ? "2xx" : "4xx", status: null, detail: text.slice(0, 300) });
    });
    ws.on("unexpected-response", (_req, res) => {
      const code = res.statusCode ?? 500;
      finish({ cls: code >= 500 ? "5xx" : "4xx", status: code, detail: "upgrade refused" });
    });
    ws.on("close", (code, reason) => {
      const closed = {
        cls: code === 1011 ? "5xx" : "4xx",
        status: code,
        detail: `closed ${code} ${String(reason).slice(0, 200)}`,
      } as const;
      // A server error after the reply is still a server error; any other close after it is the linger's end.
      if (code === 1011 || !answer) finish(closed);
      else finish(answer);
    });
    ws.on("error", async (e) => {
      if (finished) return;
      finish({ cls: (await alive(b)) ? "reset" : "crash", status: null, detail: String(e) });
    });
  });
}

/**
 * The caller's token for `c` (a realtime visitor sends none). An account made for the request is signed
 * up here, before the request is timed: its password hashing is not the request's.
 */
export async function callerToken(world: World, c: FuzzCase): Promise<string | null> {
  return c.kind === "ws" && c.who === "anon" ? null : await tokenFor(world, c.who);
}

/** Sends `c` with `token` (from callerToken), a hang after `hangMs` (HTTP); never throws. */
export async function sendCase(
  b: Backend,
  world: World,
  c: FuzzCase,
  token: string | null,
  hangMs = HANG_MS,
): Promise<Answer> {
  try {
    if (c.kind === "http") return await sendHttp(b, world, c, token, hangMs);
    return await sendSocket(b, world, c, token);
  } catch (e) {
    return { cls: "reset", status: null, detail: `could not send: ${String(e)}`, ms: 0 };
  }
}
