import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, rowsOf } from "@/db/client";
import { folioCharges, nightAudits, properties } from "@/db/schema";
import { addDays, type IsoDate } from "@/lib/dates";
import { runDueAudits, runNightAudit } from "@/server/night-audit/run-audit";
import { auditDueAt } from "@/server/properties/business-date";
import { expectError } from "../support/assertions";
import { onPostgres } from "../support/database";
import { startHarness, type Harness } from "../support/harness";
import { auditHotel, bookingBody, eventsFor, ok, sandboxProperty, type Caller } from "../support/hotel";

// Issue 27, item 3: the night audit closes each property's business day once, at its audit hour:
// no-shows with their fee, departures still in house flagged, the day's flash report, the business
// date rolled, `night_audit.completed`. The clock is passed in (`now`), so the tests do not wait.

let h: Harness;
let caller: Caller;
beforeAll(async () => {
  h = await startHarness();
  caller = { token: h.main.token };
});
afterAll(async () => h?.close());

type Hotel = Awaited<ReturnType<typeof auditHotel>>;

/** A fresh New York property, 4 rooms at 10,000 a night, a 5,000 no-show fee; its rooms clean. */
async function hotel(): Promise<Hotel> {
  const t = await auditHotel(h, caller, { rooms: 4, days: 10 });
  await h.db.execute(sql`update rooms set housekeeping_status = 'clean' where room_type_id = ${t.type.roomTypeId}`);
  return t;
}

const book = (t: Hotel, from: IsoDate, to: IsoDate, email: string) =>
  h.post("/v1/reservations", bookingBody({ propertyId: t.propertyId, roomTypeId: t.type.roomTypeId, ratePlanId: t.type.ratePlanId }, from, to, { guest: { first_name: "G", last_name: "Uest", email } }), caller);
/** A minute after the audit hour that closes `date` (03:00 the next morning, property time). */
const afterAudit = (t: Hotel, date: IsoDate) => new Date(auditDueAt(date, { timezone: t.timezone, auditHour: 3 }).getTime() + 60_000);
/** night_audit.completed events of one property (other tests' properties get audited by the same runs). */
const announcedFor = async (propertyId: string) =>
  rowsOf<{ n: number }>(await h.db.execute(sql`select count(*)::int as n from events where type = 'night_audit.completed' and property_id = ${propertyId}`))[0].n;
const auditsOf = (t: Hotel) => h.db.select().from(nightAudits).where(eq(nightAudits.propertyId, t.propertyId));
const feesOf = async (id: string) => {
  const r = ok(await h.get(`/v1/reservations/${id}`, caller));
  return (await h.db.select().from(folioCharges).where(and(eq(folioCharges.folioId, r.folio_id), eq(folioCharges.kind, "no_show_fee")))).length;
};

/** Today's stays: one that never arrives, one in house until tomorrow (with 3,000 paid in cash). */
async function dayOfStays(t: Hotel) {
  const T = t.today;
  const absent = ok(await book(t, T, addDays(T, 2), "absent@example.com"), 201);
  const staying = ok(await book(t, T, addDays(T, 1), "staying@example.com"), 201);
  ok(await h.post(`/v1/reservations/${staying.id}/check_in`, {}, caller));
  ok(await h.post("/v1/payments", { reservation_id: staying.id, amount: 3_000, payment_method: { type: "cash" } }, caller), 201);
  return { absent, staying };
}

