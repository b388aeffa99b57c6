// The spec's web-vitals thresholds (docs/spec.md §9), [good, poor] per metric: milliseconds, except CLS
// (a unitless layout-shift score). The product rates nothing itself: the database derives each stored
// rating (`public.web_vital_rating`, a generated column), and the tests hold it and the web-vitals
// library to these figures.
import type { WebVitalName } from "#shared/vocabulary/web-vitals.ts";

export const SPEC_WEB_VITAL_THRESHOLDS: Readonly<Record<WebVitalName, readonly [good: number, poor: number]>> = {
  FCP: [1800, 3000],
  CLS: [0.1, 0.25],
  INP: [200, 500],
  LCP: [2500, 4000],
  FID: [100, 300],
};
