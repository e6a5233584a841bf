import { TRPCError } from "@trpc/server";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/db/client";
import { auditLog, dailyRates, events, properties } from "@/db/schema";
import { createAccount } from "@/server/accounts/create-account";
import { createUser, type StaffRole } from "@/server/auth/users";
import { addDays, todayIn, type IsoDate } from "@/lib/dates";
import { ApiError } from "@/server/errors";
import { getAvailability } from "@/server/inventory/availability";
import { occupancyReport, productionReport, revenueReport } from "@/server/reports/reports";
import type { StaffSession } from "@/server/next-auth/session";
import { createCaller } from "@/server/trpc/routers/_app";
import { testDatabase } from "../support/database";

// Issue #9: the rates grid's and the reports page's tRPC procedures, over the same services as
// /v1/rate_plans/{id}/rates and /v1/reports/*, against a real database, with the role matrix.

let database: Database;
let accountId: string;
const users: Partial<Record<StaffRole, { id: string; email: string }>> = {};
let propertyId: string;
let today: IsoDate;
const d = (n: number) => addDays(today, n);

const caller = (role: StaffRole, livemode = false, account = accountId) => {
  const user = users[role]!;
  const session: StaffSession = {
    user: { id: user.id, accountId: account, role, name: role, email: user.email },
    expires: new Date(Date.now() + 3_600_000).toISOString(),
  };
  return createCaller({ db: database.db, session, livemode });
};

async function failure(call: Promise<unknown>) {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCError);
  const trpc = error as TRPCError;
  return { code: trpc.code, api: trpc.cause instanceof ApiError ? trpc.cause : undefined };
}

beforeAll(async () => {
  database = await testDatabase();
  accountId = (await createAccount({ db: database.db, input: { name: "Rates Hotels", plan: "growth" } })).id;
  for (const role of ["owner", "manager", "front_desk", "housekeeping"] as const) {
    users[role] = await createUser({ db: database.db, input: { accountId, email: `${role}@rates.example`, password: "password-1", role } });
  }
  const [sandbox] = await database.db
    .select()
    .from(properties)
    .where(and(eq(properties.accountId, accountId), eq(properties.livemode, false)));
  propertyId = sandbox.id;
  today = todayIn(sandbox.timezone);
}, 120_000);
afterAll(() => database.close());

