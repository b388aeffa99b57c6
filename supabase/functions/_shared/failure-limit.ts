// Failed generations per account. A request whose own input fails once a quota slot is held for it (a
// reference image that does not decode, or not within its time budget; an engine refusing its input)
// gives the slot back, so without a limit one account could have the backend decode hostile files
// over and over for free. Each such failure counts against its account for a minute; at the limit the
// account's generate requests are answered 429 rate_limit with Retry-After, before any slot is held or
// anything decoded, until the oldest failure ages out. A decode counts from the moment it starts and is
// forgiven when it succeeds, so requests sent side by side cannot all slip in before the first fails.
// The counts live in memory: exact where one process serves every request (the local backend), per
// isolate on hosted Edge Functions (docs/decisions/126-decoding-runs-off-the-event-loop-within-budgets.md).

/** Failures an account may have within FAILURE_WINDOW_MS before it is refused. */
export const FAILURES_PER_WINDOW = 5;
export const FAILURE_WINDOW_MS = 60_000;
/** Accounts tracked at most; past it, accounts whose failures have all aged out are forgotten. */
const MAX_ACCOUNTS = 10_000;

export interface FailureLimiter {
  /** Whole seconds until `account` may try again, or 0 when it may now. */
  retryAfter(account: string, now: number): number;
  /** Counts a failure at `now`; the function returned takes it back (a decode that succeeded). */
  note(account: string, now: number): () => void;
}

export function createFailureLimiter(
  max = FAILURES_PER_WINDOW,
  windowMs = FAILURE_WINDOW_MS,
): FailureLimiter {
  const failures = new Map<string, number[]>();
  const recent = (account: string, now: number): number[] => {
    const kept = (failures.get(account) ?? []).filter((at) => now - at < windowMs);
    if (kept.length) failures.set(account, kept);
    else failures.delete(account);
    return kept;
  };
  return {
    retryAfter(account, now) {
      const kept = recent(account, now);
      if (kept.length < max) return 0;
      return Math.max(1, Math.ceil((kept[kept.length - max] + windowMs - now) / 1000));
    },
    note(account, now) {
      if (failures.size >= MAX_ACCOUNTS) { for (const key of [...failures.keys()]) recent(key, now); }
      const kept = recent(account, now);
      kept.push(now);
      failures.set(account, kept);
      let forgiven = false;
      return () => {
        if (forgiven) return;
        forgiven = true;
        const list = failures.get(account);
        const at = list?.indexOf(now) ?? -1;
        if (list && at >= 0) list.splice(at, 1);
      };
    },
  };
}
