// The data the benchmark runs against: an enterprise account and an all-scopes key, a booking hotel with one 2,000-room type set up through the API,
// and a report hotel with 20,000 reservations written straight into the database.
import type postgres from "postgres";
import { openDatabase } from "@/db/client";
import { createAccount as createAccountService } from "@/server/accounts/create-account";
import { createApiKey } from "@/server/auth/api-keys";
import { scopes } from "@/server/auth/scopes";
import { addDays, nightsOf, todayIn, weekdayOf, type IsoDate } from "@/lib/dates";
import { newId } from "@/server/ids";

type Sql = postgres.Sql;
type Row = Record<string, unknown>;

export type Account = { id: string; key: string };

/**
 * An enterprise account (with its sandbox hotel, as the CLI's `accounts create` makes it) and an
 * all-scopes key, through the same services the CLI calls: two `npm run innkeep` runs would cost
 * ten seconds of tsx start-up here. Limits far above anything two cores can send: no 429 ever.
 */
export async function createAccount(databaseUrl: string): Promise<Account> {
  const database = await openDatabase({ url: databaseUrl, max: 1, migrate: false });
  try {
    const account = await createAccountService({
      db: database.db,
      input: { name: "Innkeep bench", plan: "enterprise", limits: { perSecond: 10_000_000, perMinute: 600_000_000, perDay: 2_000_000_000 } },
    });
    const key = await createApiKey({ db: database.db, input: { accountId: account.id, name: "bench", scopes: [...scopes] } });
    return { id: account.id, key: key.key };
  } finally {
    await database.close();
  }
}

export type Api = <T = Row>(method: string, path: string, body?: unknown) => Promise<T>;

