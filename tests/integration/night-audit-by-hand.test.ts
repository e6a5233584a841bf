import { TRPCError } from "@trpc/server";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, folioCharges, nightAudits, properties } from "@/db/schema";
import type { StaffRole } from "@/server/auth/users";
import { addDays, todayIn, type IsoDate } from "@/lib/dates";
import { runNightAudit } from "@/server/night-audit/run-audit";
import type { StaffSession } from "@/server/next-auth/session";
import { createCaller } from "@/server/trpc/routers/_app";
import { startHarness, type Harness } from "../support/harness";
import { buildRoomType, countEvents, insertProperty, ok, type Caller, type RoomTypeSetup } from "../support/hotel";

// Issue 27: the night audit run by hand from the reports page (owners and managers), the same
// service as the scheduler's, and the trail of what the audit does (each no-show, the day's close)
// with the night audit as the actor. The hotel's zone is chosen when the test runs so that it is
// 6 p.m. there (a whole-hour zone), which makes a noon audit hour past and a 10 p.m. one to come.

let h: Harness;
let api: Caller;
let hotel: { propertyId: string; today: IsoDate; timezone: string };
let type: RoomTypeSetup;

const session = (role: StaffRole): StaffSession => ({
  user: { id: `usr_${role}`, accountId: h.main.account.id, role, name: role, email: `${role}@audit-by-hand.example` },
  expires: new Date(Date.now() + 3_600_000).toISOString(),
});
const as = (role: StaffRole) => createCaller({ db: h.db, session: session(role), livemode: false });

async function failure(call: Promise<unknown>) {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, "the call should have failed").toBeInstanceOf(TRPCError);
  return error as TRPCError;
}

/** A whole-hour zone where it is `hour` o'clock now: Etc/GMT-N is UTC+N. */
function zoneAt(hour: number) {
  let offset = (hour - new Date().getUTCHours() + 24) % 24;
  if (offset > 14) offset -= 24;
  return offset === 0 ? "Etc/GMT" : offset > 0 ? `Etc/GMT-${offset}` : `Etc/GMT+${-offset}`;
}

const setProperty = (values: Partial<typeof properties.$inferInsert>) => h.db.update(properties).set(values).where(eq(properties.id, hotel.propertyId));
const propertyRow = async () => (await h.db.select().from(properties).where(eq(properties.id, hotel.propertyId)))[0];
const noShowFees = async (reservationId: string) =>
  (await h.db.select().from(folioCharges).where(and(eq(folioCharges.reservationId, reservationId), eq(folioCharges.kind, "no_show_fee")))).map((c) => c.amount);
const auditRows = async () => h.db.select().from(nightAudits).where(eq(nightAudits.propertyId, hotel.propertyId));
const trailCount = async () => Number((await h.db.select({ n: sql<number>`count(*)::int` }).from(auditLog).where(eq(auditLog.accountId, h.main.account.id)))[0].n);

let arriving: { id: string };
let later: { id: string };

beforeAll(async () => {
  h = await startHarness();
  api = { token: h.main.token, sandbox: true };
  const timezone = zoneAt(18);
  const property = await insertProperty(h, h.main.account.id, { livemode: false, name: "Hand Audit Inn", timezone });
  hotel = { propertyId: property.id, today: todayIn(timezone), timezone };
  type = await buildRoomType(h, api, hotel.propertyId, hotel.today, { rooms: 3, amount: 10_000 });
  // The plan charges a no-show its first night: 100.00.
  ok(await h.patch(`/v1/rate_plans/${type.ratePlanId}`, { no_show_fee: { type: "nights", nights: 1 } }, api));
  const book = (checkIn: IsoDate, last: string) =>
    as("front_desk").reservations.create({
      property_id: hotel.propertyId,
      room_type_id: type.roomTypeId,
      rate_plan_id: type.ratePlanId,
      check_in: checkIn,
      check_out: addDays(checkIn, 2),
      adults: 1,
      guest: { first_name: "Ada", last_name: last, email: `${last.toLowerCase()}@audit-by-hand.example` },
      source: "phone",
    });
  arriving = await book(hotel.today, "Arriving");
  later = await book(addDays(hotel.today, 1), "Tomorrow");
  // Yesterday is closed; today is the open business day, whose audit hour is 10 p.m.
  await setProperty({ businessDate: hotel.today, auditHour: 22 });
}, 120_000);
afterAll(async () => h?.close());

