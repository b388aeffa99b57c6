// The edge runtime's entry: deps are read once per isolate.
import { createDeps } from "./deps.ts";
import { handler } from "./handler.ts";

const deps = createDeps((k) => Deno.env.get(k));
Deno.serve((req) => handler(req, deps));
