import { eq, inArray } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { dailyRates, folioCharges, folios, guests, payments, ratePlans, reservations, rooms, type ReservationStatus } from "@/db/schema";
import { addDays, nightsOf, todayIn, weekdayOf, type IsoDate } from "@/lib/dates";
import { newId } from "@/server/ids";
import { issueInvoice } from "@/server/invoices/invoices";
import { ensureNights, sellNights } from "@/server/inventory/nights";
import { zonedInstant } from "@/server/properties/business-date";
import type { Tenant } from "@/server/tenancy";
import { createHotel, sandboxHotel } from "./hotel";

/** Nightly BAR prices in cents; Friday and Saturday nights cost 20 % more, NRF 10 % less. */
const basePrice: Record<string, number> = { KING: 18900, QQ: 21900, DLX: 27900, STE: 44900 };
const firstNames = ["Ava", "Liam", "Maya", "Noah", "Zoe", "Ethan", "Iris", "Lucas", "Nora", "Owen", "Ruth", "Theo", "Vera", "Jonah", "Cleo", "Hugo", "Ines", "Felix", "Greta", "Omar", "Lena", "Marco", "Sofia", "Kenji", "Amara", "Diego", "Priya", "Tomas", "Yara", "Elias"];
const lastNames = ["Hart", "Silva", "Okafor", "Berg", "Moreau", "Tanaka", "Novak", "Reyes", "Walsh", "Kowalski", "Haddad", "Lindqvist", "Costa", "Nakamura", "Fischer", "Duarte", "Ahmed", "Rossi", "Jensen", "Park"];

/** A small deterministic generator: every sandbox is the same hotel. */
function prng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const nightPrice = (prices: Record<string, number>, code: string, date: IsoDate, plan: "BAR" | "NRF") => {
  const weekend = ["fri", "sat"].includes(weekdayOf(date));
  const bar = Math.round((prices[code] * (weekend ? 1.2 : 1)) / 100) * 100;
  return plan === "BAR" ? bar : Math.round(bar * 0.9);
};

type Hotel = Awaited<ReturnType<typeof createHotel>>;

/**
 * BAR (refundable, all room types) and NRF (non-refundable, 10 % below) with a rate for every
 * night of [from, to), and the night rows of inventory for the same range.
 */
export async function seedRatePlans(db: Executor, tenant: Tenant, hotel: Hotel, prices: Record<string, number>, from: IsoDate, to: IsoDate) {
  const cols = { accountId: tenant.accountId, livemode: tenant.livemode };
  const plans = (["BAR", "NRF"] as const).map((code) => ({
    id: newId("ratePlan"),
    ...cols,
    propertyId: hotel.property.id,
    code,
    name: code === "BAR" ? "Best Available Rate" : "Non-refundable",
    roomTypeIds: hotel.roomTypes.map((t) => t.id),
    refundable: code === "BAR",
    cancellationDeadlineHours: code === "BAR" ? 24 : 0,
  }));
  await db.insert(ratePlans).values(plans);
  const rateRows = plans.flatMap((plan) =>
    hotel.roomTypes.flatMap((type) =>
      nightsOf(from, to).map((date) => ({ ratePlanId: plan.id, roomTypeId: type.id, date, ...cols, propertyId: hotel.property.id, amount: nightPrice(prices, type.code, date, plan.code) })),
    ),
  );
  for (let i = 0; i < rateRows.length; i += 1000) await db.insert(dailyRates).values(rateRows.slice(i, i + 1000));
  await ensureNights(db, hotel.roomTypes.map((t) => t.id), from, to);
  return plans;
}

const earlier = (a: Date, b: Date) => (a < b ? a : b);

