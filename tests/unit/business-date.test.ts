import { dueDate } from "@/server/night-audit/run-audit";
import { describe, expect, it } from "vitest";
import { auditDueAt, businessClock, businessToday, dayClosed, handCloseAt, handCloseDay, zonedInstant } from "@/server/properties/business-date";
import { feeAmount } from "@/server/rates/fees";

// Issue 27: the property's business day and its night audit hour, and the rate plans' fees.

const ny = { timezone: "America/New_York", auditHour: 3, businessDate: null };

describe("the business day", () => {
  it("finds the instant of a wall-clock hour, across daylight saving time", () => {
    expect(zonedInstant("2026-03-02", 3, "America/New_York").toISOString()).toBe("2026-03-02T08:00:00.000Z"); // EST, UTC−5
    expect(zonedInstant("2026-07-02", 3, "America/New_York").toISOString()).toBe("2026-07-02T07:00:00.000Z"); // EDT, UTC−4
    expect(zonedInstant("2026-03-02", 23, "Pacific/Kiritimati").toISOString()).toBe("2026-03-02T09:00:00.000Z"); // UTC+14
  });

  it("reads the property's wall clock, on the open business date when that is ahead of the calendar", () => {
    const at = new Date("2026-07-02T03:30:15Z"); // 23:30:15 on 1 July in New York (EDT)
    expect(businessClock({ timezone: "America/New_York", businessDate: null }, at)).toBe("2026-07-01T23:30:15");
    expect(businessClock({ timezone: "America/New_York", businessDate: "2026-07-03" }, at)).toBe("2026-07-03T23:30:15");
    expect(businessClock({ timezone: "America/New_York", businessDate: "2026-06-30" }, at)).toBe("2026-07-01T23:30:15");
    expect(businessClock({ timezone: "Asia/Kolkata", businessDate: null }, at)).toBe("2026-07-02T09:00:15"); // UTC+5:30
  });

  it("closes a day at the audit hour of the next morning (before noon) or of the same evening", () => {
    expect(auditDueAt("2026-03-01", ny).toISOString()).toBe("2026-03-02T08:00:00.000Z");
    expect(auditDueAt("2026-03-01", { ...ny, auditHour: 23 }).toISOString()).toBe("2026-03-02T04:00:00.000Z");
    expect(dayClosed("2026-03-01", ny, new Date("2026-03-02T07:59:59Z"))).toBe(false);
    expect(dayClosed("2026-03-01", ny, new Date("2026-03-02T08:00:00Z"))).toBe(true);
    // An audit that already moved the business date past the day closed it, whatever the hour.
    expect(dayClosed("2026-03-01", { ...ny, businessDate: "2026-03-02" }, new Date("2026-03-02T01:00:00Z"))).toBe(true);
  });

  it("lets staff close a day by hand once it is over (midnight), or from an evening audit hour", () => {
    // 3 a.m. audit: by hand from midnight (05:00Z in winter), before the scheduler's 08:00Z.
    expect(handCloseAt("2026-03-01", ny).toISOString()).toBe("2026-03-02T05:00:00.000Z");
    // 10 p.m. audit: by hand from 10 p.m. the same evening (03:00Z), never at 4 p.m.
    expect(handCloseAt("2026-03-01", { ...ny, auditHour: 22 }).toISOString()).toBe("2026-03-02T03:00:00.000Z");
    // 4 p.m. on 1 March (21:00Z), yesterday closed: the open day is today, not closable until 10 p.m.
    const evening = { ...ny, auditHour: 22, businessDate: "2026-03-01" };
    expect(handCloseDay(evening, new Date("2026-03-01T21:00:00Z"))).toEqual({ date: "2026-03-01", opensAt: new Date("2026-03-02T03:00:00Z"), open: false });
    expect(handCloseDay(evening, new Date("2026-03-02T03:00:00Z")).open).toBe(true);
    // 1 a.m. on 2 March (06:00Z), never audited, 3 a.m. hour: 1 March is over and may be closed.
    expect(handCloseDay(ny, new Date("2026-03-02T06:00:00Z"))).toEqual({ date: "2026-03-01", opensAt: new Date("2026-03-02T05:00:00Z"), open: true });
    // 11 p.m. on 1 March: with a 3 a.m. hour, the day is not over yet; the day before it is.
    expect(handCloseDay(ny, new Date("2026-03-02T04:00:00Z")).date).toBe("2026-02-28");
  });

  it("is the open business date, behind the calendar (its audit not yet run) or ahead; the calendar's only for a property never audited", () => {
    const now = new Date("2026-03-02T12:00:00Z");
    expect(businessToday(ny, now)).toBe("2026-03-02");
    expect(businessToday({ ...ny, businessDate: "2026-03-01" }, now)).toBe("2026-03-01");
    expect(businessToday({ ...ny, businessDate: "2026-03-04" }, now)).toBe("2026-03-04");
  });

  it("closes no day before a never-audited property's calendar date: its today never goes back", () => {
    const never = { timezone: "America/New_York", auditHour: 3, businessDate: null };
    // 00:40 on 2 March in New York (05:40 UTC): 28 Feb's audit is due, but the property trades on 2 March.
    expect(dueDate(never, new Date("2026-03-02T05:40:00Z"))).toBeNull();
    // 03:05 on 2 March: the day before its calendar date closes, and its business date becomes 2 March.
    expect(dueDate(never, new Date("2026-03-02T08:05:00Z"))).toBe("2026-03-01");
    // Once audited, the due day follows the clock.
    expect(dueDate({ ...never, businessDate: "2026-03-01" }, new Date("2026-03-02T08:05:00Z"))).toBe("2026-03-01");
  });
});

describe("rate plan fees", () => {
  const nights = [
    { date: "2026-03-01", amount: 10_000 },
    { date: "2026-03-02", amount: 15_000 },
    { date: "2026-03-03", amount: 12_345 },
  ];
  it("come to a fixed amount, the first N nights' rates, or a rounded percentage of the nights", () => {
    expect(feeAmount(null, nights)).toBe(0);
    expect(feeAmount({ type: "fixed", amount: 2_500 }, nights)).toBe(2_500);
    expect(feeAmount({ type: "fixed", amount: 2_500 }, [])).toBe(2_500);
    expect(feeAmount({ type: "nights", nights: 2 }, nights)).toBe(25_000);
    expect(feeAmount({ type: "nights", nights: 5 }, nights)).toBe(37_345);
    expect(feeAmount({ type: "nights", nights: 1 }, [])).toBe(0);
    // 37,345 × 15 % = 5,601.75 → 5,602
    expect(feeAmount({ type: "percent", percent: 15 }, nights)).toBe(5_602);
  });
});
