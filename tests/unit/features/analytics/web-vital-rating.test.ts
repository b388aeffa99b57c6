import { describe, expect, it } from "vitest";
import { CLSThresholds, FCPThresholds, INPThresholds, LCPThresholds } from "web-vitals";
import { WEB_VITAL_NAMES } from "#shared/vocabulary/web-vitals.ts";
import { SPEC_WEB_VITAL_THRESHOLDS } from "../../../support/web-vital-thresholds.ts";

// The ratings themselves are the database's (tests/db/telemetry.test.ts, tests/backend/telemetry.test.ts).
describe("web-vital thresholds (docs/spec.md §9)", () => {
  it("cover every metric the product records", () => {
    expect(Object.keys(SPEC_WEB_VITAL_THRESHOLDS).sort()).toEqual([...WEB_VITAL_NAMES].sort());
  });

  it("are the ones the web-vitals library rates by", () => {
    expect(SPEC_WEB_VITAL_THRESHOLDS.FCP).toEqual(FCPThresholds);
    expect(SPEC_WEB_VITAL_THRESHOLDS.CLS).toEqual(CLSThresholds);
    expect(SPEC_WEB_VITAL_THRESHOLDS.INP).toEqual(INPThresholds);
    expect(SPEC_WEB_VITAL_THRESHOLDS.LCP).toEqual(LCPThresholds);
  });
});