/** Every account's sandbox starts as the same hotel (contract §8). */
export async function seedSandbox({ db, accountId }: { db: Executor; accountId: string }) {
  const tenant: Tenant = { accountId, livemode: false, propertyIds: null };
  const hotel = await createHotel(db, tenant, sandboxHotel);
  const { property } = hotel;
  const today = todayIn(property.timezone);
  const from = addDays(today, -30);
  const to = addDays(today, 365);
  const cols = { accountId, livemode: false };
  const random = prng(40);

  // Two rooms out of order for a week, before the night rows count them.
  const broken = hotel.rooms.filter((r) => r.floor === 4).slice(0, 2);
  await db
    .update(rooms)
    .set({ housekeepingStatus: "out-of-order", outOfOrderReason: "Bathroom renovation", outOfOrderUntil: addDays(today, 7) })
    .where(inArray(rooms.id, broken.map((r) => r.id)));

  const plans = await seedRatePlans(db, tenant, hotel, basePrice, from, to);

  const guestRows = firstNames.map((first, i) => {
    const last = lastNames[i % lastNames.length];
    const email = `${first}.${last}${i}@guests.example`.toLowerCase();
    return { id: newId("guest"), ...cols, firstName: first, lastName: last, email, emailKey: email, phone: `+1 617 555 ${String(1000 + i)}` };
  });
  await db.insert(guests).values(guestRows);

  // A few dozen stays in every status, spread over the past three weeks and the coming two months.
  const plan: { status: ReservationStatus; start: number; nights: number }[] = [
    ...Array.from({ length: 8 }, (_, i) => ({ status: "checked_out" as const, start: -20 + i * 2, nights: 1 + (i % 3) })),
    ...Array.from({ length: 5 }, (_, i) => ({ status: "checked_in" as const, start: -i % 3, nights: 2 + i })),
    ...Array.from({ length: 15 }, (_, i) => ({ status: "confirmed" as const, start: i * 4, nights: 1 + (i % 4) })),
    ...Array.from({ length: 5 }, (_, i) => ({ status: "cancelled" as const, start: 3 + i * 7, nights: 2 })),
    ...Array.from({ length: 3 }, (_, i) => ({ status: "no_show" as const, start: -10 + i * 3, nights: 1 })),
  ];
  const freeRooms = hotel.rooms.filter((r) => !broken.some((b) => b.id === r.id));
  const created = Date.now() - plan.length * 60_000;
  for (const [i, stay] of plan.entries()) {
    const type = hotel.roomTypes[Math.floor(random() * 3)]; // KING, QQ or DLX
    const ratePlan = plans[i % 4 === 3 ? 1 : 0];
    const guest = guestRows[i % guestRows.length];
    const checkIn = addDays(today, stay.status === "checked_in" ? -(i % 2) : stay.start);
    const checkOut = addDays(checkIn, stay.status === "checked_in" ? Math.max(stay.nights, 1 + (i % 2)) : stay.nights);
    const nightly = nightsOf(checkIn, checkOut).map((date) => ({ date, amount: nightPrice(basePrice, type.code, date, ratePlan.code) }));
    const total = nightly.reduce((s, n) => s + n.amount, 0);
    if (["confirmed", "checked_in", "checked_out"].includes(stay.status)) await sellNights(db, type.id, checkIn, checkOut);
    let roomId: string | null = null;
    if (stay.status === "checked_in" || stay.status === "checked_out") {
      const room = freeRooms.find((r) => r.roomTypeId === type.id && (stay.status === "checked_out" || !("taken" in r)));
      if (room) {
        roomId = room.id;
        if (stay.status === "checked_in") {
          Object.assign(room, { taken: true });
          await db.update(rooms).set({ occupied: true }).where(eq(rooms.id, room.id));
        }
      }
    }
    const id = newId("reservation");
    const folioId = newId("folio");
    const at = new Date(created + i * 60_000);
    const closed = stay.status === "cancelled";
    await db.insert(folios).values({ id: folioId, ...cols, propertyId: property.id, reservationId: id, currency: property.currency, status: closed ? "closed" : "open", closedAt: closed ? at : null });
    if (stay.status === "no_show") {
      // As the night audit leaves a no-show: its nights off the folio, the first night's price as its fee, unpaid.
      await db.insert(folioCharges).values({ id: newId("charge"), ...cols, folioId, reservationId: id, kind: "no_show_fee", description: `No-show fee, arrival ${checkIn}`, date: checkIn, amount: nightly[0].amount, createdAt: at });
    } else if (stay.status !== "cancelled") {
      await db.insert(folioCharges).values(
        nightly.map((n, k) => ({ id: newId("charge"), ...cols, folioId, reservationId: id, kind: "room_night" as const, description: `${type.name}, ${ratePlan.name}, night of ${n.date}`, date: n.date, amount: n.amount, createdAt: new Date(at.getTime() + k) })),
      );
    }
    // Departed guests settled their folios by card; some in-house guests paid a deposit.
    const paid = stay.status === "checked_out" ? total : stay.status === "checked_in" && i % 2 === 0 ? nightly[0].amount : 0;
    if (paid > 0) {
      await db.insert(payments).values({
        id: newId("payment"), ...cols, propertyId: property.id, reservationId: id, folioId, amount: paid, currency: property.currency, status: "succeeded",
        methodType: "card", cardBrand: "visa", cardLast4: "4242", cardExpMonth: 12, cardExpYear: 2030, capturedAt: at, createdAt: at, updatedAt: at,
      });
    }
    await db.insert(reservations).values({
      id,
      ...cols,
      propertyId: property.id,
      guestId: guest.id,
      roomTypeId: type.id,
      ratePlanId: ratePlan.id,
      roomId,
      folioId,
      status: stay.status,
      checkIn,
      checkOut,
      adults: 1 + (i % 2),
      children: 0,
      totalAmount: total,
      // The sandbox has no taxes until an integrator adds some: its nights are all net.
      netAmount: total,
      currency: property.currency,
      nightly,
      source: i % 5 === 0 ? "channel" : (["direct", "api", "phone", "email"] as const)[i % 4],
      channel: i % 5 === 0 ? (["booking_com", "expedia", "airbnb"] as const)[i % 3] : null,
      cancelledAt: stay.status === "cancelled" ? at : null,
      cancellationReason: stay.status === "cancelled" ? "Guest changed plans" : null,
      // Checked in at 15:00 on the arrival day and out at 11:00 on the departure day, hotel time (never
      // later than now): a stay that left weeks ago left then, not today (nor among today's departures).
      checkedInAt: stay.status === "checked_in" || stay.status === "checked_out" ? earlier(zonedInstant(checkIn, 15, property.timezone), at) : null,
      checkedOutAt: stay.status === "checked_out" ? earlier(zonedInstant(checkOut, 11, property.timezone), at) : null,
      createdAt: at,
      updatedAt: at,
    });
    // The same rules as live: a departed stay, and a no-show with its fee, are invoiced (the no-show's fee then owed: a receivable).
    if (stay.status === "checked_out" || stay.status === "no_show") await issueInvoice(db, tenant, folioId, { silent: true });
  }
  return hotel;
}

