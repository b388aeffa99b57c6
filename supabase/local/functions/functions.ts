// Serves supabase/functions/<name>/ at /functions/v1/<name>, composed the way the function's index.ts
// composes it on the edge runtime: `createDeps(env, platform)` from deps.ts once per function, then
// `handler(req, deps)` from handler.ts for every request. What differs here is the platform: the
// environment Supabase gives functions (SUPABASE_URL and the keys), the render pool, so neither a built-in
// engine render, a reference image's decode nor a published image's check runs on the server's event loop, and a fetch that serves the function's calls to this
// backend in-process. Also the gateway's behaviour: the JWT check and its error answers (unknown
// function, boot failure and wall-clock timeout are relay errors).
import type { Env } from "../config.ts";
import type { Ctx, Service } from "../http.ts";
import { bearer, json } from "../http.ts";
import { verifyJwt } from "../jwt.ts";
import type { RenderPool } from "../render-pool.ts";

type Handler = (req: Request, deps?: unknown) => Promise<Response> | Response;

/** What the local backend gives every function's createDeps, beside its environment. */
export interface Platform {
  /**
   * Draws a built-in engine image off the event loop (the render pool), starting before waiting renders
   * of a lower `options.priority` (the person's tier; docs/decisions/153-paid-renders-start-first.md).
   */
  render: RenderPool["render"];
  /** Decodes an untrusted image off the event loop within a time budget (the render pool), at a priority as a render. */
  decode: RenderPool["decode"];
  /** The image check of a stored image off the event loop within a time budget (the render pool). */
  classify: RenderPool["classify"];
  fetch: typeof fetch;
  /** Work a function does after its answer: this server lives on, so it simply runs to its end. */
  background: (work: Promise<void>) => void;
}

type CreateDeps = (env: Env, platform: Platform) => unknown;

interface LoadedFunction {
  handler: Handler;
  /** Built once, at the first request; undefined for a function without deps.ts. */
  deps: unknown;
}

const NAME = /^[a-z0-9][a-z0-9_-]{0,62}$/;

const relayError = (code: string, message: string, status: number) =>
  json({ code, message }, status, { "x-relay-error": "true" });

export function createFunctions(ctx: Ctx, platform: Platform): Service {
  const { config } = ctx;
  const loaded = new Map<string, Promise<LoadedFunction>>();

  // What a function reads from its environment: the platform's variables (read when deps are built,
  // after the server knows its own URL), then the backend's environment (provider keys and the like).
  const env: Env = (name) => {
    switch (name) {
      case "SUPABASE_URL":
        return config.publicUrl;
      case "SUPABASE_ANON_KEY":
        return config.anonKey;
      case "SUPABASE_SERVICE_ROLE_KEY":
        return config.serviceRoleKey;
      case "SUPABASE_DB_URL":
        return config.databaseUrl ?? undefined;
      case "SITE_URL":
        return config.functionEnv(name) ?? config.siteUrl;
      default:
        return config.functionEnv(name);
    }
  };

  async function isFile(path: string): Promise<boolean> {
    try {
      return (await Deno.stat(path)).isFile;
    } catch {
      return false;
    }
  }

  /** The function's folder in the first functions directory that has it. */
  async function find(name: string): Promise<string | null> {
    for (const dir of config.functionsDirs) {
      const folder = dir.startsWith("/") ? `${dir}/${name}` : `${Deno.cwd()}/${dir}/${name}`;
      if (await isFile(`${folder}/handler.ts`)) return folder;
    }
    return null;
  }

  function load(folder: string): Promise<LoadedFunction> {
    let p = loaded.get(folder);
    if (!p) {
      p = (async () => {
        const m = await import(`file://${folder}/handler.ts`);
        const handler = m.handler ?? m.default;
        if (typeof handler !== "function") throw new Error("handler.ts exports no handler");
        let deps: unknown = undefined;
        if (await isFile(`${folder}/deps.ts`)) {
          const { createDeps } = (await import(`file://${folder}/deps.ts`)) as { createDeps?: CreateDeps };
          if (typeof createDeps !== "function") throw new Error("deps.ts exports no createDeps");
          deps = createDeps(env, platform);
        }
        return { handler: handler as Handler, deps };
      })();
      loaded.set(folder, p);
      p.catch(() => loaded.delete(folder));
    }
    return p;
  }

  return async (req, path) => {
    const name = path.replace(/^\//, "").split("/")[0];
    const folder = NAME.test(name) ? await find(name) : null;
    if (!folder) return json({ code: "NOT_FOUND", message: "Requested function was not found" }, 404);

    // verify_jwt = false in config.toml (a webhook, a probe): the function authenticates its callers itself.
    const token = bearer(req) ?? req.headers.get("apikey");
    const open = config.functionsWithoutJwt.includes(name);
    if (!open && (!token || !(await verifyJwt(token, config.jwtSecret)).ok)) {
      return json({ code: 401, message: "Invalid JWT" }, 401);
    }

    let fn: LoadedFunction;
    try {
      fn = await load(folder);
    } catch (e) {
      ctx.log(`function ${name} failed to boot`, { error: String(e) });
      return relayError("BOOT_ERROR", "Function failed to start (please check logs)", 503);
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<Response>((resolve) => {
      timer = setTimeout(
        () => resolve(relayError("WORKER_TIMEOUT", "Function exceeded its wall-clock limit", 504)),
        config.functionTimeoutMs,
      );
    });
    const startedAt = Date.now();
    try {
      const run = fn.deps === undefined ? fn.handler(req) : fn.handler(req, fn.deps);
      const res = await Promise.race([Promise.resolve(run), deadline]);
      return isEventStream(res) ? withinWallClock(res, config.functionTimeoutMs - (Date.now() - startedAt)) : res;
    } catch (e) {
      ctx.log(`function ${name} threw`, { error: String(e) });
      return json({ code: "WORKER_ERROR", message: "Function exited due to an error (please check logs)" }, 500);
    } finally {
      clearTimeout(timer);
    }
  };
}

const isEventStream = (res: Response) => (res.headers.get("content-type") ?? "").startsWith("text/event-stream");

/**
 * A streamed answer is still the function's time: as on the hosted platform, its body is cut off when
 * the wall-clock limit passes (the caller sees the stream break, not an end).
 */
export function withinWallClock(res: Response, remainingMs: number): Response {
  if (!res.body) return res;
  const reader = res.body.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let cut = false;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      timer = setTimeout(() => {
        cut = true;
        controller.error(new Error("the function exceeded its wall-clock limit"));
        reader.cancel().catch(() => undefined);
      }, Math.max(0, remainingMs));
    },
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (cut) return;
        if (done) {
          clearTimeout(timer);
          controller.close();
        } else controller.enqueue(value);
      } catch (e) {
        clearTimeout(timer);
        if (!cut) controller.error(e);
      }
    },
    cancel(reason) {
      clearTimeout(timer);
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
}
