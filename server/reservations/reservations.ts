import { and, eq, gte, lt, sql } from "drizzle-orm";
import type { Db, Executor } from "@/db/client";
import { guests, properties, ratePlans, reservations, roomTypes } from "@/db/schema";
import { addDays, type IsoDate } from "@/lib/dates";
import { businessToday } from "@/server/properties/business-date";
import { ApiError } from "@/server/errors";
import { asNightRate, loadRates } from "@/server/rates/daily-rates";
import { quoteStay, type UnbookableReason } from "@/server/rates/quote";
import { reservationSearch } from "@/server/guests/search";
import { dateKey, keyset, keysetShape, keysetValues, toPage, type ListOrder, type PageRequest } from "@/server/pagination";
import { prepared } from "@/db/prepared";
import { sideBySide } from "@/server/side-by-side";
import { findOwned, ownedBy, type Ctx, type Tenant } from "@/server/tenancy";
import { assertStayDates } from "@/server/inventory/stay-rules";
import type { ReservationWithGuest } from "./present";
import type { ReservationFilters } from "./schemas";

export async function loadReservation(db: Executor, tenant: Tenant, id: string, forUpdate = false): Promise<ReservationWithGuest> {
  const reservation = await findOwned(db, reservations, tenant, id, "reservation", { forUpdate });
  const [guest] = await db.select().from(guests).where(eq(guests.id, reservation.guestId));
  return { reservation, guest };
}

export const getReservation = ({ db, tenant, id }: Ctx & { id: string }) => loadReservation(db, tenant, id);

/** The stay order: arrival date, earliest first, then id (both ways stable under inserts). */
export const stayOrder: ListOrder = { key: reservations.checkIn, id: reservations.id, type: "date" };

/** A row's place in its list: its creation time, or its arrival date in the stay order. */
export const sortKey = (order: ReservationFilters["order"] | undefined, r: typeof reservations.$inferSelect) =>
  order === "check_in" ? dateKey(r.checkIn) : r.createdAt;

export async function listReservations({ db, tenant, filters, page }: Ctx & { filters: ReservationFilters; page: PageRequest }) {
  const rows = unfiltered(tenant, filters) ? await listAllReservations(db, tenant, page) : await listFilteredReservations(db, tenant, filters, page);
  return toPage(
    rows.map((r) => ({ ...r, createdAt: sortKey(filters.order, r.reservation), id: r.reservation.id })),
    page,
  );
}

/**
 * No filter set and the default order (the parsed query also carries `limit` and `cursor`,
 * which are not filters).
 */
const unfiltered = (tenant: Tenant, filters: ReservationFilters) =>
  tenant.propertyIds === null &&
  Object.entries(filters).every(([name, value]) => name === "limit" || name === "cursor" || value === undefined || (name === "order" && value === "created"));

/** The whole account's list, the common case: one prepared statement per direction. */
function listAllReservations(db: Db, tenant: Tenant, page: PageRequest) {
  const { direction, values } = keysetValues(page);
  const name = `list_reservations_${direction}`;
  const statement = prepared(db, name, () => {
    const q = keysetShape(reservations, direction);
    return db
      .select({ reservation: reservations, guest: guests })
      .from(reservations)
      .innerJoin(guests, eq(guests.id, reservations.guestId))
      .where(and(eq(reservations.accountId, sql.placeholder("account")), eq(reservations.livemode, sql.placeholder("livemode")), q.where))
      .orderBy(...q.orderBy)
      .limit(q.limit)
      .prepare(name);
  });
  return statement.execute({ ...values, account: tenant.accountId, livemode: tenant.livemode });
}

