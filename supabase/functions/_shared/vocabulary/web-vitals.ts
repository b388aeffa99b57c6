// Web vitals the product records (docs/spec.md §7) and the thresholds that rate them (docs/spec.md §9). The database
// derives the stored rating itself (`public.web_vital_rating`, a generated column), so a client can
// never store a rating of its own; a backend test proves the database rates exactly as this file does.

export const WEB_VITAL_NAMES = ["FCP", "CLS", "INP", "LCP", "FID"] as const;
export type WebVitalName = (typeof WEB_VITAL_NAMES)[number];

export type WebVitalRating = "good" | "needs-improvement" | "poor";

/** [good, poor] per metric: milliseconds, except CLS (unitless layout-shift score). */
export const WEB_VITAL_THRESHOLDS: Readonly<Record<WebVitalName, readonly [good: number, poor: number]>> = {
  FCP: [1800, 3000],
  CLS: [0.1, 0.25],
  INP: [200, 500],
  LCP: [2500, 4000],
  FID: [100, 300],
};

export function isWebVitalName(value: unknown): value is WebVitalName {
  return WEB_VITAL_NAMES.includes(value as WebVitalName);
}

/** At most the good threshold is good; above the poor one is poor (the web-vitals library's rule). */
export function rateWebVital(name: WebVitalName, value: number): WebVitalRating {
  const [good, poor] = WEB_VITAL_THRESHOLDS[name];
  if (value <= good) return "good";
  if (value <= poor) return "needs-improvement";
  return "poor";
}
