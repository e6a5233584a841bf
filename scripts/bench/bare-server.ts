// The benchmark's yardstick: node:http + postgres.js running the SAME SQL as each measured Innkeep
// route, with no framework, no auth, no rate limit, no idempotency and no validation beyond
// JSON.parse. Started by scripts/bench/run.ts as its own process; configured by environment:
// DATABASE_URL, PORT, HOST, BENCH_ACCOUNT_ID (the tenant every query is scoped to, live mode),
// BARE_PREPARE=0 (unprepared statements, as drizzle sends them).
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import postgres from "postgres";
import { addDays, daysBetween } from "@/lib/dates";
import { propertyLocale } from "@/lib/money";
import { composeGuestMail, type GuestMailFacts } from "@/server/guest-mail/compose";
import { newId, randomToken } from "@/server/ids";
import { quoteStay, type NightRate } from "@/server/rates/quote";
import { revenueRows, revenueTotals, type NightFigures } from "@/server/reports/build";

const accountId = required("BENCH_ACCOUNT_ID");
const livemode = true;
// The same pool size as Innkeep's (db/client.ts), so neither side gets more database connections.
// Statements are prepared (postgres.js's default) unless BARE_PREPARE=0: then, like drizzle's
// unnamed statements, each one with parameters costs postgres.js a Describe round trip first.
const sql = postgres(required("DATABASE_URL"), { max: 10, onnotice: () => {}, connection: { jit: "off" }, prepare: process.env.BARE_PREPARE !== "0" });
// Calendar dates stay `YYYY-MM-DD` strings, as drizzle's postgres-js driver configures them.
sql.options.parsers[1082] = (x: string) => x;
type Sql = postgres.Sql | postgres.TransactionSql;

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`bare-server: ${name} is required`);
  return value;
}

type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const iso = (d: Date | null) => (d ? d.toISOString() : null);
const cursor = (dir: "n" | "p", row: Row) => Buffer.from(JSON.stringify([dir, row.created_at.getTime(), row.id, "bare"])).toString("base64url");
const list = (rows: Row[], limit: number, present: (r: Row) => object) => ({
  object: "list",
  data: rows.slice(0, limit).map(present),
  has_more: rows.length > limit,
  next_cursor: rows.length > limit ? cursor("n", rows[limit - 1]) : null,
  prev_cursor: null,
});

const presentGuest = (g: Row) => ({
  id: g.id, object: "guest", livemode: g.livemode, first_name: g.first_name, last_name: g.last_name,
  email: g.email, phone: g.phone, created_at: iso(g.created_at), updated_at: iso(g.updated_at),
});

const presentReservation = (r: Row, g: Row) => ({
  id: r.id, object: "reservation", livemode: r.livemode, status: r.status, property_id: r.property_id,
  check_in: r.check_in, check_out: r.check_out, nights: daysBetween(r.check_in, r.check_out), adults: r.adults, children: r.children,
  room_type_id: r.room_type_id, rate_plan_id: r.rate_plan_id, room_id: r.room_id, folio_id: r.folio_id,
  total: { amount: r.total_amount, currency: r.currency }, nightly: r.nightly,
  price: { net: { amount: r.net_amount, currency: r.currency }, tax: { amount: r.tax_amount, currency: r.currency }, gross: { amount: r.net_amount + r.tax_amount, currency: r.currency }, taxes: r.taxes },
  guest: { id: g.id, first_name: g.first_name, last_name: g.last_name, email: g.email },
  source: r.source, channel: r.channel, notes: r.notes, metadata: r.metadata,
  cancelled_at: iso(r.cancelled_at), cancellation_reason: r.cancellation_reason, checked_in_at: iso(r.checked_in_at),
  checked_out_at: iso(r.checked_out_at), created_at: iso(r.created_at), updated_at: iso(r.updated_at),
});