async function listFilteredReservations(db: Db, tenant: Tenant, filters: ReservationFilters, page: PageRequest) {
  const q = keyset(reservations, page, filters.order === "check_in" ? stayOrder : undefined);
  return db
    .select({ reservation: reservations, guest: guests })
    .from(reservations)
    .innerJoin(guests, eq(guests.id, reservations.guestId))
    .where(
      ownedBy(
        reservations,
        tenant,
        filters.search ? reservationSearch(filters.search, reservations.id) : undefined,
        filters.status ? eq(reservations.status, filters.status) : undefined,
        filters.property_id ? eq(reservations.propertyId, filters.property_id) : undefined,
        filters.guest_id ? eq(reservations.guestId, filters.guest_id) : undefined,
        filters.check_in_from ? gte(reservations.checkIn, filters.check_in_from) : undefined,
        filters.check_in_to ? lt(reservations.checkIn, filters.check_in_to) : undefined,
        filters.updated_since ? gte(reservations.updatedAt, new Date(filters.updated_since)) : undefined,
        q.where,
      ),
    )
    .orderBy(...q.orderBy)
    .limit(q.limit);
}

export type Stay = {
  propertyId: string;
  roomTypeId: string;
  ratePlanId: string;
  checkIn: IsoDate;
  checkOut: IsoDate;
  adults: number;
  children: number;
};

const restrictionParam: Partial<Record<UnbookableReason, string>> = {
  closed_to_arrival: "check_in",
  closed_to_departure: "check_out",
  min_stay: "check_out",
};

/**
 * Runs the checks of contract §6 in its order (after the shape checks) and prices the stay:
 * dates, occupancy, the rate plan covering the room type, then the rate restrictions.
 * Availability is last and belongs to the caller's sale of the nights.
 */
export async function checkAndQuote(tx: Executor, tenant: Tenant, stay: Stay) {
  // The four reads go out together (one round trip of the transaction's pipeline); each is then
  // checked in the contract's order, as if read one after another.
  const [propertyRead, roomTypeRead, planRead, ratesRead] = await sideBySide([
    findOwned(tx, properties, tenant, stay.propertyId, "property", { param: "property_id" }),
    findOwned(tx, roomTypes, tenant, stay.roomTypeId, "room_type", { param: "room_type_id" }),
    findOwned(tx, ratePlans, tenant, stay.ratePlanId, "rate_plan", { param: "rate_plan_id" }),
    loadRates(tx, stay.ratePlanId, [stay.roomTypeId], stay.checkIn, addDays(stay.checkOut, 1)),
  ]);
  const property = propertyRead();
  assertStayDates(stay.checkIn, stay.checkOut, businessToday(property), "body");
  const roomType = roomTypeRead();
  if (roomType.propertyId !== property.id) {
    throw new ApiError("parameter_invalid", `Room type '${roomType.id}' belongs to another property.`, { param: "room_type_id" });
  }
  if (stay.adults + stay.children > roomType.maxOccupancy) {
    const param = stay.adults > roomType.maxOccupancy ? "adults" : "children";
    throw new ApiError("parameter_invalid", `Room type ${roomType.code} sleeps at most ${roomType.maxOccupancy} guests.`, { param });
  }
  const plan = planRead();
  if (plan.propertyId !== property.id || !plan.active || !plan.roomTypeIds.includes(roomType.id)) {
    const why = plan.propertyId !== property.id ? "belongs to another property" : !plan.active ? "is not active" : `does not cover room type ${roomType.code}`;
    throw new ApiError("parameter_invalid", `Rate plan '${plan.id}' ${why}.`, { param: "rate_plan_id" });
  }
  // Read for the ids asked for; used only now that the plan is known to cover the room type.
  const rates = ratesRead();
  const quote = quoteStay(stay.checkIn, stay.checkOut, (date) => asNightRate(rates.get(`${roomType.id}:${date}`)));
  // The error body has only the contract's members (§2), so the reason travels in the message and
  // in `param` where one date is at fault; stop-sell and missing rates concern the whole stay.
  if (!quote.bookable) throw new ApiError("restriction_violated", quote.explanation!, { param: restrictionParam[quote.reason!] });
  return { property, roomType, plan, quote };
}

