import { describe, expect, it } from "vitest";
import { CLSThresholds, FCPThresholds, INPThresholds, LCPThresholds } from "web-vitals";
import { rateWebVital, WEB_VITAL_NAMES, WEB_VITAL_THRESHOLDS } from "#shared/vocabulary/web-vitals.ts";

describe("web-vital ratings (docs/spec.md §9)", () => {
  it("uses the spec's thresholds, which the web-vitals library shares", () => {
    expect(WEB_VITAL_THRESHOLDS).toEqual({
      FCP: [1800, 3000],
      CLS: [0.1, 0.25],
      INP: [200, 500],
      LCP: [2500, 4000],
      FID: [100, 300],
    });
    expect(WEB_VITAL_THRESHOLDS.FCP).toEqual(FCPThresholds);
    expect(WEB_VITAL_THRESHOLDS.CLS).toEqual(CLSThresholds);
    expect(WEB_VITAL_THRESHOLDS.INP).toEqual(INPThresholds);
    expect(WEB_VITAL_THRESHOLDS.LCP).toEqual(LCPThresholds);
  });

  it.each(WEB_VITAL_NAMES.map((name) => [name, ...WEB_VITAL_THRESHOLDS[name]] as const))(
    "%s: good up to %d, needs improvement up to %d, poor above",
    (name, good, poor) => {
      expect(rateWebVital(name, 0)).toBe("good");
      expect(rateWebVital(name, good)).toBe("good");
      expect(rateWebVital(name, good + 0.001)).toBe("needs-improvement");
      expect(rateWebVital(name, poor)).toBe("needs-improvement");
      expect(rateWebVital(name, poor + 0.001)).toBe("poor");
    },
  );

  it("rates a 3.1 s paint poor and a 0.12 layout shift as needing improvement", () => {
    expect(rateWebVital("FCP", 3100)).toBe("poor");
    expect(rateWebVital("CLS", 0.12)).toBe("needs-improvement");
    expect(rateWebVital("FID", 50)).toBe("good");
  });
});
