// The cases every provider adapter's tests share: the seed decides the picture, an expired image URL is a
// retryable failure, so is an unreachable server, and a table of provider answers each failing with its code (registered as Deno tests).
import type { AppError } from "../../../supabase/functions/_shared/errors.ts";
import type { ImageProvider } from "../../../supabase/functions/_shared/providers/types.ts";
import type { ErrorCode } from "../../../supabase/functions/_shared/vocabulary/errors.ts";
import assert from "node:assert/strict";
import { closedPortUrl, noDeadline, providerInput } from "./provider-input.ts";
import { failureOf, generateAndClose, generateOk, withFake } from "./provider-run.ts";

/** Asserts that the adapter fails as a retryable server_error when its image's URL has expired. */
export async function expiredFileFails(
  started: { fake: { close(): Promise<void>; files: { expired: boolean } }; provider: ImageProvider },
): Promise<AppError> {
  started.fake.files.expired = true;
  return failureOf(await generateAndClose(started), "server_error", true);
}

/** Asserts that the adapter `make` builds for an address nothing listens on fails as a retryable network_error. */
export async function unreachableFails(make: (baseUrl: string) => ImageProvider): Promise<void> {
  failureOf(await make(await closedPortUrl()).generate(providerInput(), noDeadline), "network_error", true);
}

/** Asserts that a fake refused a body with FastAPI's 422; the fields it named, sorted. */
export async function refusedFields(res: Response): Promise<string[]> {
  assert.equal(res.status, 422);
  const { detail } = await res.json();
  return detail.map((d: { loc: string[] }) => d.loc[1]).sort();
}

/** Asserts that `seed` twice gives the same bytes and `seed + 1` another picture, then stops the fake. */
export function seedDecides(
  started: { fake: { close(): Promise<void> }; provider: ImageProvider },
  seed: number,
): Promise<void> {
  return withFake(started, async ({ provider }) => {
    const [a, b, c] = [
      await generateOk(provider, providerInput({ seed })),
      await generateOk(provider, providerInput({ seed })),
      await generateOk(provider, providerInput({ seed: seed + 1 })),
    ];
    assert.deepEqual(a.value.bytes, b.value.bytes);
    assert.notDeepEqual(a.value.bytes, c.value.bytes);
  });
}

/** Failures grouped by what they must be: a code, its retryability (unchecked when undefined), the modes. */
type FailureGroups<M> = readonly (readonly [ErrorCode, boolean | undefined, readonly M[]])[];

/**
 * One Deno test per mode, named by `title`: the adapter started by `start(mode)` fails with its group's code
 * and retryability, and `more` checks the error further.
 */
export function testFailures<M>(
  title: (mode: M, code: ErrorCode) => string,
  start: (mode: M) => { fake: { close(): Promise<void> }; provider: ImageProvider },
  groups: FailureGroups<M>,
  more?: (error: AppError, mode: M, code: ErrorCode) => void,
): void {
  for (const [code, retryable, modes] of groups) {
    for (const mode of modes) {
      Deno.test(title(mode, code), async () => {
        more?.(failureOf(await generateAndClose(start(mode)), code, retryable), mode, code);
      });
    }
  }
}
