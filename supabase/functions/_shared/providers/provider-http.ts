// What every remote adapter shares: a fetch that turns thrown errors into network_error or timeout,
// the classification of a provider's failure into the docs/spec.md §8 catalogue, Retry-After parsing, and the
// download of an output whose URL may already have expired.
import { type AppError, appError, fail, ok, type Result } from "../errors.ts";

export type FetchFn = typeof fetch;

/** How long to wait when a provider throttles us and does not say for how long (docs/spec.md §9: 60 s). */
export const DEFAULT_RETRY_AFTER_S = 60;
export const MAX_OUTPUT_BYTES = 25_000_000;
const MAX_ERROR_BODY_CHARS = 16_000;

const NSFW =
  /nsfw|content.?policy|moderat|safety (system|checker)|flagged as sensitive|\bE005\b|sensitive content|contentPolicyViolation|nsfwContentDetected/i;
const CREDITS =
  /insufficient.?credit|insufficient_quota|insufficientCredits|billing|spend limit|exceeded your current quota|out of credit|exhausted balance/i;
const RATE = /rate.?limit|too many requests|throttled/i;
const TIMEOUT = /timeout|timed out|deadline/i;

export async function providerFetch(
  fetchFn: FetchFn,
  url: string,
  init: RequestInit,
  signal: AbortSignal,
  provider: string,
): Promise<Result<Response>> {
  try {
    return ok(await fetchFn(url, { ...init, signal }));
  } catch (e) {
    return fail(thrown(e, signal, provider));
  }
}

function thrown(e: unknown, signal: AbortSignal, provider: string): AppError {
  if (signal.aborted) return appError("timeout", { detail: `${provider}: deadline reached` });
  return appError("network_error", {
    message: "The image service could not be reached. Please try again.",
    detail: `${provider}: ${e instanceof Error ? e.name : "error"}`,
  });
}

export async function readJson(res: Response, signal: AbortSignal, provider: string): Promise<Result<unknown>> {
  let text: string;
  try {
    text = await res.text();
  } catch (e) {
    return fail(thrown(e, signal, provider));
  }
  try {
    return ok(JSON.parse(text));
  } catch {
    return fail(appError("server_error", { detail: `${provider}: answer ${res.status} is not JSON` }));
  }
}

/** One request whose success answers JSON: a thrown fetch, a non-2xx answer and a non-JSON body are classified. */
export async function fetchJson(
  fetchFn: FetchFn,
  url: string,
  init: RequestInit,
  signal: AbortSignal,
  provider: string,
): Promise<Result<unknown>> {
  const sent = await providerFetch(fetchFn, url, init, signal, provider);
  if (!sent.ok) return sent;
  if (!sent.value.ok) return fail(await classifyHttpError(sent.value, provider));
  return readJson(sent.value, signal, provider);
}

/** Seconds to wait, from Retry-After (seconds or HTTP date), retry-after-ms, or the body's own words. */
export function retryAfterSeconds(headers: Headers, body: string, nowMs = Date.now()): number {
  const ms = Number(headers.get("retry-after-ms"));
  if (Number.isFinite(ms) && ms > 0) return Math.max(1, Math.ceil(ms / 1000));
  const header = headers.get("retry-after");
  if (header) {
    const secs = Number(header);
    if (Number.isFinite(secs) && secs >= 0) return Math.max(1, Math.ceil(secs));
    const date = Date.parse(header);
    if (Number.isFinite(date)) return Math.max(1, Math.ceil((date - nowMs) / 1000));
  }
  try {
    const parsed = JSON.parse(body);
    const field = parsed?.retry_after ?? parsed?.error?.retry_after;
    if (typeof field === "number" && field > 0) return Math.ceil(field);
  } catch {
    /* not JSON: read the words below */
  }
  const words =
    /(?:resets? in|retry after|try again in)\s*~?\s*(\d+(?:\.\d+)?)\s*(ms|s|sec|seconds?|m|min|minutes?)?\b/i.exec(
      body,
    );
  if (words) {
    const n = Number(words[1]);
    const unit = (words[2] ?? "s").toLowerCase();
    const secs = unit === "ms" ? n / 1000 : unit.startsWith("m") ? n * 60 : n;
    return Math.max(1, Math.ceil(secs));
  }
  return DEFAULT_RETRY_AFTER_S;
}

/** Classifies a provider's failure message (a failed prediction, a task error) by its words. */
export function classifyFailureText(text: string, provider: string): AppError {
  const detail = `${provider}: ${text.slice(0, 200)}`;
  if (NSFW.test(text)) return appError("nsfw_content", { detail });
  if (CREDITS.test(text)) return appError("insufficient_credits", { detail });
  if (RATE.test(text)) return appError("rate_limit", { retryAfter: DEFAULT_RETRY_AFTER_S, detail });
  if (TIMEOUT.test(text)) return appError("timeout", { detail });
  return appError("server_error", { detail });
}

/** Classifies a non-2xx provider answer. Its body is read here (bounded). */
export async function classifyHttpError(res: Response, provider: string, nowMs = Date.now()): Promise<AppError> {
  let body = "";
  try {
    body = (await res.text()).slice(0, MAX_ERROR_BODY_CHARS);
  } catch {
    /* the status alone decides */
  }
  return classifyHttpStatus(res.status, res.headers, body, provider, nowMs);
}

