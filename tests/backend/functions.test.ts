// Edge functions through supabase-js against the local functions host: a healthy call, and each of the
// three error classes the client distinguishes (HTTP, relay, fetch), plus the gateway's 404 and 401.
// Test-only functions come from tests/support/functions via EXTRA_FUNCTIONS_DIR.
import { createServer } from "node:net";
import { FunctionsFetchError, FunctionsHttpError, FunctionsRelayError } from "@supabase/supabase-js";
import { describe, expect, it } from "vitest";
import { useBackend } from "../support/backend-suite.ts";
import { startBackend } from "../support/backend.ts";
import { anonClient, clientWith, newUser } from "../support/clients.ts";

/** A port that was free a moment ago and has nothing listening on it now. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

describe("edge functions through supabase-js", () => {
  const backend = useBackend(() => startBackend({ env: { EXTRA_FUNCTIONS_DIR: "tests/support/functions" } }));

  it("invokes the health function as a signed-in user", async () => {
    const { client } = await newUser(backend, "fn");
    const { data, error } = await client.functions.invoke("health");
    expect(error).toBeNull();
    expect(data).toMatchObject({ status: "ok", configured: { supabase_url: true, service_role_key: true } });
  });

  it("reports a function's 400 answer as FunctionsHttpError with the body readable", async () => {
    const { data, error, response } = await anonClient(backend).functions.invoke("reject-input", { body: { x: 1 } });
    expect(data).toBeNull();
    expect(error).toBeInstanceOf(FunctionsHttpError);
    expect(error.message).toBe("Edge Function returned a non-2xx status code");
    expect(error.context.status).toBe(400);
    expect(response).toBe(error.context);
    expect(await error.context.json()).toEqual({
      error: { code: "invalid_input", message: "rejected POST request", retryable: false },
    });
  });

  it("reports a function that fails to load as FunctionsRelayError", async () => {
    const { error } = await anonClient(backend).functions.invoke("fail-at-boot");
    expect(error).toBeInstanceOf(FunctionsRelayError);
    expect(error.message).toBe("Relay Error invoking the Edge Function");
    expect(error.context.status).toBe(503);
    expect(error.context.headers.get("x-relay-error")).toBe("true");
  });

  it("reports an unreachable server as FunctionsFetchError", async () => {
    const client = clientWith(`http://127.0.0.1:${await closedPort()}`, backend.anonKey);
    const { error, response } = await client.functions.invoke("health");
    expect(error).toBeInstanceOf(FunctionsFetchError);
    expect(error.message).toBe("Failed to send a request to the Edge Function");
    // The context is the network failure itself: the connection was refused, not answered with an error.
    expect(error.context).toBeInstanceOf(TypeError);
    expect((error.context as TypeError & { cause?: { code?: string } }).cause?.code).toBe("ECONNREFUSED");
    expect(response).toBeUndefined();
  });

  it("answers an unknown function with 404", async () => {
    const { error } = await anonClient(backend).functions.invoke("no-such-function");
    expect(error).toBeInstanceOf(FunctionsHttpError);
    expect(error.context.status).toBe(404);
  });

  it("answers a forged JWT with 401 before the function runs", async () => {
    // reject-input keeps verify_jwt (health, a probe, has verify_jwt = false in config.toml).
    const client = clientWith(backend.url, backend.anonKey, { Authorization: "Bearer not.a.jwt" });
    const { error } = await client.functions.invoke("reject-input", { body: { x: 1 } });
    expect(error).toBeInstanceOf(FunctionsHttpError);
    expect(error.context.status).toBe(401);
    expect(await error.context.json()).toMatchObject({ message: "Invalid JWT" });
  });
});