describe("running the night audit by hand", () => {
  it("is for owners and managers: front desk and housekeeping are refused, and another account's property is missing", async () => {
    for (const role of ["front_desk", "housekeeping"] as const) {
      expect((await failure(as(role).reports.nightAuditPlan({ property_id: hotel.propertyId }))).code).toBe("FORBIDDEN");
      expect((await failure(as(role).reports.runNightAudit({ property_id: hotel.propertyId, business_date: hotel.today }))).code).toBe("FORBIDDEN");
    }
    const other = await h.newAccount("Other Hotels");
    const stranger = createCaller({ db: h.db, session: { ...session("owner"), user: { ...session("owner").user, accountId: other.account.id } }, livemode: false });
    expect((await failure(stranger.reports.nightAuditPlan({ property_id: hotel.propertyId }))).code).toBe("NOT_FOUND");
    expect((await failure(as("manager").reports.runNightAudit({ property_id: hotel.propertyId, business_date: "2026-02-30" }))).code).toBe("UNPROCESSABLE_CONTENT");
    expect(await auditRows()).toEqual([]);
  });

  it("at 6 p.m. with a 10 p.m. audit hour, refuses to close today with a reason in words, and changes nothing", async () => {
    const plan = await as("manager").reports.nightAuditPlan({ property_id: hotel.propertyId });
    expect(plan).toMatchObject({ business_date: hotel.today, open: false, arrivals: [], departures: [] });
    expect(plan.reason).toMatch(/^The business day of .+ can be closed from .+, once it is over/);
    expect(plan.reason).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    const events = await countEvents(h, h.main.account.id);
    const trail = await trailCount();
    const refused = await failure(as("manager").reports.runNightAudit({ property_id: hotel.propertyId, business_date: hotel.today }));
    expect(refused.code).toBe("CONFLICT");
    expect(refused.message).toBe(plan.reason);
    // Another day than the one due is refused too.
    expect((await failure(as("owner").reports.runNightAudit({ property_id: hotel.propertyId, business_date: addDays(hotel.today, 1) }))).code).toBe("UNPROCESSABLE_CONTENT");
    expect(await auditRows()).toEqual([]);
    expect((await propertyRow()).businessDate).toBe(hotel.today);
    expect((await as("front_desk").reservations.get({ id: arriving.id })).reservation.status).toBe("confirmed");
    expect(await noShowFees(arriving.id)).toEqual([]);
    expect(await countEvents(h, h.main.account.id)).toBe(events);
    expect(await trailCount()).toBe(trail);
  });

  it("once the audit hour (noon) has passed, lists today's unarrived guest with the fee, then marks the no-show and moves the date", async () => {
    await setProperty({ auditHour: 12 });
    const plan = await as("owner").reports.nightAuditPlan({ property_id: hotel.propertyId });
    expect(plan).toMatchObject({ business_date: hotel.today, next_business_date: addDays(hotel.today, 1), open: true, reason: null, departures: [] });
    // The first night of 100.00, no tax at this property.
    expect(plan.arrivals).toEqual([{ reservation_id: arriving.id, guest_name: "Ada Arriving", check_in: hotel.today, fee: { amount: 10_000, currency: "USD" } }]);
    // The plan kept nothing.
    expect(await auditRows()).toEqual([]);
    expect(await noShowFees(arriving.id)).toEqual([]);

    const run = await as("manager").reports.runNightAudit({ property_id: hotel.propertyId, business_date: hotel.today });
    expect(run.ran).toBe(true);
    expect(run.audit).toMatchObject({ business_date: hotel.today, trigger: "manual", no_shows: [arriving.id], departures_in_house: [] });
    expect(run.audit.flash.revenue_by_kind.no_show_fee).toBe(10_000);
    expect((await as("front_desk").reservations.get({ id: arriving.id })).reservation.status).toBe("no_show");
    expect(await noShowFees(arriving.id)).toEqual([10_000]);
    expect((await as("front_desk").reservations.get({ id: later.id })).reservation.status).toBe("confirmed");
    expect((await propertyRow()).businessDate).toBe(addDays(hotel.today, 1));
    // The reports page lists it.
    expect((await as("manager").reports.nightAudits({ property_id: hotel.propertyId }))[0]).toMatchObject({ id: run.audit.id, trigger: "manual" });
  });

  it("a second run of the same date changes nothing and gives the same audit back", async () => {
    const events = await countEvents(h, h.main.account.id);
    const trail = await trailCount();
    const again = await as("owner").reports.runNightAudit({ property_id: hotel.propertyId, business_date: hotel.today });
    expect(again.ran).toBe(false);
    expect((await auditRows()).map((a) => a.id)).toEqual([again.audit.id]);
    expect(await noShowFees(arriving.id)).toEqual([10_000]);
    expect((await propertyRow()).businessDate).toBe(addDays(hotel.today, 1));
    expect(await countEvents(h, h.main.account.id)).toBe(events);
    expect(await trailCount()).toBe(trail);
    // Tomorrow is now the open day, not closable before it is over.
    expect(await as("manager").reports.nightAuditPlan({ property_id: hotel.propertyId })).toMatchObject({ business_date: addDays(hotel.today, 1), open: false });
  });
});

