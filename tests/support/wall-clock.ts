// What a wall clock in a time zone reads at an instant, from the JavaScript runtime's own zone database
// (ICU): for the fakes and oracles that reason about a person's local day.

const formats = new Map<string, Intl.DateTimeFormat>();

/** The reading of a clock in `timeZone` at `instant` (whole seconds), as the UTC timestamp of that same reading. */
export function wallClock(instant: number, timeZone: string): number {
  let fmt = formats.get(timeZone);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formats.set(timeZone, fmt);
  }
  const p = Object.fromEntries(fmt.formatToParts(instant).map((x) => [x.type, Number(x.value)]));
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
}
