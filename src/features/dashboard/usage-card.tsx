// Today's usage against the tier's daily limit, the countdown to this person's reset, and the plan.
// The quota hooks are handed in by the app (they belong to the quota feature).
import { Link } from "wouter";
import { planNameFor } from "#shared/vocabulary/tiers.ts";

export type LimitsView = {
  remaining: number;
  dailyLimit: number;
  resetAt: string;
  tier: string;
  checkedAt: string;
  stale: boolean;
};

export type QuotaHooks = {
  useLimits: () => LimitsView | null;
  useCountdown: (resetAt: string) => { label: string; past: boolean };
};

function Countdown({ quota, resetAt }: { quota: QuotaHooks; resetAt: string }) {
  const countdown = quota.useCountdown(resetAt);
  return countdown.past ? (
    <>Resetting...</>
  ) : (
    <>
      Resets in{" "}
      <time aria-live="off" className="font-mono tabular-nums">
        {countdown.label}
      </time>
    </>
  );
}

export function UsageCard({ quota }: { quota: QuotaHooks }) {
  const limits = quota.useLimits();
  return (
    <section aria-labelledby="usage-title" className="card border border-base-300 bg-base-100">
      <div className="card-body gap-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="usage-title" className="card-title text-lg">
            Today's usage
          </h2>
          {limits && (
            <Link to="/billing" className="badge badge-primary badge-outline">
              {planNameFor(limits.tier)} plan
            </Link>
          )}
        </div>
        {limits ? (
          <UsageFigures limits={limits} quota={quota} />
        ) : (
          <p className="text-sm text-base-content/80">Your usage appears once this device has checked your limits.</p>
        )}
      </div>
    </section>
  );
}

function UsageFigures({ limits, quota }: { limits: LimitsView; quota: QuotaHooks }) {
  const used = Math.max(0, limits.dailyLimit - limits.remaining);
  return (
    <>
      <p>
        <span className="text-3xl font-bold tabular-nums">{used}</span>
        <span className="text-base-content/80"> of {limits.dailyLimit.toLocaleString()} generations used today</span>
      </p>
      <progress
        className={`progress w-full ${limits.remaining <= 0 ? "progress-error" : "progress-primary"}`}
        value={used}
        max={limits.dailyLimit}
        aria-label="Generations used today"
      />
      <p className="text-sm text-base-content/80">
        {Math.max(0, limits.remaining).toLocaleString()} left · <Countdown quota={quota} resetAt={limits.resetAt} />
        {limits.stale && " · last checked earlier"}
      </p>
    </>
  );
}