describe("the night audit", () => {
  it("waits for the audit hour, then closes the day once however often it runs", async () => {
    const t = await hotel();
    const T = t.today;
    const { absent, staying } = await dayOfStays(t);
    // Before 03:00 after the arrival night, only yesterday is due, and a new property never traded
    // it: nothing closes (closing it would move the property's today back a day).
    await runDueAudits(h.db, new Date(afterAudit(t, T).getTime() - 2 * 60_000));
    expect(await auditsOf(t)).toEqual([]);
    expect(ok(await h.get(`/v1/reservations/${absent.id}`, caller)).status).toBe("confirmed");

    const events = await announcedFor(t.propertyId);
    const now = afterAudit(t, T);
    await runDueAudits(h.db, now);
    await runDueAudits(h.db, now);
    expect(await runNightAudit({ db: h.db, propertyId: t.propertyId, trigger: "scheduled", now })).toBeNull();
    const audits = (await auditsOf(t)).filter((a) => a.businessDate === T);
    expect(audits).toHaveLength(1);
    expect(await announcedFor(t.propertyId)).toBe(events + 1);
    expect(await feesOf(absent.id)).toBe(1);
    expect(ok(await h.get(`/v1/reservations/${absent.id}`, caller)).status).toBe("no_show");
    expect(ok(await h.get(`/v1/reservations/${staying.id}`, caller)).status).toBe("checked_in");
    const [property] = await h.db.select().from(properties).where(eq(properties.id, t.propertyId));
    expect(property.businessDate).toBe(addDays(T, 1));

    // The flash report of T: 1 of 4 rooms sold at 10,000 (the no-show's night went back on sale);
    // ADR 10,000, RevPAR 10,000 / 4 = 2,500; the folios charged 10,000 of room and the 5,000 fee;
    // 3,000 taken in cash.
    const audit = ok(await h.get(`/v1/night_audits/${audits[0].id}`, caller));
    expect(audit).toMatchObject({ object: "night_audit", property_id: t.propertyId, business_date: T, trigger: "scheduled", no_shows: [absent.id], departures_in_house: [] });
    expect(audit.flash).toEqual({
      business_date: T,
      currency: "USD",
      rooms_available: 4,
      rooms_sold: 1,
      occupancy: 0.25,
      room_revenue: 10_000,
      adr: 10_000,
      revpar: 2_500,
      revenue_by_kind: { room_night: 10_000, extra: 0, early_departure_fee: 0, no_show_fee: 5_000, late_check_out_fee: 0, tax: 0 },
      // No taxes set up: the 15,000 charged is all net (tests/integration/taxes.test.ts has taxes).
      charged: { net: 15_000, tax: 0, gross: 15_000 },
      // Other revenue: the no-show's fee; the room night sold is room revenue.
      other: { net: 5_000, tax: 0, gross: 5_000 },
      payments_by_method: { cash: { amount: 3_000, count: 1 } },
      payments: 3_000,
      refunds: 0,
      taxes: { total: 0, by_tax: [] },
    });
    const [announced] = await eventsFor(h, h.main.account.id, "night_audit.completed", (o) => o.id === audit.id);
    expect(announced.object).toEqual(audit);
    // The flash report agrees with the reports of that night.
    const occupancy = ok(await h.get(`/v1/reports/occupancy?property_id=${t.propertyId}&from=${T}&to=${addDays(T, 1)}`, caller));
    expect(occupancy.totals).toMatchObject({ rooms_available: 4, rooms_sold: 1, occupancy: 0.25 });
    const list = ok(await h.get(`/v1/night_audits?property_id=${t.propertyId}`, caller));
    expect(list.data.map((a: { business_date: string }) => a.business_date)).toEqual([T]);

    // The next night: the guest due out on T+1 is still in house and is flagged.
    await runDueAudits(h.db, afterAudit(t, addDays(T, 1)));
    const next = (await auditsOf(t)).find((a) => a.businessDate === addDays(T, 1))!;
    expect(next.departuresInHouse).toEqual([staying.id]);
    expect(next.noShows).toEqual([]);
  });

  it.runIf(onPostgres)("runs once when two processes run it at the same moment", async () => {
    const t = await hotel();
    const { absent } = await dayOfStays(t);
    const other = await openDatabase({ url: h.databaseUrl!, migrate: false, max: 2 });
    try {
      const now = afterAudit(t, t.today);
      const results = await Promise.all([
        runNightAudit({ db: h.db, propertyId: t.propertyId, trigger: "scheduled", now }),
        runNightAudit({ db: other.db, propertyId: t.propertyId, trigger: "scheduled", now }),
        runDueAudits(other.db, now),
      ]);
      expect(results.slice(0, 2).filter(Boolean)).toHaveLength(1);
      expect((await auditsOf(t)).map((a) => a.businessDate)).toEqual([t.today]);
      expect(await feesOf(absent.id)).toBe(1);
    } finally {
      await other.close();
    }
  });
});

