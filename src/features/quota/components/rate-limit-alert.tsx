// The rate-limit alert (docs/spec.md §4): shown only when 2 or fewer generations remain today; warning style
// at 1–2, destructive 'Daily limit reached' at 0; a countdown to this person's reset, then
// 'Resetting...'. Offline (stale figures) it says how old they are.
import { useEffect, useState } from "react";
import { Link } from "wouter";
import { LIMIT_ALERT_AT } from "#shared/vocabulary/tiers.ts";
import { Icon } from "../../../ui/icons";
import { useCountdown, useLimits } from "../use-quota";

export type LimitsView = { remaining: number; dailyLimit: number; resetAt: string; checkedAt: string; stale: boolean };

export function shouldShowLimitAlert(limits: Pick<LimitsView, "remaining"> | null): boolean {
  return limits !== null && limits.remaining <= LIMIT_ALERT_AT;
}

/** "just now", "5 min ago", "2 h ago": how old the last known figures are. */
export function ageText(checkedAt: string, nowMs: number): string {
  const minutes = Math.floor((nowMs - Date.parse(checkedAt)) / 60_000);
  if (!Number.isFinite(minutes) || minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  return hours < 24 ? `${hours} h ago` : `${Math.floor(hours / 24)} d ago`;
}

/** The clock, re-read each minute while the figures are stale (for their age). */
function useMinuteClock(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    setNow(Date.now());
    const timer = window.setInterval(() => setNow(Date.now()), 30_000);
    return () => window.clearInterval(timer);
  }, [active]);
  return now;
}

type ViewProps = { limits: LimitsView; countdown: { label: string; past: boolean }; nowMs: number };

export function RateLimitAlertView({ limits, countdown, nowMs }: ViewProps) {
  const out = limits.remaining <= 0;
  const left = Math.max(0, limits.remaining);
  return (
    <div
      role="alert"
      className={`alert ${out ? "alert-error" : "alert-warning"} alert-soft items-start border-current/30 text-base-content`}
    >
      <Icon name="alert" className="mt-0.5 size-5 shrink-0" />
      <div className="flex min-w-0 flex-col gap-1">
        <p className="font-semibold">
          {out ? "Daily limit reached" : `${left} of ${limits.dailyLimit} generations left today`}
        </p>
        <p className="text-sm">
          {countdown.past ? (
            "Resetting..."
          ) : (
            <>
              Resets in{" "}
              <time aria-live="off" className="font-mono tabular-nums">
                {countdown.label}
              </time>
            </>
          )}
          {limits.stale && <span> · as of {ageText(limits.checkedAt, nowMs)}</span>}
        </p>
        {out && (
          <p className="text-sm">
            <Link to="/pricing" className="link font-medium">
              Upgrade Now
            </Link>{" "}
            to continue generating images today.
          </p>
        )}
      </div>
    </div>
  );
}

function WithCountdown({ limits }: { limits: LimitsView }) {
  const countdown = useCountdown(limits.resetAt);
  const nowMs = useMinuteClock(limits.stale);
  return <RateLimitAlertView limits={limits} countdown={countdown} nowMs={nowMs} />;
}

export function RateLimitAlert() {
  const limits = useLimits();
  if (!limits || !shouldShowLimitAlert(limits)) return null;
  return <WithCountdown limits={limits} />;
}
