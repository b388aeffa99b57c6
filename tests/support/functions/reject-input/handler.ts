// Test-only function: answers every call with a 400 JSON error, as a function does for invalid input,
// so tests can see supabase-js report FunctionsHttpError with the body readable from error.context.
export function handler(req: Request): Response {
  return new Response(
    JSON.stringify({ error: { code: "invalid_input", message: `rejected ${req.method} request`, retryable: false } }),
    { status: 400, headers: { "Content-Type": "application/json" } },
  );
}
