import assert from "node:assert/strict";
import { BUILTIN_MODEL, createBuiltinProvider } from "../../../../supabase/functions/_shared/providers/builtin.ts";
import { noDeadline, providerInput } from "../../fakes/provider-input.ts";
import { assertPng } from "../../fakes/provider-run.ts";

Deno.test("the built-in engine draws a PNG of the requested size, labelled as a procedural renderer", async () => {
  const provider = createBuiltinProvider();
  assert.equal(provider.kind, "procedural");
  const r = await provider.generate(
    providerInput({ aspectRatio: "16:9", width: 1536, height: 1024, seed: 5 }),
    noDeadline,
  );
  assert.ok(r.ok, JSON.stringify(!r.ok && r.error));
  assertPng(r.value.bytes, 1536, 1024);
  assert.equal(r.value.model, BUILTIN_MODEL);
  assert.equal(r.value.seed, 5);
});

Deno.test("the same request draws the same bytes and another prompt draws another image", async () => {
  const provider = createBuiltinProvider();
  const input = providerInput({ width: 256, height: 256, style: "pixel-art" });
  const [a, b, c] = await Promise.all([
    provider.generate(input, noDeadline),
    provider.generate(input, noDeadline),
    provider.generate({ ...input, prompt: "a city of neon towers at night" }, noDeadline),
  ]);
  assert.ok(a.ok && b.ok && c.ok);
  assert.deepEqual(a.value.bytes, b.value.bytes);
  assert.notDeepEqual(a.value.bytes, c.value.bytes);
});

Deno.test("a deadline that has already passed is a timeout", async () => {
  const controller = new AbortController();
  controller.abort();
  const r = await createBuiltinProvider().generate(providerInput(), controller.signal);
  assert.ok(!r.ok);
  assert.equal(r.error.code, "timeout");
});

Deno.test("a renderer failure is a server_error value, not an exception", async () => {
  const provider = createBuiltinProvider(() => Promise.reject(new Error("out of memory")));
  const r = await provider.generate(providerInput(), noDeadline);
  assert.ok(!r.ok);
  assert.equal(r.error.code, "server_error");
});
