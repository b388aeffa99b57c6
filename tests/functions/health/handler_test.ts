// health: the runtime is up, and the app can read which image engines it may ask for by name.
import assert from "node:assert/strict";
import { createDeps } from "../../../supabase/functions/health/deps.ts";
import { handler } from "../../../supabase/functions/health/handler.ts";

const envOf = (vars: Record<string, string>) => (k: string) => vars[k];

Deno.test("lists the configured engines and the default by id, never a key or a server's address", async () => {
  const deps = createDeps(
    envOf({
      SUPABASE_URL: "http://127.0.0.1:54321",
      BFL_API_KEY: "bfl-secret",
      COMFYUI_URL: "http://gpu-box.lan:8188",
      DEFAULT_PROVIDER: "comfyui",
    }),
  );
  const res = handler(new Request("http://x/functions/v1/health"), deps);
  assert.equal(res.status, 200);
  const text = await res.text();
  const body = JSON.parse(text);
  assert.equal(body.status, "ok");
  assert.deepEqual(body.configured, { supabase_url: true, service_role_key: false });
  assert.deepEqual(body.providers, { available: ["bfl", "comfyui", "builtin"], default: "comfyui" });
  assert.doesNotMatch(text, /bfl-secret|gpu-box/);
});

Deno.test("with no engine configured only the built-in one is listed, and it is the default", async () => {
  const body = await handler(new Request("http://x/"), createDeps(envOf({ DEFAULT_PROVIDER: "fal" }))).json();
  assert.deepEqual(body.providers, { available: ["builtin"], default: "builtin" });
});
