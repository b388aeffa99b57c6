import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import {
  RateLimitAlertView,
  ageText,
  shouldShowLimitAlert,
  type LimitsView,
} from "#src/features/quota/components/rate-limit-alert.tsx";

const NOW = Date.parse("2026-11-22T10:00:00Z");

function limits(patch: Partial<LimitsView>): LimitsView {
  return {
    remaining: 2,
    dailyLimit: 5,
    resetAt: "2026-11-23T00:00:00Z",
    checkedAt: "2026-11-22T10:00:00Z",
    stale: false,
    ...patch,
  };
}

/** Renders the alert for `patch`'s figures and a countdown showing `label` (`past` once the reset has passed). */
function alertFor(patch: Partial<LimitsView>, label: string, past = false): HTMLElement {
  render(<RateLimitAlertView limits={limits(patch)} countdown={{ label, past }} nowMs={NOW} />);
  return screen.getByRole("alert");
}

describe("rate-limit alert", () => {
  it("shows only when 2 or fewer generations remain", () => {
    expect(shouldShowLimitAlert(null)).toBe(false);
    expect(shouldShowLimitAlert({ remaining: 3 })).toBe(false);
    expect(shouldShowLimitAlert({ remaining: 2 })).toBe(true);
    expect(shouldShowLimitAlert({ remaining: 0 })).toBe(true);
  });

  it("warns at 1–2 remaining with the countdown", () => {
    const alert = alertFor({ remaining: 1 }, "13:59:59");
    expect(alert.className).toContain("alert-warning");
    expect(alert.textContent).toContain("1 of 5 generations left today");
    expect(alert.textContent).toMatch(/Resets in 13:59:59/);
    expect(alert.textContent).not.toContain("Daily limit reached");
  });

  it("is destructive with 'Daily limit reached' and an Upgrade link at 0", () => {
    const alert = alertFor({ remaining: 0 }, "00:00:05");
    expect(alert.className).toContain("alert-error");
    expect(alert.textContent).toContain("Daily limit reached");
    expect(screen.getByRole("link", { name: "Upgrade Now" }).getAttribute("href")).toBe("/pricing");
  });

  it("says 'Resetting...' once the reset time has passed", () => {
    const alert = alertFor({ remaining: 0 }, "Resetting...", true);
    expect(alert.textContent).toContain("Resetting...");
  });

  it("offline, gives the last known figures with their age", () => {
    const alert = alertFor({ remaining: 2, stale: true, checkedAt: "2026-11-22T09:55:00Z" }, "14:00:00");
    expect(alert.textContent).toContain("as of 5 min ago");
    expect(ageText("2026-11-22T09:59:40Z", NOW)).toBe("just now");
    expect(ageText("2026-11-22T07:00:00Z", NOW)).toBe("3 h ago");
  });
});
