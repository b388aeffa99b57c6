// The device's IANA time zone, the one reading of it the app makes. Building an Intl.DateTimeFormat to ask
// costs a few tenths of a millisecond, and every send asks (its quota's day is the person's), so the
// answer is kept for a minute: a zone changed while a page is open (a trip) is heard within that.

const KEEP_MS = 60_000;
let known: { zone: string | null; at: number } | null = null;

/** The device's time zone, or null where the runtime cannot tell. */
export function deviceTimezone(now: number = Date.now()): string | null {
  if (known && now - known.at < KEEP_MS && now >= known.at) return known.zone;
  let zone: string | null;
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone || null;
  } catch {
    zone = null;
  }
  known = { zone, at: now };
  return zone;
}
