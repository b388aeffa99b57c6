// The edge runtime's entry: deps are built once per isolate, then every request shares them.
import { createDeps } from "./deps.ts";
import { handler } from "./handler.ts";

const deps = createDeps((k) => Deno.env.get(k));
Deno.serve((req) => handler(req, deps));
