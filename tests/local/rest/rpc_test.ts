// Which overload of a database function an rpc call reaches, by its argument names.
import assert from "node:assert/strict";
import type { RpcFunction } from "../../../supabase/local/rest/catalog.ts";
import { chooseFunction } from "../../../supabase/local/rest/rpc.ts";

Deno.test("chooses the rpc overload by argument names, else PGRST202 or PGRST203", () => {
  const fn = (inputs: string[], defaults = 0, types: string[] = inputs.map(() => "text")): RpcFunction => ({
    name: "f",
    inputs: inputs.map((name, i) => ({ name, type: types[i], base: types[i], mode: "i" })),
    defaults,
    returnsSet: false,
    volatility: "v",
    returns: "scalar",
    columns: [],
    byName: new Map(),
  });
  const a = fn(["a"]);
  const ab = fn(["a", "b"], 1);
  assert.equal(chooseFunction("f", [a, fn(["x"])], ["a"]).ok && true, true);
  const ambiguous = chooseFunction("f", [a, ab], ["a"]);
  assert.equal(!ambiguous.ok && ambiguous.error.code, "PGRST203");
  const both = chooseFunction("f", [a, ab], ["a", "b"]);
  assert.ok(both.ok && both.value.fn === ab);
  const missing = chooseFunction("f", [a], ["zz"]);
  assert.equal(!missing.ok && missing.error.message, "Could not find the function public.f(zz) in the schema cache");
  const none = chooseFunction("g", [], []);
  assert.equal(
    !none.ok && none.error.message,
    "Could not find the function public.g without parameters in the schema cache",
  );
  const whole = chooseFunction("f", [fn([""], 0, ["jsonb"])], ["anything"]);
  assert.ok(whole.ok && whole.value.wholeBody);
});
