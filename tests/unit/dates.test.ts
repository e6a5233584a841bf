import { describe, expect, it } from "vitest";
import { addDays, daysBetween, isoTime, isoTimeOrNull, nightsOf, todayIn, weekdayOf } from "@/lib/dates";

describe("todayIn: the property's local date decides today", () => {
  it("gives each time zone its own date for one instant", () => {
    const now = new Date("2026-06-30T10:30:00Z");
    expect(todayIn("UTC", now)).toBe("2026-06-30");
    expect(todayIn("Pacific/Kiritimati", now)).toBe("2026-07-01"); // UTC+14
    expect(todayIn("Pacific/Pago_Pago", now)).toBe("2026-06-29"); // UTC-11
    expect(todayIn("Asia/Tokyo", now)).toBe("2026-06-30");
  });

  it("turns the date at local midnight, with the offset in force that day (DST)", () => {
    // Winter, EST = UTC-5: midnight is 05:00Z.
    expect(todayIn("America/New_York", new Date("2026-01-15T04:59:59Z"))).toBe("2026-01-14");
    expect(todayIn("America/New_York", new Date("2026-01-15T05:00:00Z"))).toBe("2026-01-15");
    // Summer, EDT = UTC-4: midnight is 04:00Z.
    expect(todayIn("America/New_York", new Date("2026-07-01T03:59:59Z"))).toBe("2026-06-30");
    expect(todayIn("America/New_York", new Date("2026-07-01T04:00:00Z"))).toBe("2026-07-01");
    // Half-hour offsets: India is UTC+5:30.
    expect(todayIn("Asia/Kolkata", new Date("2026-12-31T18:29:59Z"))).toBe("2026-12-31");
    expect(todayIn("Asia/Kolkata", new Date("2026-12-31T18:30:00Z"))).toBe("2027-01-01");
  });

  it("answers YYYY-MM-DD", () => {
    expect(todayIn("Europe/Lisbon", new Date("2026-02-03T12:00:00Z"))).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});

describe("nightsOf: each night of a half-open range", () => {
  it("lists from the first night up to, not including, the departure day", () => {
    expect(nightsOf("2026-11-20", "2026-11-23")).toEqual(["2026-11-20", "2026-11-21", "2026-11-22"]);
    expect(nightsOf("2026-11-20", "2026-11-21")).toEqual(["2026-11-20"]);
  });

  it("is empty for an empty or reversed range", () => {
    expect(nightsOf("2026-11-20", "2026-11-20")).toEqual([]);
    expect(nightsOf("2026-11-21", "2026-11-20")).toEqual([]);
  });

  it("crosses months, years, leap days and DST changes without losing or doubling a night", () => {
    expect(nightsOf("2026-12-30", "2027-01-02")).toEqual(["2026-12-30", "2026-12-31", "2027-01-01"]);
    expect(nightsOf("2028-02-28", "2028-03-01")).toEqual(["2028-02-28", "2028-02-29"]);
    expect(nightsOf("2027-02-28", "2027-03-01")).toEqual(["2027-02-28"]);
    // US DST starts 2026-03-08 and ends 2026-11-01; Europe's on 2026-03-29 and 2026-10-25.
    expect(nightsOf("2026-03-07", "2026-03-10")).toEqual(["2026-03-07", "2026-03-08", "2026-03-09"]);
    expect(nightsOf("2026-10-24", "2026-10-27")).toEqual(["2026-10-24", "2026-10-25", "2026-10-26"]);
    expect(nightsOf("2026-01-01", "2027-01-01")).toHaveLength(365);
    expect(nightsOf("2028-01-01", "2029-01-01")).toHaveLength(366);
  });

  it("agrees with addDays and daysBetween", () => {
    expect(addDays("2026-02-27", 2)).toBe("2026-03-01");
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
    expect(daysBetween("2026-03-07", "2026-03-10")).toBe(3);
    expect(daysBetween("2026-03-10", "2026-03-07")).toBe(-3);
  });
});

describe("weekdayOf", () => {
  it("names the calendar weekday of a date, whatever the machine's zone", () => {
    expect(weekdayOf("2026-01-01")).toBe("thu");
    expect(weekdayOf("2026-11-21")).toBe("sat");
    expect(weekdayOf("2026-03-08")).toBe("sun");
    expect(weekdayOf("2028-02-29")).toBe("tue");
    expect(nightsOf("2026-11-16", "2026-11-23").map(weekdayOf)).toEqual(["mon", "tue", "wed", "thu", "fri", "sat", "sun"]);
  });
});

describe("date arithmetic past its caches", () => {
  it("agrees with Date over more dates than the caches hold, and still refuses a date that is not one", () => {
    // 60,000 days (164 years) overflows the parse and format caches (20,000 each) several times.
    const start = Date.UTC(1950, 0, 1);
    for (let i = 0; i < 60_000; i += 7) {
      const expected = new Date(start + (i + 3) * 86_400_000).toISOString().slice(0, 10);
      const from = new Date(start + i * 86_400_000).toISOString().slice(0, 10);
      expect(addDays(from, 3)).toBe(expected);
      expect(daysBetween(from, expected)).toBe(3);
    }
    expect(addDays("2026-02-28", 1)).toBe("2026-03-01");
    expect(() => addDays("2026-13-45", 1)).toThrow(RangeError);
    expect(() => addDays("2026-13-45", 1)).toThrow(RangeError);
  });
});

describe("isoTime", () => {
  it("writes exactly what toISOString writes, at the edges of days, leap years and its range", () => {
    const edges = [
      0,
      1,
      86_399_999,
      Date.parse("2024-02-29T23:59:59.999Z"),
      Date.parse("2000-02-29T00:00:00.000Z"),
      Date.parse("2026-11-24T10:05:09.007Z"),
      Date.parse("2026-12-31T23:59:59.990Z"),
      Date.parse("9999-12-31T23:59:59.999Z"),
      // Outside 1970-9999 it hands over to toISOString, whose forms differ there.
      -1,
      Date.parse("1969-07-20T20:17:40.000Z"),
      Date.parse("+010000-01-01T00:00:00.000Z"),
    ];
    for (const ms of edges) expect(isoTime(new Date(ms)), String(ms)).toBe(new Date(ms).toISOString());
    let seed = 7;
    for (let i = 0; i < 20_000; i++) {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      const ms = Math.floor((seed / 2_147_483_648) * Date.parse("2100-01-01T00:00:00Z"));
      expect(isoTime(new Date(ms))).toBe(new Date(ms).toISOString());
    }
  });

  it("keeps null as null", () => {
    expect(isoTimeOrNull(null)).toBeNull();
    expect(isoTimeOrNull(undefined)).toBeNull();
    expect(isoTimeOrNull(new Date(5))).toBe("1970-01-01T00:00:00.005Z");
  });

  it("throws on an invalid date, as toISOString does", () => {
    expect(() => isoTime(new Date(NaN))).toThrow(RangeError);
  });
});