describe("rates grid over tRPC", { timeout: 60_000 }, () => {
  it("lists the property's room types and rate plans", async () => {
    const setup = await caller("manager").rates.setup({ property_id: propertyId });
    expect(setup.room_types.map((t) => t.code)).toEqual(["DLX", "KING", "QQ", "STE"]);
    expect(setup.rate_plans.map((p) => p.code)).toEqual(["BAR", "NRF"]);
  });

  it("sets a stop-sell on some weekdays of a range for two room types at once, with events and audit", async () => {
    const owner = caller("owner");
    const setup = await owner.rates.setup({ property_id: propertyId });
    const bar = setup.rate_plans.find((p) => p.code === "BAR")!;
    const [king, qq] = ["KING", "QQ"].map((c) => setup.room_types.find((t) => t.code === c)!.id);
    const before = await owner.rates.calendar({ rate_plan_id: bar.id, room_type_id: king, from: d(10), to: d(24) });
    const eventsBefore = (await database.db.select().from(events).where(eq(events.type, "rate.updated"))).length;

    const result = await owner.rates.set({
      rate_plan_id: bar.id,
      room_type_ids: [king, qq],
      from: d(10),
      to: d(24),
      stop_sell: true,
      min_stay: 2,
      days_of_week: ["fri", "sat"],
    });
    expect(result.data).toHaveLength(28);

    const after = await owner.rates.calendar({ rate_plan_id: bar.id, from: d(10), to: d(24) });
    for (const night of after.data.filter((n) => n.room_type_id === king || n.room_type_id === qq)) {
      const weekend = [5, 6].includes(new Date(`${night.date}T00:00:00Z`).getUTCDay());
      expect(night.stop_sell, `${night.date}`).toBe(weekend);
      expect(night.min_stay).toBe(weekend ? 2 : 1);
    }
    // Amounts untouched, other room types untouched.
    const kingAfter = after.data.filter((n) => n.room_type_id === king);
    expect(kingAfter.map((n) => n.amount)).toEqual(before.data.map((n) => n.amount));
    expect(after.data.filter((n) => n.room_type_id !== king && n.room_type_id !== qq).every((n) => !n.stop_sell)).toBe(true);

    // One rate.updated per room type, as two /v1 calls would write.
    expect((await database.db.select().from(events).where(eq(events.type, "rate.updated"))).length).toBe(eventsBefore + 2);
    const trail = await owner.audit.list({ object_type: "rate_plan", object_id: bar.id });
    expect(trail.data).toHaveLength(2);
    expect(trail.data[0]).toMatchObject({
      action: "rate_plan.rates_set",
      actor: { email: "owner@rates.example" },
      before: { stop_sell: false },
      after: { stop_sell: true, min_stay: 2 },
    });
    expect(trail.data[0].after).toMatchObject({ days_of_week: ["fri", "sat"] });
    expect(trail.data[0].sentences).toContain("Fri, Sat only");
    expect(trail.data[0].sentences.join(" ")).not.toMatch(/rt_|rp_|\d{4}-\d{2}-\d{2}/);

    // The availability service (behind /v1/availability) refuses a weekend stay with the reason.
    const friday = [...Array(7).keys()].map((i) => d(10 + i)).find((date) => new Date(`${date}T00:00:00Z`).getUTCDay() === 5)!;
    const tenant = { accountId, livemode: false, propertyIds: null };
    const availability = await getAvailability({
      db: database.db,
      tenant,
      query: { property_id: propertyId, check_in: friday, check_out: addDays(friday, 1), adults: 1, children: 0, room_type_id: king },
    });
    expect(availability.data[0].quotes.find((q) => q.rate_plan_id === bar.id)).toMatchObject({ bookable: false, reason: "stop_sell" });
  });

  it("is all or nothing across room types: a bad room type leaves every rate as it was", async () => {
    const owner = caller("owner");
    const setup = await owner.rates.setup({ property_id: propertyId });
    const bar = setup.rate_plans.find((p) => p.code === "BAR")!;
    const king = setup.room_types.find((t) => t.code === "KING")!.id;
    const rows = async () =>
      database.db
        .select()
        .from(dailyRates)
        .where(and(eq(dailyRates.ratePlanId, bar.id), eq(dailyRates.roomTypeId, king)));
    const snapshot = JSON.stringify(await rows());
    const foreign = await failure(owner.rates.set({ rate_plan_id: bar.id, room_type_ids: [king, "rt_nope"], from: d(30), to: d(32), amount: 1 }));
    expect(foreign).toMatchObject({ code: "UNPROCESSABLE_CONTENT", api: { code: "parameter_invalid", param: "room_type_ids.1" } });
    expect(JSON.stringify(await rows())).toBe(snapshot);
  });

  it("refuses bad input with the contract's errors and changes nothing", async () => {
    const owner = caller("owner");
    const setup = await owner.rates.setup({ property_id: propertyId });
    const bar = setup.rate_plans.find((p) => p.code === "BAR")!;
    const king = setup.room_types.find((t) => t.code === "KING")!.id;
    const base = { rate_plan_id: bar.id, room_type_ids: [king], from: d(40), to: d(41) };
    const auditBefore = (await database.db.select().from(auditLog)).length;
    expect((await failure(owner.rates.set({ ...base, to: d(40), amount: 100 }))).api).toMatchObject({ code: "parameter_invalid", param: "to" });
    expect((await failure(owner.rates.set({ ...base, amount: -1 }))).api).toMatchObject({ code: "parameter_invalid", param: "amount" });
    expect((await failure(owner.rates.set({ ...base, min_stay: 0 }))).api).toMatchObject({ code: "parameter_invalid", param: "min_stay" });
    expect((await failure(owner.rates.set({ ...base, days_of_week: ["funday"] } as never))).api).toMatchObject({
      code: "parameter_invalid",
      param: "days_of_week.0",
    });
    expect((await failure(owner.rates.set({ ...base, room_type_ids: [] }))).api).toMatchObject({ code: "parameter_invalid", param: "room_type_ids" });
    expect((await failure(owner.rates.set({ ...base, from: "2026-02-30", amount: 1 }))).api).toMatchObject({
      code: "parameter_invalid",
      param: "from",
    });
    expect((await failure(owner.rates.set({ ...base, to: addDays(d(40), 731), amount: 1 }))).api).toMatchObject({
      code: "parameter_invalid",
      param: "to",
    });
    expect((await failure(owner.rates.set({ ...base, surprise: 1 } as never))).api).toMatchObject({ code: "parameter_unknown", param: "surprise" });
    // Nights with no rate need an amount, as on /v1.
    expect((await failure(owner.rates.set({ ...base, from: d(400), to: d(402), stop_sell: true }))).api).toMatchObject({
      code: "parameter_missing",
      param: "amount",
    });
    // A live caller cannot see the sandbox's plan: resource_missing, never a leak.
    expect((await failure(caller("owner", true).rates.set({ ...base, amount: 100 }))).code).toBe("NOT_FOUND");
    expect((await failure(caller("owner", false, "acct_other").rates.calendar({ rate_plan_id: bar.id, from: d(1), to: d(2) }))).code).toBe(
      "NOT_FOUND",
    );
    expect((await database.db.select().from(auditLog)).length).toBe(auditBefore);
  });

  it("front desk and housekeeping are FORBIDDEN, before any input is read", async () => {
    for (const role of ["front_desk", "housekeeping"] as const) {
      expect((await failure(caller(role).rates.setup({ property_id: propertyId }))).code).toBe("FORBIDDEN");
      expect((await failure(caller(role).rates.calendar({} as never))).code).toBe("FORBIDDEN");
      expect((await failure(caller(role).rates.set({} as never))).code).toBe("FORBIDDEN");
      expect((await failure(caller(role).audit.list({ object_type: "rate_plan", object_id: "rp_x" }))).code).toBe("FORBIDDEN");
    }
  });
});