export function classifyHttpStatus(
  status: number,
  headers: Headers,
  body: string,
  provider: string,
  nowMs = Date.now(),
): AppError {
  const detail = `${provider}: HTTP ${status} ${body.slice(0, 200)}`;
  if (status === 402) return appError("insufficient_credits", { detail });
  if (status >= 400 && status < 500 && NSFW.test(body)) return appError("nsfw_content", { detail });
  if (status >= 400 && status < 500 && CREDITS.test(body)) return appError("insufficient_credits", { detail });
  if (status === 429) return appError("rate_limit", { retryAfter: retryAfterSeconds(headers, body, nowMs), detail });
  // Our key was refused: the service is misconfigured, which the person cannot fix by signing in.
  if (status === 401 || status === 403) return appError("server_error", { retryable: false, detail });
  if (status === 408) return appError("timeout", { detail });
  if (status >= 500) return appError("server_error", { detail });
  return appError("server_error", { retryable: false, detail });
}

/** The base64 payload of a data URL (providers that take "base64" want it without the `data:` prefix). */
export function dataUrlPayload(dataUrl: string): string {
  return dataUrl.slice(dataUrl.indexOf(",") + 1);
}

export function decodeBase64(b64: string): Uint8Array | null {
  try {
    const bin = atob(b64.replace(/\s+/g, ""));
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  } catch {
    return null;
  }
}

/**
 * Fetches a provider's output before it expires (Replicate keeps files 1 hour, BFL 10 minutes). A URL
 * that is already gone is a retryable server_error: a new attempt draws a new image.
 */
export async function downloadOutput(
  fetchFn: FetchFn,
  url: string,
  signal: AbortSignal,
  provider: string,
  headers: Record<string, string> = {},
): Promise<Result<Uint8Array>> {
  if (url.startsWith("data:")) {
    const comma = url.indexOf(",");
    const bytes = comma > 0 && /;base64$/i.test(url.slice(0, comma)) ? decodeBase64(url.slice(comma + 1)) : null;
    return bytes ? ok(bytes) : fail(appError("server_error", { detail: `${provider}: unreadable data URL output` }));
  }
  if (!/^https?:\/\//i.test(url)) return fail(appError("server_error", { detail: `${provider}: output is not a URL` }));
  const got = await providerFetch(fetchFn, url, { method: "GET", headers }, signal, provider);
  if (!got.ok) return got;
  const res = got.value;
  if (res.status === 404 || res.status === 410) {
    await res.body?.cancel();
    return fail(
      appError("server_error", {
        message: "The generated image expired before it could be stored. Please try again.",
        detail: `${provider}: output ${res.status}`,
      }),
    );
  }
  if (!res.ok) return fail(await classifyHttpError(res, provider));
  const declared = Number(res.headers.get("content-length") ?? "0");
  if (declared > MAX_OUTPUT_BYTES) {
    await res.body?.cancel();
    return fail(appError("server_error", { detail: `${provider}: output of ${declared} bytes is too large` }));
  }
  try {
    const bytes = new Uint8Array(await res.arrayBuffer());
    if (bytes.byteLength > MAX_OUTPUT_BYTES) {
      return fail(appError("server_error", { detail: `${provider}: output too large` }));
    }
    return ok(bytes);
  } catch (e) {
    return fail(thrown(e, signal, provider));
  }
}

export function trimBase(url: string): string {
  return url.replace(/\/+$/, "");
}

/**
 * Whether a URL a provider answered with (a polling or result URL) may receive our key: on the configured
 * API's own host name, or on one of the provider's documented host suffixes (e.g. `.bfl.ai`), over https
 * unless it is the configured host itself. Anything else would hand the key to a stranger.
 */
export function mayCarryKey(url: string, apiBase: string, hostSuffixes: readonly string[]): boolean {
  let target: URL;
  let base: URL;
  try {
    target = new URL(url);
    base = new URL(apiBase);
  } catch {
    return false;
  }
  if (target.hostname === base.hostname) return target.protocol === base.protocol || target.protocol === "https:";
  if (target.protocol !== "https:") return false;
  return hostSuffixes.some((s) => target.hostname === s.replace(/^\./, "") || target.hostname.endsWith(s));
}

/**
 * The largest size of the same shape within a provider's bounds: scaled down to `max` on its long side
 * (up to `min` on its short side), each side rounded to a multiple of `multiple`.
 */
export function fitSize(
  width: number,
  height: number,
  bounds: { min: number; max: number; multiple: number },
): { width: number; height: number } {
  const down = Math.min(1, bounds.max / Math.max(width, height));
  const up = Math.max(1, bounds.min / Math.min(width, height));
  const scale = down < 1 ? down : up;
  const side = (v: number) => {
    const rounded = Math.round((v * scale) / bounds.multiple) * bounds.multiple;
    return Math.min(bounds.max, Math.max(bounds.min, rounded));
  };
  return { width: side(width), height: side(height) };
}
