// Test-only function whose module fails while loading, like a function with a missing secret or a
// broken import: the host must answer with a relay error (503, x-relay-error: true), not a 500.
throw new Error("fail-at-boot: this module refuses to load");

export function handler(): Response {
  return new Response("unreachable");
}