describe("reports over tRPC", { timeout: 60_000 }, () => {
  const range = () => ({ property_id: propertyId, from: d(-7), to: d(7) });
  const tenant = () => ({ accountId, livemode: false, propertyIds: null });

  it("answers what the report services answer for /v1", async () => {
    const manager = caller("manager");
    expect(await manager.reports.occupancy(range())).toEqual(await occupancyReport({ db: database.db, tenant: tenant(), query: range() }));
    expect(await manager.reports.revenue(range())).toEqual(await revenueReport({ db: database.db, tenant: tenant(), query: range() }));
    const production = await manager.reports.production({ ...range(), group_by: "room_type" });
    const service = await productionReport({ db: database.db, tenant: tenant(), query: { ...range(), group_by: "room_type" } });
    // The dashboard's rows are the service's plus each group in words: the room type's name.
    expect(production).toEqual({ ...service, data: service.data.map((r) => ({ ...r, group_label: expect.any(String) })) });
    expect(production.data.length).toBeGreaterThan(0);
    expect(production.data.every((r) => typeof r.group_name === "string")).toBe(true);
    const types = (await manager.rates.setup({ property_id: propertyId })).room_types;
    for (const row of production.data) expect(row.group_label).toBe(types.find((t) => t.id === row.group)!.name);
    const bySource = await manager.reports.production({ ...range(), group_by: "source" });
    expect(bySource.data.map((r) => r.group_label).every((l) => /^[A-Z]/.test(l) && !l.includes("_"))).toBe(true);
  });

  it("the dashboard's CSV is the rows on screen for a spreadsheet: words, major units, a currency column, named after the hotel", async () => {
    const manager = caller("manager");
    const occupancy = await manager.reports.occupancy(range());
    const csv = await manager.reports.csv({ ...range(), type: "occupancy" });
    // The sandbox hotel is "Sandbox Harbor Hotel"; the range [d(-7), d(7)) has its last night on d(6).
    expect(csv.filename).toBe(`sandbox-harbor-hotel-occupancy-${d(-7)}-to-${d(6)}.csv`);
    const lines = csv.body.trim().split("\r\n");
    expect(lines[0]).toBe("Night,Rooms available,Rooms sold,Occupancy (%)");
    expect(lines).toHaveLength(15);
    const first = occupancy.data[0];
    expect(lines[1]).toBe(`${first.date},${first.rooms_available},${first.rooms_sold},${Math.round(first.occupancy * 10_000) / 100}`);

    const revenue = await manager.reports.revenue(range());
    const revenueCsv = await manager.reports.csv({ ...range(), type: "revenue" });
    expect(revenueCsv.body.split("\r\n")[0]).toBe("Night,Room revenue,Charged net,Charged tax,Charged gross,Other revenue net,Other revenue tax,Other revenue gross,ADR,RevPAR,Payments,Refunds,Currency");
    const r = revenue.data.find((x) => x.room_revenue > 0) ?? revenue.data[0];
    const cents = (n: number) => `${Math.floor(n / 100)}.${String(n % 100).padStart(2, "0")}`;
    expect(revenueCsv.body).toContain(
      `${r.date},${cents(r.room_revenue)},${cents(r.net)},${cents(r.tax)},${cents(r.gross)},${cents(r.other_net)},${cents(r.other_tax)},${cents(r.other_gross)},${cents(r.adr)},${cents(r.revpar)},${cents(r.payments)},${cents(r.refunds)},USD\r\n`,
    );

    const production = await manager.reports.production({ ...range(), group_by: "rate_plan" });
    const productionCsv = await manager.reports.csv({ ...range(), type: "production", group_by: "rate_plan" });
    expect(productionCsv.body.split("\r\n")[0]).toBe("Rate plan,Reservations,Room nights,Room revenue,Charged net,Charged tax,Charged gross,Other revenue net,Other revenue tax,Other revenue gross,Cancellations,No-shows,Currency");
    expect(productionCsv.body.trim().split("\r\n")).toHaveLength(production.data.length + 1);
    expect(productionCsv.body).not.toMatch(/rp_|rt_|prop_/);
  });

  it("refuses bad input as /v1 does", async () => {
    const manager = caller("manager");
    expect((await failure(manager.reports.occupancy({ ...range(), to: d(-7) }))).api).toMatchObject({ code: "parameter_invalid", param: "to" });
    expect((await failure(manager.reports.revenue({ ...range(), to: d(800) }))).api).toMatchObject({ code: "parameter_invalid", param: "to" });
    expect((await failure(manager.reports.occupancy({ ...range(), group_by: "source" } as never))).api).toMatchObject({
      code: "parameter_unknown",
      param: "group_by",
    });
    expect((await failure(manager.reports.csv({ ...range(), type: "occupancy", group_by: "source" }))).api).toMatchObject({
      code: "parameter_invalid",
      param: "group_by",
    });
    expect((await failure(manager.reports.production({ ...range(), group_by: "guest" } as never))).api).toMatchObject({
      code: "parameter_invalid",
      param: "group_by",
    });
    expect((await failure(manager.reports.csv({ ...range(), type: "nights" } as never))).api).toMatchObject({
      code: "parameter_invalid",
      param: "type",
    });
    expect((await failure(manager.reports.occupancy({ ...range(), property_id: "prop_nope" }))).api).toMatchObject({
      code: "resource_missing",
      param: "property_id",
    });
    // The sandbox property does not exist in live.
    expect((await failure(caller("manager", true).reports.occupancy(range()))).code).toBe("NOT_FOUND");
  });

  it("front desk and housekeeping are FORBIDDEN", async () => {
    for (const role of ["front_desk", "housekeeping"] as const) {
      expect((await failure(caller(role).reports.occupancy(range()))).code).toBe("FORBIDDEN");
      expect((await failure(caller(role).reports.revenue(range()))).code).toBe("FORBIDDEN");
      expect((await failure(caller(role).reports.production(range()))).code).toBe("FORBIDDEN");
      expect((await failure(caller(role).reports.csv({ ...range(), type: "revenue" }))).code).toBe("FORBIDDEN");
    }
  });
});