type Emitted = { type: string; propertyId: string | null; object: object };
/** server/events/emit.ts: the outbox rows, the account's pinned version read by the INSERT itself. */
async function emitEvents(tx: Sql, list: Emitted[]) {
  const now = Date.now();
  const rows = list.map((e, i) => ({
    id: newId("event"), account_id: accountId, livemode, property_id: e.propertyId, type: e.type,
    api_version: tx`(select api_version from accounts where id = ${accountId})`, object: sql.json(e.object as postgres.JSONValue), created_at: new Date(now + i),
  }));
  await tx`insert into events ${tx(rows as Row[])}`;
}

type Entry = { action: string; objectType: string; objectId: string; after: object };
/** server/audit/audit.ts recordAudit: the trail's entries of a change, one INSERT, by the API key that made it. */
const recordAudit = (tx: Sql, entries: Entry[]) =>
  tx`insert into audit_log ${tx(
    entries.map((e) => ({
      id: newId("audit"), account_id: accountId, livemode, actor_type: "api_key", actor_id: "key_bare", actor_email: null, actor_name: "bench",
      action: e.action, object_type: e.objectType, object_id: e.objectId, before: null, after: sql.json(e.after as postgres.JSONValue),
    })),
  )}`;

/** server/guest-mail/guest-mail.ts queueGuestMail: the confirmation composed from the rows just written, into the outbox, due now. */
function queueConfirmation(tx: Sql, { reservation: r, guest, property, roomType, plan }: Record<string, Row>) {
  if (!property.guest_emails || guest.erased_at || !guest.email) return;
  const a = property.address;
  const facts: GuestMailFacts = {
    locale: propertyLocale(a.country),
    hotel: {
      name: property.name,
      address: [a.line1, a.line2, [a.postal_code, a.city].filter(Boolean).join(" "), a.region, a.country].filter((line): line is string => !!line),
      checkInTime: property.check_in_time,
      checkOutTime: property.check_out_time,
    },
    guest: { firstName: guest.first_name, lastName: guest.last_name },
    stay: { checkIn: r.check_in, checkOut: r.check_out, adults: r.adults, children: r.children, roomType: roomType.name, ratePlan: plan.name },
    total: { amount: r.net_amount + r.tax_amount, currency: r.currency },
    tax: r.tax_amount,
    plan: { refundable: plan.refundable, cancellationDeadlineHours: plan.cancellation_deadline_hours, noShowFee: plan.no_show_fee },
  };
  const mail = composeGuestMail("confirmation", facts);
  return tx`insert into mail_outbox (id, account_id, "to", subject, text, html, livemode, kind, guest_id, reservation_id, next_attempt_at)
    values (${`mail_${randomToken(24)}`}, ${accountId}, ${guest.email}, ${mail.subject}, ${mail.text}, ${mail.html}, ${livemode}, 'confirmation', ${guest.id}, ${r.id}, ${new Date()})`;
}

/** server/inventory/nights.ts ensureNights: the night rows of [from, to), counted from rooms when first made. */
async function ensureNights(tx: Sql, roomTypeIds: string[], from: string, to: string) {
  const [present] = await tx`select count(*)::int as n from inventory_nights where room_type_id in ${tx(roomTypeIds)} and date >= ${from} and date < ${to}`;
  if (present.n === roomTypeIds.length * daysBetween(from, to)) return;
  await tx`
    insert into inventory_nights (room_type_id, date, account_id, livemode, property_id, total, out_of_order)
    select rt.id, d::date, rt.account_id, rt.livemode, rt.property_id,
      (select count(*) from rooms r where r.room_type_id = rt.id),
      (select count(*) from rooms r where r.room_type_id = rt.id and r.housekeeping_status = 'out-of-order'
         and (r.out_of_order_until is null or r.out_of_order_until > d::date)
         and d::date >= (now() at time zone p.timezone)::date)
    from room_types rt
    join properties p on p.id = rt.property_id
    cross join generate_series(${from}::date, ${to}::date - 1, interval '1 day') as d
    where rt.id in ${tx(roomTypeIds)}
    on conflict do nothing`;
}

