import { and, eq, sql } from "drizzle-orm";
import { InngestTestEngine } from "@inngest/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, rowsOf, type Db } from "@/db/client";
import { folioCharges, nightAudits, properties } from "@/db/schema";
import { addDays, type IsoDate } from "@/lib/dates";
import { createRunNightAudits } from "@/server/night-audit/inngest-function";
import { auditDueAt } from "@/server/properties/business-date";
import { onPostgres } from "../support/database";
import { startHarness, type Harness } from "../support/harness";
import { auditHotel, bookingBody, ok, type Caller } from "../support/hotel";

// Issue 27, item 3: with Inngest configured, a cron function runs the night audit. It is the
// embedded scheduler's audit (runDueAudits), so each property's business date closes once, at
// its audit hour, however often the cron fires and however many runs overlap. Run here with
// @inngest/test (the dev server cannot be installed), against the real databases, with the
// function's clock set to the moments that matter instead of waiting for them.

let h: Harness;
let caller: Caller;
beforeAll(async () => {
  h = await startHarness();
  caller = { token: h.main.token };
});
afterAll(async () => h?.close());

type Hotel = Awaited<ReturnType<typeof auditHotel>>;

/** A fresh New York property (audit hour 03:00): 2 rooms at 10,000 a night, a 5,000 no-show fee. */
const hotel = (): Promise<Hotel> => auditHotel(h, caller, { rooms: 2, days: 5 });

/** A stay arriving today that never arrives. */
const absentGuest = async (t: Hotel) =>
  ok(
    await h.post(
      "/v1/reservations",
      bookingBody({ propertyId: t.propertyId, roomTypeId: t.type.roomTypeId, ratePlanId: t.type.ratePlanId }, t.today, addDays(t.today, 2), {
        guest: { first_name: "Absent", last_name: "Guest", email: `absent.${t.propertyId}@example.com` },
      }),
      caller,
    ),
    201,
  );

/** `minutes` after the audit hour that closes `date` (03:00 the next morning, New York time). */
const atAudit = (t: Hotel, date: IsoDate, minutes = 1) => new Date(auditDueAt(date, { timezone: t.timezone, auditHour: 3 }).getTime() + minutes * 60_000);

/** One cron run of the function, its clock at `now`. */
async function cronRun(now: Date, db: Db = h.db) {
  const t = new InngestTestEngine({ function: createRunNightAudits(async () => db, () => now), events: [{ name: "inngest/scheduled.timer", data: { cron: "* * * * *" } }] });
  const { result, ctx } = await t.execute();
  const steps = (ctx as unknown as { step: { run: { mock: { calls: unknown[][] } } } }).step.run.mock.calls.map((c) => c[0]);
  return { ran: result as string[], steps };
}

const auditsOf = async (t: Hotel) =>
  (await h.db.select().from(nightAudits).where(eq(nightAudits.propertyId, t.propertyId))).map((a) => ({ id: a.id, date: a.businessDate, noShows: a.noShows })).sort((a, b) => (a.date < b.date ? -1 : 1));
const announced = async (t: Hotel) => rowsOf<{ n: number }>(await h.db.execute(sql`select count(*)::int as n from events where type = 'night_audit.completed' and property_id = ${t.propertyId}`))[0].n;
const noShowFees = async (folioId: string) => (await h.db.select().from(folioCharges).where(and(eq(folioCharges.folioId, folioId), eq(folioCharges.kind, "no_show_fee")))).length;
const businessDate = async (t: Hotel) => (await h.db.select().from(properties).where(eq(properties.id, t.propertyId)))[0].businessDate;

describe("the night audit's Inngest function", () => {
  it("runs the same audit as the scheduler: each business date closed once, at its audit hour, however often the cron fires", async () => {
    const t = await hotel();
    const T = t.today;
    const absent = await absentGuest(t);

    // Just before 03:00 after the arrival night: only the day before is due, and a new property
    // never traded it, so nothing closes (closing it would move its today back a day).
    const early = await cronRun(atAudit(t, T, -2));
    expect(early.steps).toEqual(["run-due-night-audits"]);
    expect(await auditsOf(t)).toEqual([]);
    expect(ok(await h.get(`/v1/reservations/${absent.id}`, caller)).status).toBe("confirmed");
    expect(await announced(t)).toBe(0);

    // From 03:00, the arrival night closes: the absent guest becomes a no-show with its 5,000 fee,
    // the business date moves to T+1, night_audit.completed is written. The cron firing again the
    // same minute, and a minute later, closes nothing twice.
    const first = await cronRun(atAudit(t, T));
    const second = await cronRun(atAudit(t, T));
    const third = await cronRun(atAudit(t, T, 2));
    const audits = await auditsOf(t);
    expect(audits.map((a) => [a.date, a.noShows])).toEqual([[T, [absent.id]]]);
    expect(first.ran).toContain(audits[0].id);
    for (const run of [second, third]) expect(run.ran.filter((id) => audits.some((a) => a.id === id))).toEqual([]);
    expect(ok(await h.get(`/v1/reservations/${absent.id}`, caller)).status).toBe("no_show");
    expect(await noShowFees(absent.folio_id)).toBe(1);
    expect(await announced(t)).toBe(1);
    expect(await businessDate(t)).toBe(addDays(T, 1));

    // The next night's hour closes the next date, once.
    await cronRun(atAudit(t, addDays(T, 1)));
    await cronRun(atAudit(t, addDays(T, 1)));
    expect((await auditsOf(t)).map((a) => a.date)).toEqual([T, addDays(T, 1)]);
    expect(await announced(t)).toBe(2);
    expect(await noShowFees(absent.folio_id)).toBe(1);
    expect(await businessDate(t)).toBe(addDays(T, 2));
  });

  it.runIf(onPostgres)("two runs at the same moment on two connections (two workers) close the date once", async () => {
    const t = await hotel();
    const absent = await absentGuest(t);
    const other = await openDatabase({ url: h.databaseUrl!, migrate: false, max: 2 });
    try {
      const now = atAudit(t, t.today);
      const runs = await Promise.all([cronRun(now), cronRun(now, other.db), cronRun(now)]);
      // A new property's first run closes the date due (its arrival night), not the one before.
      const audits = await auditsOf(t);
      expect(audits.map((a) => a.date)).toEqual([t.today]);
      // Each audit was written by exactly one of the runs.
      for (const audit of audits) expect(runs.filter((r) => r.ran.includes(audit.id))).toHaveLength(1);
      expect(await noShowFees(absent.folio_id)).toBe(1);
      expect(await announced(t)).toBe(1);
    } finally {
      await other.close();
    }
  });
});
