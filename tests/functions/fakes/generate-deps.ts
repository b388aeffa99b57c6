// What a generate-image handler test runs against: the fake store over `db`, one provider, and the
// handler's defaults (`extra` overrides any of them), and the request a browser sends as `jwt`.
import { DEFAULT_CONFIG, type Deps, handler } from "../../../supabase/functions/generate-image/handler.ts";
import { createProviderRegistry } from "../../../supabase/functions/_shared/providers/select.ts";
import type { ImageProvider } from "../../../supabase/functions/_shared/providers/types.ts";
import { type FakeDb, FakeStore } from "./fake-store.ts";

export function generateDeps(db: FakeDb, provider: ImageProvider, extra: Partial<Deps> = {}): Deps {
  return {
    store: new FakeStore(db),
    providers: createProviderRegistry([provider], { timeoutMs: 30_000 }),
    fetch,
    now: () => Date.now(),
    log: () => {},
    config: DEFAULT_CONFIG,
    ...extra,
  };
}

/** generate-image asked by the person of `jwt` with `body` (a fresh request id unless the body has one). */
export function sendGenerate(deps: Deps, jwt: string, body: Record<string, unknown>): Promise<Response> {
  return Promise.resolve(handler(
    new Request("http://localhost/functions/v1/generate-image", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${jwt}` },
      body: JSON.stringify({ request_id: crypto.randomUUID(), ...body }),
    }),
    deps,
  ));
}
