// The quota as views see it: the signed-in user's last known limits from Dexie (kept
// fresh by the limits machine the runner starts), marked stale when offline or old, and a countdown
// to the reset.
import { useActorRef, useSelector } from "@xstate/react";
import { useEffect } from "react";
import type { Tier } from "#shared/vocabulary/tiers.ts";
import { useOnline } from "../../lib/use-online";
import { useSession } from "../../state/session-store";
import { useLimitsRecord } from "../../sync/use-limits-record";
import { countdownMachine } from "./countdown-machine";
import { LIMITS_POLL_MS } from "./limits-machine";

export type LimitsView = {
  remaining: number;
  dailyLimit: number;
  resetAt: string;
  tier: Tier;
  checkedAt: string;
  /** The figures are from an earlier check (offline, or the last poll missed). */
  stale: boolean;
};

/** Older than two polls: the figures may have moved. */
const STALE_AFTER_MS = 2 * LIMITS_POLL_MS;

export function useLimits(): LimitsView | null {
  const userId = useSession().user?.id ?? null;
  const online = useOnline();
  const record = useLimitsRecord(userId);
  if (!record || record.userId !== userId) return null;
  const age = Date.now() - Date.parse(record.checkedAt);
  // Past the reset the server has a fresh day; until it says so, the last figures stand, marked old.
  const reset = Date.parse(record.resetAt) <= Date.now();
  return {
    remaining: record.remaining,
    dailyLimit: record.dailyLimit,
    resetAt: record.resetAt,
    tier: record.tier,
    checkedAt: record.checkedAt,
    stale: !online || reset || !(age < STALE_AFTER_MS),
  };
}

export function useCountdown(resetAt: string): { label: string; past: boolean } {
  const actor = useActorRef(countdownMachine, { input: { resetAt } });
  useEffect(() => actor.send({ type: "countdown.set", resetAt }), [actor, resetAt]);
  const label = useSelector(actor, (s) => s.context.label);
  const past = useSelector(actor, (s) => s.context.past);
  return { label, past };
}