const owned = (tx: Sql, table: string, id: string) =>
  tx`select * from ${tx(table)} where account_id = ${accountId} and livemode = ${livemode} and id = ${id}`.then((rows) => rows[0]);

async function loadRates(tx: Sql, ratePlanId: string, roomTypeIds: string[], from: string, to: string) {
  const rows = await tx`select * from daily_rates where rate_plan_id = ${ratePlanId} and room_type_id in ${tx(roomTypeIds)} and date >= ${from} and date < ${to}`;
  return new Map(rows.map((r) => [`${r.room_type_id}:${r.date}`, r]));
}
const asNightRate = (r: Row | undefined): NightRate | undefined =>
  r && { amount: r.amount, minStay: r.min_stay, closedToArrival: r.closed_to_arrival, closedToDeparture: r.closed_to_departure, stopSell: r.stop_sell };

class Refused extends Error {
  constructor(public status: number, message: string) {
    super(message);
  }
}

// GET /v1/guests: server/guests/guests.ts listGuests
async function listGuests(url: URL) {
  const limit = Number(url.searchParams.get("limit") ?? 25);
  const rows = await sql`select * from guests where account_id = ${accountId} and livemode = ${livemode} order by created_at desc, id desc limit ${limit + 1}`;
  return list(rows, limit, presentGuest);
}

/** server/guests/guests.ts insertGuestIfNew: a new guest's event and trail entry are the caller's to write (a booking writes them with its own). */
async function insertGuestIfNew(tx: Sql, input: Row) {
  const email = String(input.email).trim();
  const [created] = await tx`
    insert into guests (id, account_id, livemode, first_name, last_name, email, email_key, phone)
    values (${newId("guest")}, ${accountId}, ${livemode}, ${input.first_name}, ${input.last_name}, ${email}, ${email.toLowerCase()}, ${input.phone ?? null})
    on conflict do nothing returning *`;
  if (created) return { guest: created, created: true };
  const [existing] = await tx`select * from guests where account_id = ${accountId} and livemode = ${livemode} and email_key = ${email.toLowerCase()}`;
  return { guest: existing, created: false };
}

const guestCreated = (guest: Row) => {
  const presented = presentGuest(guest);
  return {
    event: { type: "guest.created", propertyId: null, object: presented },
    entry: { action: "guest.created", objectType: "guest", objectId: guest.id, after: presented },
  };
};

// POST /v1/guests: createGuest
async function createGuest(body: Row) {
  const guest = await sql.begin(async (tx) => {
    const { guest, created } = await insertGuestIfNew(tx, body);
    if (!created) throw new Refused(422, "email taken");
    const { event, entry } = guestCreated(guest);
    await emitEvents(tx, [event]);
    await recordAudit(tx, [entry]);
    return guest;
  });
  return presentGuest(guest);
}

// server/folios/folios.ts taxRulesOf: the property's taxes in force.
const taxRules = (tx: Sql, propertyId: string) =>
  tx`select id, name, kind, percent_thousandths, amount, inclusive, applies_to from taxes where property_id = ${propertyId} and active = true order by created_at, id`;

