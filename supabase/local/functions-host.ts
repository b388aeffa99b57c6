// Serves supabase/functions/<name>/handler.ts at /functions/v1/<name>, as the Supabase edge runtime
// serves index.ts: with the environment Supabase gives functions, the gateway's JWT check, and the
// gateway's error answers (unknown function, boot failure and wall-clock timeout are relay errors).
import type { Ctx, Service } from "./http.ts";
import { bearer, json } from "./http.ts";
import { verifyJwt } from "./jwt.ts";

type Handler = (req: Request) => Promise<Response> | Response;

const NAME = /^[a-z0-9][a-z0-9_-]{0,62}$/;

export function createFunctionsHost(ctx: Ctx): Service {
  const { config } = ctx;
  Deno.env.set("SUPABASE_URL", config.publicUrl);
  Deno.env.set("SUPABASE_ANON_KEY", config.anonKey);
  Deno.env.set("SUPABASE_SERVICE_ROLE_KEY", config.serviceRoleKey);
  if (config.databaseUrl) Deno.env.set("SUPABASE_DB_URL", config.databaseUrl);
  const timeoutMs = Number(Deno.env.get("FUNCTION_TIMEOUT_MS") ?? 150_000);
  const loaded = new Map<string, Promise<Handler>>();

  async function find(name: string): Promise<string | null> {
    for (const dir of config.functionsDirs) {
      const file = `${Deno.cwd()}/${dir}/${name}/handler.ts`.replace(`${Deno.cwd()}//`, "/");
      try {
        if ((await Deno.stat(file)).isFile) return file;
      } catch {
        /* not in this directory */
      }
    }
    return null;
  }

  function load(file: string): Promise<Handler> {
    let p = loaded.get(file);
    if (!p) {
      p = import(`file://${file}`).then((m) => {
        const h = m.handler ?? m.default;
        if (typeof h !== "function") throw new Error("handler.ts exports no handler");
        return h as Handler;
      });
      loaded.set(file, p);
      p.catch(() => loaded.delete(file));
    }
    return p;
  }

  return async (req, path) => {
    const name = path.replace(/^\//, "").split("/")[0];
    if (!NAME.test(name)) {
      return json({ code: "NOT_FOUND", message: "Requested function was not found" }, 404);
    }
    const file = await find(name);
    if (!file) return json({ code: "NOT_FOUND", message: "Requested function was not found" }, 404);

    const token = bearer(req) ?? req.headers.get("apikey");
    if (!token || !(await verifyJwt(token, config.jwtSecret)).ok) {
      return json({ code: 401, message: "Invalid JWT" }, 401);
    }

    let handler: Handler;
    try {
      handler = await load(file);
    } catch (e) {
      ctx.log(`function ${name} failed to boot`, { error: String(e) });
      return json({ code: "BOOT_ERROR", message: "Function failed to start (please check logs)" }, 503, {
        "x-relay-error": "true",
      });
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<Response>((resolve) => {
      timer = setTimeout(
        () =>
          resolve(
            json({ code: "WORKER_TIMEOUT", message: "Function exceeded its wall-clock limit" }, 504, {
              "x-relay-error": "true",
            }),
          ),
        timeoutMs,
      );
    });
    try {
      return await Promise.race([Promise.resolve(handler(req)), deadline]);
    } catch (e) {
      ctx.log(`function ${name} threw`, { error: String(e) });
      return json({ code: "WORKER_ERROR", message: "Function exited due to an error (please check logs)" }, 500);
    } finally {
      clearTimeout(timer);
    }
  };
}
