import { afterEach, describe, expect, it, vi } from "vitest";
import { deviceTimezone } from "#src/lib/time-zone.ts";

afterEach(() => {
  vi.restoreAllMocks();
});

const real = Intl.DateTimeFormat;

/** Makes Intl answer `zone` from now on; the spy counts the asks from now on. */
function zoneIs(zone: string) {
  const spy = vi.spyOn(Intl, "DateTimeFormat").mockImplementation(((...args: ConstructorParameters<typeof real>) => {
    const format = new real(...args);
    const options = format.resolvedOptions();
    return Object.assign(format, { resolvedOptions: () => ({ ...options, timeZone: zone }) });
  }) as typeof Intl.DateTimeFormat);
  spy.mockClear();
  return spy;
}

describe("the device's time zone", () => {
  it("is read once a minute, so a zone changed while the page is open is heard within one", () => {
    const start = 10_000_000_000;
    let asked = zoneIs("Europe/Paris");
    expect(deviceTimezone(start)).toBe("Europe/Paris");
    expect(asked).toHaveBeenCalledTimes(1);
    asked = zoneIs("Asia/Tokyo");
    expect(deviceTimezone(start + 30_000)).toBe("Europe/Paris");
    expect(asked).not.toHaveBeenCalled();
    expect(deviceTimezone(start + 60_000)).toBe("Asia/Tokyo");
    expect(asked).toHaveBeenCalledTimes(1);
    // A clock set back reads again rather than trusting a reading from its future.
    zoneIs("America/Lima");
    expect(deviceTimezone(start)).toBe("America/Lima");
  });

  it("is null where the runtime cannot tell", () => {
    vi.spyOn(Intl, "DateTimeFormat").mockImplementation(() => {
      throw new RangeError("no time zone data");
    });
    expect(deviceTimezone(20_000_000_000)).toBeNull();
  });
});