// POST /v1/reservations: server/reservations/create-reservation.ts, the whole transaction
async function createReservation(input: Row) {
  const { property_id, room_type_id, rate_plan_id, check_in, check_out } = input;
  return sql.begin(async (tx) => {
    const property = await owned(tx, "properties", property_id);
    const roomType = await owned(tx, "room_types", room_type_id);
    const plan = await owned(tx, "rate_plans", rate_plan_id);
    if (!property || !roomType || !plan) throw new Refused(404, "no such property, room type or rate plan");
    const rates = await loadRates(tx, plan.id, [roomType.id], check_in, addDays(check_out, 1));
    const quote = quoteStay(check_in, check_out, (date) => asNightRate(rates.get(`${roomType.id}:${date}`)));
    if (!quote.bookable) throw new Refused(409, quote.explanation!);
    // The property's taxes (the bench's hotels have none, so net is the rates' total): read as Innkeep reads them.
    await taxRules(tx, property.id);

    // server/inventory/nights.ts sellNights: make, lock in date order, conditionally increment.
    await ensureNights(tx, [roomType.id], check_in, check_out);
    await tx`select date from inventory_nights where room_type_id = ${roomType.id} and date >= ${check_in} and date < ${check_out} order by date for update`;
    const sold = await tx`
      update inventory_nights set sold = sold + 1
      where room_type_id = ${roomType.id} and date >= ${check_in} and date < ${check_out} and sold + held + out_of_order + 1 <= total
      returning date`;
    if (sold.length !== daysBetween(check_in, check_out)) throw new Refused(409, "no_availability");

    const { guest, created } = await insertGuestIfNew(tx, input.guest);
    const id = newId("reservation");
    const [folio] = await tx`
      insert into folios (id, account_id, livemode, property_id, reservation_id, currency)
      values (${newId("folio")}, ${accountId}, ${livemode}, ${property.id}, ${id}, ${property.currency}) returning *`;
    const base = Date.now();
    const charges = quote.nightly.map((n, i) => ({
      id: newId("charge"), account_id: accountId, livemode, folio_id: folio.id, reservation_id: id, kind: "room_night",
      description: `${roomType.name}, ${plan.name}, night of ${n.date}`, date: n.date, amount: n.amount, created_at: new Date(base + i),
    }));
    await tx`insert into folio_charges ${tx(charges)}`;
    const [reservation] = await tx`
      insert into reservations (id, account_id, livemode, property_id, guest_id, room_type_id, rate_plan_id, folio_id, status,
        check_in, check_out, adults, children, total_amount, net_amount, currency, nightly, source, channel, notes, metadata)
      values (${id}, ${accountId}, ${livemode}, ${property.id}, ${guest.id}, ${roomType.id}, ${plan.id}, ${folio.id}, 'confirmed',
        ${check_in}, ${check_out}, ${input.adults}, ${input.children ?? 0}, ${quote.total}, ${quote.total}, ${property.currency},
        ${sql.json(quote.nightly)}, ${input.source ?? "api"}, ${input.channel ?? null}, ${input.notes ?? null}, ${sql.json(input.metadata ?? {})})
      returning *`;
    const presented = presentReservation(reservation, guest);
    // Innkeep's booking writes a new guest's event and entry with its own: one INSERT into events, one into the trail, and the confirmation.
    const newGuest = created ? guestCreated(guest) : undefined;
    await emitEvents(tx, [
      ...(newGuest ? [newGuest.event] : []),
      { type: "reservation.created", propertyId: property.id, object: presented },
      { type: "inventory.updated", propertyId: property.id, object: { object: "inventory_range", property_id: property.id, room_type_id: roomType.id, from: check_in, to: check_out } },
    ]);
    await recordAudit(tx, [...(newGuest ? [newGuest.entry] : []), { action: "reservation.created", objectType: "reservation", objectId: id, after: presented }]);
    await queueConfirmation(tx, { reservation, guest, property, roomType, plan });
    return presented;
  });
}

