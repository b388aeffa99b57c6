// HTTP helpers every edge function shares: CORS (browsers call functions directly), JSON answers, and
// the one place an AppError becomes a response: { error: { code, message, retryable, retry_after? } }
// with the status its code maps to.
import { parseBoundedJson, TOO_DEEP_MESSAGE } from "./bounded-json.ts";
import { type AppError, invalidInput, type Result } from "./errors.ts";
import type { ErrorCode } from "./vocabulary/errors.ts";

export const corsHeaders: Record<string, string> = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Headers": "authorization, x-client-info, apikey, content-type, x-timezone",
  "Access-Control-Allow-Methods": "POST, GET, OPTIONS",
  "Access-Control-Expose-Headers": "Retry-After, Server-Timing",
};

/**
 * A preflight's answer may be kept for a day (browsers cap it: Chromium at two hours). Without it a
 * browser keeps it for five seconds, so a person's next generation, minutes later, would wait one more
 * round trip to the edge before its POST.
 */
const PREFLIGHT_MAX_AGE_SEC = "86400";

export function handleOptions(req: Request): Response | null {
  if (req.method !== "OPTIONS") return null;
  return new Response("ok", { headers: { ...corsHeaders, "Access-Control-Max-Age": PREFLIGHT_MAX_AGE_SEC } });
}

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...corsHeaders, "Content-Type": "application/json", ...headers },
  });
}

const STATUS: Record<ErrorCode, number> = {
  invalid_input: 400,
  auth_required: 401,
  insufficient_credits: 402,
  nsfw_content: 422,
  publishing_suspended: 403,
  rate_limit: 429,
  daily_limit: 429,
  server_error: 500,
  network_error: 502,
  timeout: 504,
};

export function statusFor(error: AppError): number {
  return error.status ?? STATUS[error.code];
}

export function errorBody(error: AppError): { error: Record<string, unknown> } {
  const body: Record<string, unknown> = { code: error.code, message: error.message, retryable: error.retryable };
  if (error.retryAfter !== undefined) body.retry_after = error.retryAfter;
  return { error: body };
}

export function errorResponse(error: AppError, headers: Record<string, string> = {}): Response {
  const extra: Record<string, string> = { ...headers };
  if (error.retryAfter !== undefined) extra["Retry-After"] = String(error.retryAfter);
  return jsonResponse(errorBody(error), statusFor(error), extra);
}

export function bearerToken(req: Request): string | null {
  const auth = req.headers.get("authorization");
  if (!auth || !/^bearer\s+/i.test(auth)) return null;
  const token = auth.replace(/^bearer\s+/i, "").trim();
  return token || null;
}

/** Reads a body of at most `limitBytes` as bytes; a larger or broken one is invalid input, never an exception. */
export async function readBodyBytes(
  req: Request,
  limitBytes: number,
  what = "a JSON object",
): Promise<Result<Uint8Array>> {
  const tooLarge = invalidInput(`The request must be at most ${Math.floor(limitBytes / 1_000_000)} MB`, 413);
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > limitBytes) return { ok: false, error: tooLarge };
  if (!req.body) return { ok: false, error: invalidInput(`The request body must be ${what}`) };
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of req.body) {
      size += chunk.byteLength;
      if (size > limitBytes) return { ok: false, error: tooLarge };
      chunks.push(chunk);
    }
  } catch {
    return { ok: false, error: invalidInput("The request body could not be read") };
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const c of chunks) {
    bytes.set(c, offset);
    offset += c.byteLength;
  }
  return { ok: true, value: bytes };
}

/** Reads a JSON body of at most `limitBytes`; anything else is invalid input, never an exception. */
export async function readJsonBody(req: Request, limitBytes: number): Promise<Result<unknown>> {
  const read = await readBodyBytes(req, limitBytes);
  if (!read.ok) return read;
  // The depth is checked before anything parses the text (bounded-json.ts).
  const parsed = parseBoundedJson(new TextDecoder().decode(read.value));
  if (parsed.ok) return { ok: true, value: parsed.value };
  if (parsed.reason === "too_deep") return { ok: false, error: invalidInput(TOO_DEEP_MESSAGE) };
  return { ok: false, error: invalidInput("The request body must be a JSON object") };
}