export function apiClient(base: string, key: string): Api {
  return async (method, path, body) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 500)}`);
    return JSON.parse(text);
  };
}

/** `upsertOn`: the key whose existing rows the fixture's rows replace (rows the running server made first). */
async function insertMany(sql: Sql | postgres.TransactionSql, table: string, rows: Row[], upsertOn?: string[]): Promise<void> {
  if (!rows.length) return;
  // PostgreSQL takes at most 65,535 parameters per statement.
  const columns = Object.keys(rows[0]);
  const chunk = Math.floor(60_000 / columns.length);
  const conflict = upsertOn
    ? sql.unsafe(`on conflict (${upsertOn.join(", ")}) do update set ${columns.filter((c) => !upsertOn.includes(c)).map((c) => `${c} = excluded.${c}`).join(", ")}`)
    : sql``;
  for (let i = 0; i < rows.length; i += chunk) await sql`insert into ${sql(table)} ${sql(rows.slice(i, i + chunk) as never)} ${conflict}`;
}

const live = (accountId: string) => ({ account_id: accountId, livemode: true });

async function insertProperty(sql: Sql, accountId: string, name: string, timezone: string, currency: string) {
  const id = newId("property");
  await insertMany(sql, "properties", [{ id, ...live(accountId), name, timezone, currency, address: sql.json({ city: "Lisboa", country: "PT" }) }]);
  return { id, timezone, currency };
}

function roomRows(accountId: string, propertyId: string, roomTypeId: string, count: number, firstNumber: number): Row[] {
  return Array.from({ length: count }, (_, i) => {
    const n = firstNumber + i;
    return { id: newId("room"), ...live(accountId), property_id: propertyId, room_type_id: roomTypeId, number: String(n), floor: Math.floor(n / 100) + 1 };
  });
}

export type BookingHotel = { propertyId: string; roomTypeId: string; ratePlanId: string; today: IsoDate; rooms: number };

/**
 * The hotel POST /v1/reservations books into: one room type of 2,000 rooms, so 32 connections
 * booking random stays over a year never run out. There is no API to create a property, so that
 * row and the rooms are written directly (rooms before any night row exists, which then counts
 * them); the room type, the rate plan and 730 days of rates go through the API.
 */
export async function createBookingHotel(sql: Sql, api: Api, accountId: string, rooms = 2_000): Promise<BookingHotel> {
  const property = await insertProperty(sql, accountId, "Bench Booking Hotel", "Europe/Lisbon", "EUR");
  const roomType = await api<{ id: string }>("POST", "/v1/room_types", { property_id: property.id, code: "STD", name: "Standard", max_occupancy: 2 });
  await insertMany(sql, "rooms", roomRows(accountId, property.id, roomType.id, rooms, 1000));
  const plan = await api<{ id: string }>("POST", "/v1/rate_plans", { property_id: property.id, code: "BAR", name: "Best Available Rate", room_type_ids: [roomType.id] });
  const today = todayIn(property.timezone);
  const rates = { room_type_id: roomType.id, from: today, to: addDays(today, 730) };
  await api("POST", `/v1/rate_plans/${plan.id}/rates`, { ...rates, amount: 12_900 });
  await api("POST", `/v1/rate_plans/${plan.id}/rates`, { ...rates, amount: 15_900, days_of_week: ["fri", "sat"] });
  return { propertyId: property.id, roomTypeId: roomType.id, ratePlanId: plan.id, today, rooms };
}

/** A small deterministic generator, so every run seeds the same hotel. */
function prng(seed: number) {
  let s = seed >>> 0;
  const next = () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
  return {
    next,
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)],
    /** `weights` need not sum to 1. */
    weighted: <T>(items: readonly [T, number][]) => {
      let r = next() * items.reduce((s, [, w]) => s + w, 0);
      for (const [item, w] of items) if ((r -= w) < 0) return item;
      return items[items.length - 1][0];
    },
  };
}

export type ReportHotel = { propertyId: string; from: IsoDate; to: IsoDate; today: IsoDate; reservations: number; payments: number; refunds: number };

const reportTypes = [
  { code: "KING", name: "King", rooms: 80, price: 15_900, maxOccupancy: 2 },
  { code: "QQ", name: "Double Queen", rooms: 60, price: 18_900, maxOccupancy: 4 },
  { code: "DLX", name: "Deluxe", rooms: 40, price: 24_900, maxOccupancy: 3 },
  { code: "STE", name: "Suite", rooms: 20, price: 42_900, maxOccupancy: 4 },
] as const;

/**
 * A 200-room hotel with 20,000 reservations over the report's 365 days (half past, half to come):
 * nightly prices with weekend uplift, every status as time makes it (departed, in house, booked,
 * cancelled, no-show), folios with their night charges, payments (settled at departure, deposits,
 * prepaid non-refundable stays, a few declines) and refunds. Night rows carry what was sold, and
 * both rate plans have rates over the year ahead, so availability on it is realistic too.
 */
export async function seedReportHotel(sql: Sql, accountId: string, reservationCount = 20_000): Promise<ReportHotel> {
  const property = await insertProperty(sql, accountId, "Bench Report Hotel", "Europe/Lisbon", "EUR");
  const today = todayIn(property.timezone);
  const from = addDays(today, -182);
  const to = addDays(from, 365);
  const rateEnd = addDays(today, 400);
  const random = prng(2026);
  const tenant = live(accountId);

  const types = reportTypes.map((t) => ({ ...t, id: newId("roomType") }));
  await insertMany(sql, "room_types", types.map((t) => ({
    id: t.id, ...tenant, property_id: property.id, code: t.code, name: t.name, max_occupancy: t.maxOccupancy, base_occupancy: 2, amenities: sql.array(["wifi"]),
  })));
  let number = 100;
  await insertMany(sql, "rooms", types.flatMap((t) => roomRows(accountId, property.id, t.id, t.rooms, (number += t.rooms) - t.rooms)));

  const plans = [
    { id: newId("ratePlan"), code: "BAR", name: "Best Available Rate", refundable: true, factor: 1 },
    { id: newId("ratePlan"), code: "NRF", name: "Non-refundable", refundable: false, factor: 0.9 },
  ];
  await insertMany(sql, "rate_plans", plans.map((p) => ({
    id: p.id, ...tenant, property_id: property.id, code: p.code, name: p.name, room_type_ids: sql.array(types.map((t) => t.id)), refundable: p.refundable,
  })));
  const price = (type: (typeof types)[number], plan: (typeof plans)[number], date: IsoDate) =>
    Math.round((type.price * (["fri", "sat"].includes(weekdayOf(date)) ? 1.2 : 1) * plan.factor) / 100) * 100;
  await insertMany(sql, "daily_rates", plans.flatMap((plan) => types.flatMap((type) => nightsOf(today, rateEnd).map((date) => ({
    rate_plan_id: plan.id, room_type_id: type.id, date, ...tenant, property_id: property.id, amount: price(type, plan, date),
  })))));

  const guests = Array.from({ length: 8_000 }, (_, i) => {
    const email = `guest${i}@report.bench.example`;
    return { id: newId("guest"), ...tenant, first_name: `Guest${i}`, last_name: "Bench", email, email_key: email, phone: null };
  });
  await insertMany(sql, "guests", guests);

  // Rooms sold per type and night, so no night is sold beyond the type's rooms.
  const days = nightsOf(addDays(from, -10), rateEnd);
  const dayIndex = new Map(days.map((d, i) => [d, i]));
  const sold = types.map(() => new Array<number>(days.length).fill(0));
  const now = Date.now();
  const at = (date: IsoDate, hour: number) => new Date(Date.parse(`${date}T00:00:00Z`) + hour * 3_600_000);

  const reservations: Row[] = [];
  const folios: Row[] = [];
  const charges: Row[] = [];
  const payments: Row[] = [];
  const refunds: Row[] = [];
  const pay = (r: Row, amount: number, when: Date, status = "succeeded", refunded = 0) => {
    const id = newId("payment");
    const capturedAt = new Date(Math.min(now, when.getTime()));
    const method = random.weighted([["card", 75], ["cash", 10], ["bank_transfer", 15]] as const);
    payments.push({
      id, ...tenant, property_id: property.id, reservation_id: r.id, folio_id: r.folio_id, amount, amount_refunded: refunded, currency: "EUR", status,
      method_type: method, card_brand: method === "card" ? random.pick(["visa", "mastercard", "amex"]) : null, card_last4: method === "card" ? String(random.int(1000, 9999)) : null,
      card_exp_month: method === "card" ? random.int(1, 12) : null, card_exp_year: method === "card" ? random.int(2027, 2031) : null,
      bank_reference: method === "bank_transfer" ? `BENCH-${random.int(100000, 999999)}` : null,
      failure_code: status === "failed" ? "card_declined" : null, failure_message: status === "failed" ? "The card was declined." : null,
      captured_at: status === "failed" ? null : capturedAt, created_at: capturedAt, updated_at: capturedAt,
    });
    return id;
  };

  while (reservations.length < reservationCount) {
    const t = random.weighted(types.map((type, i) => [i, type.rooms] as [number, number]));
    const type = types[t];
    const plan = random.next() < 0.75 ? plans[0] : plans[1];
    const nights = random.weighted([[1, 30], [2, 30], [3, 20], [4, 10], [5, 4], [6, 3], [7, 3]] as const);
    const checkIn = addDays(from, random.int(-7, 364));
    const checkOut = addDays(checkIn, nights);
    const stay = nightsOf(checkIn, checkOut);
    const past = checkOut <= today;
    const inHouse = checkIn <= today && today < checkOut;
    const status = past
      ? random.weighted([["checked_out", 88], ["cancelled", 8], ["no_show", 4]] as const)
      : inHouse ? random.weighted([["checked_in", 95], ["cancelled", 5]] as const) : random.weighted([["confirmed", 88], ["cancelled", 12]] as const);
    const holds = status !== "cancelled" && status !== "no_show";
    if (holds && stay.some((d) => sold[t][dayIndex.get(d)!] >= type.rooms)) continue; // Full: another stay instead.
    if (holds) for (const d of stay) sold[t][dayIndex.get(d)!]++;

    const nightly = stay.map((date) => ({ date, amount: price(type, plan, date) }));
    const total = nightly.reduce((s, n) => s + n.amount, 0);
    const lead = random.weighted([[0, 5], [3, 15], [14, 30], [45, 30], [120, 20]] as const) + random.int(0, 10);
    const createdAt = new Date(Math.min(now - random.int(60_000, 3_600_000), at(checkIn, 0).getTime() - lead * 86_400_000 + random.int(8, 22) * 3_600_000));
    const id = newId("reservation");
    const folioId = newId("folio");
    const guest = random.pick(guests);
    const source = random.weighted([["direct", 30], ["channel", 45], ["phone", 10], ["email", 5], ["walk_in", 5], ["api", 5]] as const);
    const r: Row = {
      id, ...tenant, property_id: property.id, guest_id: guest.id, room_type_id: type.id, rate_plan_id: plan.id, room_id: null, folio_id: folioId, status,
      check_in: checkIn, check_out: checkOut, adults: random.int(1, 2), children: random.next() < 0.15 ? 1 : 0, total_amount: total, net_amount: total, currency: "EUR",
      nightly: sql.json(nightly), source, channel: source === "channel" ? random.pick(["booking_com", "expedia", "airbnb"]) : null, notes: null, metadata: sql.json({}),
      cancelled_at: status === "cancelled" ? new Date(Math.min(now, createdAt.getTime() + 86_400_000 * random.int(1, 10))) : null,
      cancellation_reason: status === "cancelled" ? "Guest request" : null,
      checked_in_at: status === "checked_in" || status === "checked_out" ? at(checkIn, 15) : null,
      checked_out_at: status === "checked_out" ? at(checkOut, 11) : null,
      created_at: createdAt, updated_at: createdAt,
    };
    reservations.push(r);
    folios.push({
      id: folioId, ...tenant, property_id: property.id, reservation_id: id, status: status === "checked_out" ? "closed" : "open", currency: "EUR",
      closed_at: status === "checked_out" ? at(checkOut, 11) : null, created_at: createdAt, updated_at: createdAt,
    });
    nightly.forEach((n, i) =>
      charges.push({ id: newId("charge"), ...tenant, folio_id: folioId, reservation_id: id, kind: "room_night", description: `${type.name}, ${plan.name}, night of ${n.date}`, date: n.date, amount: n.amount, created_at: new Date(createdAt.getTime() + i) }),
    );

    // Money: non-refundable stays prepay at booking; others leave a deposit or settle at departure.
    if (!plan.refundable) {
      pay(r, total, createdAt);
    } else if (status === "checked_out") {
      if (random.next() < 0.02) pay(r, total, at(checkOut, 10), "failed");
      const refunded = random.next() < 0.04 ? Math.round(total * 0.2) : 0;
      const paymentId = pay(r, total, at(checkOut, 11), refunded ? "partially_refunded" : "succeeded", refunded);
      if (refunded) refunds.push({ id: newId("refund"), ...tenant, property_id: property.id, payment_id: paymentId, folio_id: folioId, amount: refunded, currency: "EUR", reason: "Service recovery", created_at: at(checkOut, 16) });
    } else if (random.next() < 0.3) {
      const deposit = nightly[0].amount;
      const cancelled = status === "cancelled";
      const paymentId = pay(r, deposit, createdAt, cancelled ? "refunded" : "succeeded", cancelled ? deposit : 0);
      if (cancelled) refunds.push({ id: newId("refund"), ...tenant, property_id: property.id, payment_id: paymentId, folio_id: folioId, amount: deposit, currency: "EUR", reason: "Cancelled in time", created_at: r.cancelled_at });
    }
  }

  await insertMany(sql, "reservations", reservations);
  await insertMany(sql, "folios", folios);
  // The hotel's past is imported, not posted: the server's night audit, due at the seeding minute,
  // may already have closed those days (migration 0028 refuses postings into them). The refusal is
  // off only inside this transaction, so no other session ever sees it off.
  const refusals = [["folio_charges", "folio_charges_refuse_closed_day"], ["payments", "payments_refuse_closed_day"], ["refunds", "refunds_refuse_closed_day"]];
  await sql.begin(async (tx) => {
    for (const [table, trigger] of refusals) await tx`alter table ${tx(table)} disable trigger ${tx(trigger)}`;
    await insertMany(tx, "folio_charges", charges);
    await insertMany(tx, "payments", payments);
    await insertMany(tx, "refunds", refunds);
    for (const [table, trigger] of refusals) await tx`alter table ${tx(table)} enable trigger ${tx(trigger)}`;
  });
  await insertMany(sql, "inventory_nights", types.flatMap((type, t) => days.map((date, i) => ({
    room_type_id: type.id, date, ...tenant, property_id: property.id, total: type.rooms, out_of_order: 0, held: 0, sold: sold[t][i],
  }))), ["room_type_id", "date"]); // the server's night audit, due at the seeding minute in the hotel's zone, may have made some first
  // As autovacuum would within a minute of a real hotel's bookings: the trigger's per-day updates
  // leave dead rows in sales_days, which a report measured at once would scan.
  await sql`vacuum (analyze) sales_days, sales_nights`;
  await sql`analyze`;
  return { propertyId: property.id, from, to, today, reservations: reservations.length, payments: payments.length, refunds: refunds.length };
}

/**
 * Years of departed and cancelled stays before the report hotel's window, written in one
 * statement (the `reservations` trigger writes their nights), so that the same 365-day report
 * can be measured over a history of `total` stays: its cost must follow the nights in the range,
 * not the stays ever booked. No folios or payments: the report reads none from before its range.
 */
export async function addReportHistory(sql: Sql, accountId: string, report: ReportHotel, total: number): Promise<number> {
  const count = total - report.reservations;
  if (count <= 0) return 0;
  const [{ n }] = await sql`
    with p as (
      select (select array_agg(id order by code) from room_types where property_id = ${report.propertyId}) as types,
             (select array_agg(id order by code) from rate_plans where property_id = ${report.propertyId}) as plans,
             (select array_agg(id) from (select id from guests where account_id = ${accountId} and email like '%@report.bench.example' limit 1000) g) as guests
    ), stays as (
      select g, (${report.from}::date - 2 - (g % 3285)) as check_in, 1 + (g % 3) as nights, p.*
      from generate_series(1, ${count}::int) g, p
    ), inserted as (
      insert into reservations (id, account_id, livemode, property_id, guest_id, room_type_id, rate_plan_id, folio_id, status,
        check_in, check_out, adults, children, total_amount, net_amount, currency, nightly, source, checked_out_at, cancelled_at, created_at, updated_at)
      select 'res_history' || g, ${accountId}, true, ${report.propertyId}, guests[1 + g % array_length(guests, 1)],
        types[1 + g % array_length(types, 1)], plans[1 + g % array_length(plans, 1)], 'fol_history' || g,
        case when g % 10 = 0 then 'cancelled' else 'checked_out' end,
        check_in, check_in + nights, 2, 0, nights * 15900, nights * 15900, 'EUR',
        (select jsonb_agg(jsonb_build_object('date', to_char(check_in + i, 'YYYY-MM-DD'), 'amount', 15900) order by i) from generate_series(0, nights - 1) i),
        'direct', case when g % 10 = 0 then null else (check_in + nights)::timestamptz + interval '10 hours' end,
        case when g % 10 = 0 then check_in::timestamptz - interval '3 days' end,
        check_in::timestamptz - interval '20 days', check_in::timestamptz - interval '20 days'
      from stays
      returning 1
    )
    select count(*)::int as n from inserted`;
  await sql`analyze reservations`;
  await sql`vacuum (analyze) sales_days, sales_nights`;
  return n as number;
}