// GET /v1/availability: server/inventory/availability.ts getAvailability
async function availability(url: URL) {
  const q = Object.fromEntries(url.searchParams);
  const property = await owned(sql, "properties", q.property_id);
  if (!property) throw new Refused(404, "no such property");
  const types = await sql`select * from room_types where account_id = ${accountId} and livemode = ${livemode} and property_id = ${property.id}`;
  const typeIds = types.map((t) => t.id);
  await ensureNights(sql, typeIds, q.check_in, q.check_out);
  const inventory = await sql`
    select * from inventory_nights where room_type_id in ${sql(typeIds)} and date >= ${q.check_in} and date < ${q.check_out}
    order by date, room_type_id`;
  const plans = await sql`select * from rate_plans where account_id = ${accountId} and livemode = ${livemode} and property_id = ${property.id} and active = true`;
  const ratesByPlan = new Map(await Promise.all(plans.map(async (p) => [p.id, await loadRates(sql, p.id, typeIds, q.check_in, addDays(q.check_out, 1))] as const)));
  const guests = Number(q.adults) + Number(q.children ?? 0);
  await taxRules(sql, property.id);
  return {
    object: "availability", livemode: property.livemode, property_id: property.id, check_in: q.check_in, check_out: q.check_out,
    nights: daysBetween(q.check_in, q.check_out), adults: Number(q.adults), children: Number(q.children ?? 0),
    data: types.map((type) => {
      const nights = inventory.filter((n) => n.room_type_id === type.id);
      const available = nights.length ? Math.min(...nights.map((n) => Math.max(0, n.total - n.out_of_order - n.held - n.sold))) : 0;
      const quotes = plans
        .filter((p) => p.room_type_ids.includes(type.id))
        .map((plan) => {
          const rates = ratesByPlan.get(plan.id)!;
          const quote = quoteStay(q.check_in, q.check_out, (date) => asNightRate(rates.get(`${type.id}:${date}`)));
          const reason = guests > type.max_occupancy ? "max_occupancy" : (quote.reason ?? (available < 1 ? "no_availability" : undefined));
          const money = (amount: number) => ({ amount, currency: property.currency });
          return { rate_plan_id: plan.id, total: money(quote.total), price: { net: money(quote.total), tax: money(0), gross: money(quote.total), taxes: [] }, nightly: quote.nightly, bookable: !reason, ...(reason ? { reason } : {}) };
        });
      return { room_type_id: type.id, code: type.code, name: type.name, max_occupancy: type.max_occupancy, available, quotes };
    }),
  };
}

// GET /v1/reservations: server/reservations/reservations.ts listReservations
async function listReservations(url: URL) {
  const limit = Number(url.searchParams.get("limit") ?? 25);
  const rows = await sql`
    select r.*, g.id as g_id, g.account_id as g_account_id, g.livemode as g_livemode, g.first_name as g_first_name,
      g.last_name as g_last_name, g.email as g_email, g.email_key as g_email_key, g.phone as g_phone,
      g.created_at as g_created_at, g.updated_at as g_updated_at
    from reservations r inner join guests g on g.id = r.guest_id
    where r.account_id = ${accountId} and r.livemode = ${livemode}
    order by r.created_at desc, r.id desc limit ${limit + 1}`;
  return list(rows, limit, (r) => presentReservation(r, { id: r.g_id, first_name: r.g_first_name, last_name: r.g_last_name, email: r.g_email }));
}

