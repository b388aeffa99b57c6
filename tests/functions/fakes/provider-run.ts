// One adapter call against a fake provider server, and what a failed call must carry: the shapes every
// provider adapter test shares.
import assert from "node:assert/strict";
import type { AppError, Result } from "../../../supabase/functions/_shared/errors.ts";
import { sniffImage } from "../../../supabase/functions/_shared/image/sniff.ts";
import type {
  ImageProvider,
  ProviderImage,
  ProviderInput,
} from "../../../supabase/functions/_shared/providers/types.ts";
import type { ErrorCode } from "../../../supabase/functions/_shared/vocabulary/errors.ts";
import { noDeadline, providerInput } from "./provider-input.ts";

/** An adapter and the fake server it talks to. */
type Started = { fake: { close(): Promise<void> }; provider: ImageProvider };

/** Generates once with the adapter, then stops its fake server whatever happened. */
export async function generateAndClose(
  started: Started,
  input: ProviderInput = providerInput(),
  signal: AbortSignal = noDeadline,
): Promise<Result<ProviderImage>> {
  try {
    return await started.provider.generate(input, signal);
  } finally {
    await started.fake.close();
  }
}

/** Runs `body` with the adapter and its fake server, then stops the server whatever happened. */
export async function withFake<S extends { fake: { close(): Promise<void> }; provider: ImageProvider }>(
  started: S,
  body: (started: S) => Promise<void>,
): Promise<void> {
  try {
    await body(started);
  } finally {
    await started.fake.close();
  }
}

/** Generates once with `provider` and asserts the call succeeded (its error is the message when not). */
export async function generateOk(
  provider: ImageProvider,
  input: ProviderInput = providerInput(),
  signal: AbortSignal = noDeadline,
): Promise<Extract<Result<ProviderImage>, { ok: true }>> {
  const r = await provider.generate(input, signal);
  assert.ok(r.ok, JSON.stringify(!r.ok && r.error));
  return r;
}

/** The error of a call that must have failed with `code` (and, when given, that retryability). */
export function failureOf(result: Result<unknown>, code: ErrorCode, retryable?: boolean): AppError {
  assert.ok(!result.ok, `expected ${code}, the call succeeded`);
  assert.equal(result.error.code, code);
  if (retryable !== undefined) assert.equal(result.error.retryable, retryable);
  return result.error;
}

/** Asserts that a call with a deadline `ms` away fails as a retryable timeout, then stops the fake. */
export async function timesOut(started: Started, ms: number): Promise<AppError> {
  return failureOf(await generateAndClose(started, providerInput(), AbortSignal.timeout(ms)), "timeout", true);
}

/** Asserts that `bytes` are a PNG of `width` by `height`, as its header says. */
export function assertPng(bytes: Uint8Array, width: number, height: number): void {
  assert.deepEqual(sniffImage(bytes), { contentType: "image/png", extension: "png", width, height });
}
