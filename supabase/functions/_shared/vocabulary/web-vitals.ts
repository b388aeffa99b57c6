// Web vitals the product records (docs/spec.md §7). The database rates each one itself by the thresholds
// of docs/spec.md §9 (`public.web_vital_rating`, a generated column), so a client can never store a
// rating of its own; the db and backend tests hold it to the spec's figures.

export const WEB_VITAL_NAMES = ["FCP", "CLS", "INP", "LCP", "FID"] as const;
export type WebVitalName = (typeof WEB_VITAL_NAMES)[number];

export function isWebVitalName(value: unknown): value is WebVitalName {
  return WEB_VITAL_NAMES.includes(value as WebVitalName);
}