describe("the trail of the night audit", () => {
  it("run by hand: the no-show and the day's close are the night audit's, naming who ran it", async () => {
    const stay = await as("manager").audit.list({ object_type: "reservation", object_id: arriving.id });
    const noShow = stay.data.find((e) => e.action === "reservation.no_show")!;
    expect(noShow).toMatchObject({
      title: "Marked as a no-show",
      actor: { type: "night_audit", email: "manager@audit-by-hand.example", name: "the night audit, run by manager@audit-by-hand.example" },
      before: { status: "confirmed" },
      after: { status: "no_show" },
    });
    const property = await as("manager").audit.list({ object_type: "property", object_id: hotel.propertyId });
    const closed = property.data.filter((e) => e.action === "property.day_closed");
    expect(closed).toHaveLength(1);
    expect(closed[0]).toMatchObject({
      actor: { type: "night_audit", name: "the night audit, run by manager@audit-by-hand.example" },
      before: { business_date: hotel.today },
      after: { business_date: addDays(hotel.today, 1), no_shows: 1 },
    });
  });

  it("run by itself: the no-show and the day's close are the night audit's, no one else's", async () => {
    // Tomorrow's arrival never comes: the scheduled audit of tomorrow, a minute after its noon hour.
    const tomorrow = addDays(hotel.today, 1);
    const now = new Date(Date.parse(`${tomorrow}T12:01:00Z`) - offsetMs(hotel.timezone));
    const audit = await runNightAudit({ db: h.db, propertyId: hotel.propertyId, trigger: "scheduled", now });
    expect(audit).toMatchObject({ businessDate: tomorrow, noShows: [later.id] });
    const stay = await as("owner").audit.list({ object_type: "reservation", object_id: later.id });
    expect(stay.data.find((e) => e.action === "reservation.no_show")).toMatchObject({ actor: { type: "night_audit", email: null, name: "the night audit" } });
    const property = await as("owner").audit.list({ object_type: "property", object_id: hotel.propertyId });
    const closed = property.data.filter((e) => e.action === "property.day_closed");
    expect(closed).toHaveLength(2);
    expect(closed[0]).toMatchObject({ actor: { name: "the night audit" }, before: { business_date: tomorrow }, after: { business_date: addDays(tomorrow, 1) } });
    // Nowhere an id: the trail's sentence names the night audit.
    expect(closed[0].actor.name).not.toMatch(/usr_|night_audit/);
  });
});

/** The offset of an Etc/GMT zone from UTC in milliseconds (Etc/GMT-5 is UTC+5). */
function offsetMs(zone: string) {
  const m = /^Etc\/GMT([+-]\d+)?$/.exec(zone);
  return m?.[1] ? -Number(m[1]) * 3_600_000 : 0;
}