// GET /v1/reports/revenue: server/reports/reports.ts revenueReport
async function revenueReport(url: URL) {
  const { property_id, from, to } = Object.fromEntries(url.searchParams);
  const property = await owned(sql, "properties", property_id);
  if (!property) throw new Refused(404, "no such property");
  const nightFigures = async () => {
    const types = await sql`select id from room_types where property_id = ${property.id}`;
    await ensureNights(sql, types.map((t) => t.id), from, to);
    const [capacity, sold] = await Promise.all([
      sql`select date, sum(total - out_of_order) as available from inventory_nights
          where property_id = ${property.id} and date >= ${from} and date < ${to} group by date`,
      sql`select date, sum(rooms_sold) as sold, sum(room_revenue) as revenue from sales_days
          where property_id = ${property.id} and date >= ${from} and date < ${to}
          group by date`,
    ]);
    const figures = new Map<string, NightFigures>();
    for (const c of capacity) figures.set(c.date, { date: c.date, roomsAvailable: Number(c.available), roomsSold: 0, roomRevenue: 0 });
    for (const s of sold) {
      const f = figures.get(s.date) ?? { date: s.date, roomsAvailable: 0, roomsSold: 0, roomRevenue: 0 };
      figures.set(s.date, { ...f, roomsSold: Number(s.sold), roomRevenue: Number(s.revenue) });
    }
    return figures;
  };
  // Money per local date as the triggers keep it (db/migrations/0009_money_days.sql).
  const money = () => sql`select date, payments, refunds from money_days where property_id = ${property.id} and date >= ${from} and date < ${to}`;
  // What the folios charge for the sold nights, as the triggers keep it (db/migrations/0022_charged_nights.sql; server/reports/reports.ts, chargedByNight).
  const charged = () => sql`select date, sum(charged_gross) as gross, sum(charged_tax) as tax from sales_days
      where property_id = ${property.id} and date >= ${from} and date < ${to} group by date`;
  // Every line of the property by the day it counts on (server/reports/reports.ts, chargedByDay): what is not a sold night's is other revenue.
  const allCharged = () => sql`select coalesce(c.date, c.posted_on) as date, sum(c.amount) as gross, sum(c.tax_amount) as tax from folio_charges c
      join folios f on f.id = c.folio_id where f.property_id = ${property.id} and coalesce(c.date, c.posted_on) >= ${from} and coalesce(c.date, c.posted_on) < ${to} group by 1`;
  const [nights, days, chargedRows, allRows] = await Promise.all([nightFigures(), money(), charged(), allCharged()]);
  const paid = new Map(days.map((r) => [r.date as string, Number(r.payments)]));
  const refunded = new Map(days.map((r) => [r.date as string, Number(r.refunds)]));
  const zero = { net: 0, tax: 0, gross: 0 };
  const room = new Map(chargedRows.map((r) => [r.date as string, { net: Number(r.gross) - Number(r.tax), tax: Number(r.tax), gross: Number(r.gross) }]));
  const all = new Map(allRows.map((r) => [r.date as string, { tax: Number(r.tax), gross: Number(r.gross) }]));
  const byNight = new Map(
    [...new Set([...room.keys(), ...all.keys()])].map((date) => {
      const r = room.get(date) ?? zero;
      const a = all.get(date) ?? { tax: 0, gross: 0 };
      return [date, { room: r, other: { net: a.gross - a.tax - r.net, tax: a.tax - r.tax, gross: a.gross - r.gross } }];
    }),
  );
  const rows = revenueRows(from, to, nights, byNight, paid, refunded);
  return {
    object: "report", type: "revenue", livemode: property.livemode, property_id: property.id, currency: property.currency, from, to,
    data: rows, totals: revenueTotals(rows, nights),
  };
}

type Route = (url: URL, body: () => Promise<Row>) => Promise<object>;
const routes: Record<string, Route> = {
  "GET /v1/guests": (url) => listGuests(url),
  "POST /v1/guests": async (_url, body) => createGuest(await body()),
  "POST /v1/reservations": async (_url, body) => createReservation(await body()),
  "GET /v1/availability": (url) => availability(url),
  "GET /v1/reservations": (url) => listReservations(url),
  "GET /v1/reports/revenue": (url) => revenueReport(url),
  "GET /readyz": async () => (await sql`select 1`, { status: "ready" }),
};

function readBody(req: IncomingMessage): Promise<Row> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")));
      } catch (error) {
        reject(new Refused(400, (error as Error).message));
      }
    });
    req.on("error", reject);
  });
}

const send = (res: ServerResponse, status: number, body: object) => {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text) });
  res.end(text);
};

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://bare");
  const route = routes[`${req.method} ${url.pathname}`];
  if (!route) return send(res, 404, { error: { code: "route_not_found" } });
  route(url, () => readBody(req)).then(
    (body) => send(res, req.method === "POST" ? 201 : 200, body),
    (error: unknown) => {
      if (error instanceof Refused) return send(res, error.status, { error: { message: error.message } });
      process.stderr.write(`bare-server: ${req.method} ${req.url}: ${(error as Error).stack ?? error}\n`);
      send(res, 500, { error: { message: "internal" } });
    },
  );
});

server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? "127.0.0.1", () => {
  const address = server.address();
  process.stderr.write(`bare-server listening on ${typeof address === "object" && address ? address.port : address}\n`);
});

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    server.close();
    server.closeAllConnections();
    sql.end({ timeout: 2 }).finally(() => process.exit(0));
  });
}
