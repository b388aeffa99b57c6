// The person's limits record as this device knows it, for views: the page's one live read of it
// (src/db/live-limits.ts), undefined until read or without a user.
import { useCallback, useSyncExternalStore } from "react";
import { watchedLimits, watchLimits } from "../db/live-limits";
import type { LimitsRecord } from "../db/schema";

export function useLimitsRecord(userId: string | null | undefined): LimitsRecord | undefined {
  const subscribe = useCallback((changed: () => void) => (userId ? watchLimits(userId, changed) : () => {}), [userId]);
  return useSyncExternalStore(
    subscribe,
    () => (userId ? watchedLimits(userId) : undefined),
    () => undefined,
  );
}
