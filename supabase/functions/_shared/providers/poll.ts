// The polling loop the asynchronous adapters share (BFL, fal, ComfyUI): ask, and while the answer is not
// final wait the interval and ask again, until the generation's deadline. Replicate keeps its own loop,
// which also reads a held `Prefer: wait` answer first.
import { appError, fail, type Result } from "../errors.ts";
import { sleep } from "./sleep.ts";

/** A final answer (success or classified failure), or "not yet". */
export type PollStep<T> = { done: true; result: Result<T> } | { done: false };

export const pending = { done: false } as const;
export const finished = <T>(result: Result<T>): PollStep<T> => ({ done: true, result });

/**
 * Calls `check` until it is done. `onDeadline` runs (best effort, e.g. a cancel request) when the
 * deadline ends the wait or a check, so work nobody will collect does not run on.
 */
export async function pollUntilDone<T>(
  check: () => Promise<PollStep<T>>,
  opts: { intervalMs: number; signal: AbortSignal; provider: string; onDeadline?: () => void },
): Promise<Result<T>> {
  for (;;) {
    const step = await check();
    if (step.done) {
      if (!step.result.ok && step.result.error.code === "timeout" && opts.signal.aborted) opts.onDeadline?.();
      return step.result;
    }
    if (!(await sleep(opts.intervalMs, opts.signal))) {
      opts.onDeadline?.();
      return fail(appError("timeout", { detail: `${opts.provider}: deadline reached while polling` }));
    }
  }
}