describe("POST /v1/sandbox/advance_day", () => {
  const sandbox = () => ({ token: h.main.token, sandbox: true });

  it("runs the audit at once and moves the sandbox's business date a day forward", async () => {
    ok(await h.post("/v1/sandbox/reset", {}, sandbox())); // the scheduled runs above closed its days too
    const property = await sandboxProperty(h, h.main.token);
    const before = ok(await h.get(`/v1/properties/${property.id}`, sandbox()));
    const today = before.business_date as IsoDate;
    const arriving = ok(await h.get(`/v1/reservations?status=confirmed&property_id=${property.id}&check_in_from=${today}&check_in_to=${addDays(today, 1)}`, sandbox())).data;
    expect(arriving.length).toBeGreaterThan(0);
    const events = await announcedFor(property.id);

    const answer = ok(await h.post("/v1/sandbox/advance_day", {}, sandbox()));
    expect(answer).toMatchObject({ object: "sandbox_advance_day", livemode: false });
    expect(answer.audits).toHaveLength(1);
    expect(answer.audits[0]).toMatchObject({ business_date: today, trigger: "advance_day", livemode: false });
    expect([...answer.audits[0].no_shows].sort()).toEqual(arriving.map((r: { id: string }) => r.id).sort());
    for (const r of arriving) expect(ok(await h.get(`/v1/reservations/${r.id}`, sandbox())).status).toBe("no_show");
    expect(ok(await h.get(`/v1/properties/${property.id}`, sandbox())).business_date).toBe(addDays(today, 1));
    expect(await announcedFor(property.id)).toBe(events + 1);
    // Bookings now start from the new business date.
    const quote = await h.get(`/v1/availability?property_id=${property.id}&check_in=${today}&check_out=${addDays(today, 1)}&adults=1`, sandbox());
    expectError(quote, 400, "parameter_invalid", "check_in");

    // Again: the next day closes.
    const again = ok(await h.post("/v1/sandbox/advance_day", { property_id: property.id }, sandbox()));
    expect(again.audits[0].business_date).toBe(addDays(today, 1));
    expect(ok(await h.get(`/v1/properties/${property.id}`, sandbox())).business_date).toBe(addDays(today, 2));
  });

  it("is refused in live, and a blank or malformed body changes nothing", async () => {
    const property = await sandboxProperty(h, h.main.token);
    const digest = async () =>
      rowsOf<{ d: string }>(
        await h.db.execute(
          sql`select md5(coalesce((select string_agg(a.id, ',' order by a.id) from night_audits a), '') || (select string_agg(p.id || coalesce(p.business_date::text, ''), ',' order by p.id) from properties p) || (select count(*)::text from events)) as d`,
        ),
      )[0].d;
    const before = await digest();
    expectError(await h.post("/v1/sandbox/advance_day", {}, caller), 400, "invalid_environment", "Service-Environment");
    const raw = (body: string, type = "application/json") =>
      fetch(`${h.baseUrl}/v1/sandbox/advance_day`, { method: "POST", headers: { authorization: `Bearer ${h.main.token}`, "service-environment": "sandbox", "content-type": type }, body }).then(async (res) => ({
        status: res.status,
        json: await res.json(),
      }));
    expect((await raw("\x0b")).json.error.code).toBe("invalid_json");
    expect((await raw("{\"property_id\":")).json.error.code).toBe("invalid_json");
    expect((await raw("{}", "text/plain")).status).toBe(415);
    expectError(await h.post("/v1/sandbox/advance_day", { days: 2 }, sandbox()), 422, "parameter_unknown", "days");
    expectError(await h.post("/v1/sandbox/advance_day", { property_id: 7 }, sandbox()), 422, "parameter_invalid", "property_id");
    expectError(await h.post("/v1/sandbox/advance_day", { property_id: "prop_nope" }, sandbox()), 404, "resource_missing", "property_id");
    expectError(await h.get(`/v1/night_audits?property_id=${property.id}`, { token: await h.keyWith(["reservations:read"]), sandbox: true }), 403, "insufficient_scope");
    expect(await digest()).toEqual(before);
  });
});
