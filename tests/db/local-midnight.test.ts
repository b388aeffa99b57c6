import { expect, it } from "vitest";
import { describeDb } from "../support/db.ts";
import { wallClock } from "../support/wall-clock.ts";

const ZONES = ["UTC", "America/New_York", "Asia/Kolkata", "Pacific/Chatham", "Australia/Lord_Howe"];

/** An independent answer from the JavaScript runtime's own zone database (ICU): the instant of the next local midnight. */
function oracleNextMidnight(from: Date, tz: string): Date {
  const wall = (d: Date) => wallClock(d.getTime(), tz);
  const local = new Date(wall(from));
  const target = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() + 1);
  let guess = target - (wall(from) - from.getTime());
  for (let i = 0; i < 3; i++) guess += target - wall(new Date(guess));
  return new Date(guess);
}

describeDb("next local midnight", (ctx) => {
  const next = async (from: string, tz: string) => {
    const [row] = await ctx.db.run<{ at: Date }>(
      "anon",
      "select public.next_local_midnight($1::timestamptz, $2) as at",
      [from, tz],
    );
    return row.at.toISOString();
  };

  it("is the next midnight of the zone, strictly after the given instant", async () => {
    expect(await next("2026-11-21T23:59:59Z", "UTC")).toBe("2026-11-22T00:00:00.000Z");
    expect(await next("2026-11-22T00:00:00Z", "UTC")).toBe("2026-11-23T00:00:00.000Z");
    expect(await next("2026-11-21T18:29:00Z", "Asia/Kolkata")).toBe("2026-11-21T18:30:00.000Z");
    expect(await next("2026-11-21T18:30:00Z", "Asia/Kolkata")).toBe("2026-11-22T18:30:00.000Z");
  });

  it("ends the 23-hour spring-forward day of New York at its real midnight (2026-03-08)", async () => {
    expect(await next("2026-03-07T17:00:00Z", "America/New_York")).toBe("2026-03-08T05:00:00.000Z");
    expect(await next("2026-03-08T06:59:00Z", "America/New_York")).toBe("2026-03-09T04:00:00.000Z");
    expect(await next("2026-03-08T16:00:00Z", "America/New_York")).toBe("2026-03-09T04:00:00.000Z");
  });

  it("ends the 25-hour fall-back day of New York at its real midnight (2026-11-01)", async () => {
    expect(await next("2026-10-31T16:00:00Z", "America/New_York")).toBe("2026-11-01T04:00:00.000Z");
    // 01:30 happens twice that night; both are on 1 November.
    expect(await next("2026-11-01T05:30:00Z", "America/New_York")).toBe("2026-11-02T05:00:00.000Z");
    expect(await next("2026-11-01T06:30:00Z", "America/New_York")).toBe("2026-11-02T05:00:00.000Z");
  });

  it("handles quarter-hour offsets and their daylight-saving changes (Chatham, Lord Howe)", async () => {
    expect(await next("2026-11-21T12:00:00Z", "Pacific/Chatham")).toBe("2026-11-22T10:15:00.000Z"); // +13:45
    expect(await next("2026-07-01T00:00:00Z", "Pacific/Chatham")).toBe("2026-07-01T11:15:00.000Z"); // +12:45
    expect(await next("2026-09-26T12:00:00Z", "Pacific/Chatham")).toBe("2026-09-27T10:15:00.000Z"); // 23-hour day
    expect(await next("2026-04-04T12:00:00Z", "Pacific/Chatham")).toBe("2026-04-05T11:15:00.000Z"); // 25-hour day
    expect(await next("2026-10-03T13:00:00Z", "Australia/Lord_Howe")).toBe("2026-10-03T13:30:00.000Z"); // +10:30
    expect(await next("2026-10-03T14:00:00Z", "Australia/Lord_Howe")).toBe("2026-10-04T13:00:00.000Z"); // 23.5-hour day
    expect(await next("2026-04-04T14:00:00Z", "Australia/Lord_Howe")).toBe("2026-04-05T13:30:00.000Z"); // 24.5-hour day
  });

  it("agrees with the JavaScript runtime's zone database across a year, in every zone tested", async () => {
    const instants: string[] = [];
    for (let t = Date.UTC(2026, 0, 1, 0, 17); t < Date.UTC(2027, 0, 1); t += 37 * 3600_000 + 23 * 60_000)
      instants.push(new Date(t).toISOString());
    for (const tz of ZONES) {
      const rows = await ctx.db.query<{ from: Date; at: Date }>(
        "select f as from, public.next_local_midnight(f, $2) as at from unnest($1::timestamptz[]) f",
        [instants, tz],
      );
      const mismatches = rows
        .filter((r) => r.at.getTime() !== oracleNextMidnight(r.from, tz).getTime())
        .map(
          (r) =>
            `${tz} ${r.from.toISOString()} -> ${r.at.toISOString()} (expected ${oracleNextMidnight(r.from, tz).toISOString()})`,
        );
      expect(mismatches).toEqual([]);
      expect(rows.length).toBeGreaterThan(200);
    }
  });

  it("keeps a window at least 20 hours long after a time-zone change, and never otherwise", async () => {
    // [The previous reset, now], [the zone before, the zone after], the next reset.
    const windows: [[string, string], [string, string], string][] = [
      // Unchanged zone: the next local midnight after now, whatever the previous reset was.
      [["2026-11-21T00:00:00Z", "2026-11-21T00:01:00Z"], ["UTC", "UTC"], "2026-11-22T00:00:00.000Z"],
      [["2026-11-21T00:00:00Z", "2026-11-21T23:59:00Z"], ["UTC", "UTC"], "2026-11-22T00:00:00.000Z"],
      [
        ["2026-03-08T05:00:00Z", "2026-03-08T05:00:01Z"],
        ["America/New_York", "America/New_York"],
        "2026-03-09T04:00:00.000Z",
      ],
      // Switching to Kiritimati (+14) right at UTC midnight: its midnight is 10 hours away, too soon.
      [["2026-11-21T00:00:00Z", "2026-11-21T00:01:00Z"], ["UTC", "Pacific/Kiritimati"], "2026-11-22T10:00:00.000Z"],
      // A change noticed long after the window ended: the zone's next midnight after now.
      [["2026-11-18T00:00:00Z", "2026-11-21T00:01:00Z"], ["UTC", "Pacific/Kiritimati"], "2026-11-21T10:00:00.000Z"],
      // Switching to New York, where 20 November is not over yet: its midnight is 5 hours away, too soon.
      [["2026-11-21T00:00:00Z", "2026-11-21T00:01:00Z"], ["UTC", "America/New_York"], "2026-11-22T05:00:00.000Z"],
      // Switching to Kolkata at 23:30 there: its midnight is 18.5 hours after the last reset, too soon.
      [["2026-11-21T00:00:00Z", "2026-11-21T18:00:00Z"], ["UTC", "Asia/Kolkata"], "2026-11-22T18:30:00.000Z"],
      // A new zone whose next midnight is far enough away takes over at once.
      [["2026-11-21T00:00:00Z", "2026-11-21T00:01:00Z"], ["UTC", "Europe/London"], "2026-11-22T00:00:00.000Z"],
      [["2026-11-21T00:00:00Z", "2026-11-21T22:00:00Z"], ["UTC", "America/Sao_Paulo"], "2026-11-22T03:00:00.000Z"],
    ];
    for (const [[previous, now], [oldTz, newTz], expected] of windows) {
      const [row] = await ctx.db.query<{ at: Date }>("select private.next_reset_at($1, $2, $3, $4) as at", [
        previous,
        now,
        oldTz,
        newTz,
      ]);
      expect(row.at.toISOString(), `${oldTz} to ${newTz} at ${now}, last reset ${previous}`).toBe(expected);
    }
  });
});
