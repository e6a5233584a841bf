import { and, eq, gte, inArray, lt, lte, or, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { guests, properties, reservationStatuses, reservations, roomTypes, rooms } from "@/db/schema";
import { businessToday } from "@/server/properties/business-date";
import { ApiError } from "@/server/errors";
import { keyset, toPage, type PageRequest } from "@/server/pagination";
import { date } from "@/server/schemas";
import { findOwned, ownedBy, type Ctx } from "@/server/tenancy";
import { presentReservation } from "./present";
import { reservationSearch } from "@/server/guests/search";
import { sortKey, stayOrder } from "./reservations";
import { reservationOrders, sources } from "./schemas";

/** The front desk's three lists of the day, "today" being the property's date. */
export const dayViews = ["arrivals", "in_house", "departures"] as const;
export type DayView = (typeof dayViews)[number];

/**
 * What the reservations page can ask for: free text (a guest's name or e-mail, or a
 * reservation id) and the filters of `GET /v1/reservations`, plus room type, source and the
 * day's views.
 */
export const reservationSearchQuery = z.strictObject({
  property_id: z.string().min(1).max(64).optional(),
  /** Any part of the guest's name, e-mail or phone, or of the reservation id (as `search` of /v1). */
  q: z.string().trim().max(200).optional(),
  order: z.enum(reservationOrders).default("check_in"),
  status: z.enum(reservationStatuses).optional(),
  guest_id: z.string().min(1).max(64).optional(),
  room_type_id: z.string().min(1).max(64).optional(),
  source: z.enum(sources).optional(),
  check_in_from: date.optional(),
  /** Exclusive, like every `to` of the contract. */
  check_in_to: date.optional(),
  view: z.enum(dayViews).optional(),
});
export type ReservationSearch = z.output<typeof reservationSearchQuery>;

/**
 * The day's lists: arrivals are stays starting today (still to arrive, or arrived); in-house
 * are checked-in stays; departures are checked-in stays due out today or overdue, and those
 * that checked out today.
 */
export function dayMatch(view: DayView, today: string, timezone: string): SQL | undefined {
  switch (view) {
    case "arrivals":
      return and(eq(reservations.checkIn, today), inArray(reservations.status, ["confirmed", "checked_in"]));
    case "in_house":
      return eq(reservations.status, "checked_in");
    case "departures":
      return or(
        and(eq(reservations.status, "checked_in"), lte(reservations.checkOut, today)),
        // Left today, on the planned date, early or late: a check-out ends the stay on the business
        // date it is made; one who left on the arrival day keeps that night (departure tomorrow): the clock's date then.
        and(
          eq(reservations.status, "checked_out"),
          or(eq(reservations.checkOut, today), sql`(${reservations.checkedOutAt} at time zone ${timezone})::date = ${today}::date`),
        ),
      );
  }
}

/**
 * Reservations for the front desk, in order of stay (arrival date, then id) unless asked newest
 * first, cursor-paged like every list, each with its room type and room number for display. A
 * day view needs the property (its time zone decides "today").
 */
export async function searchReservations({ db, tenant, query, page }: Ctx & { query: ReservationSearch; page: PageRequest }) {
  if (query.view && !query.property_id) {
    throw new ApiError("parameter_missing", "Today's lists need the property: its time zone decides the date.", { param: "property_id" });
  }
  let today: string | undefined;
  let timezone = "UTC";
  if (query.property_id) {
    const property = await findOwned(db, properties, tenant, query.property_id, "property", { param: "property_id" });
    timezone = property.timezone;
    today = businessToday(property);
  }
  const q = keyset(reservations, page, query.order === "check_in" ? stayOrder : undefined);
  const rows = await db
    .select({ reservation: reservations, guest: guests, roomType: { code: roomTypes.code, name: roomTypes.name }, roomNumber: rooms.number })
    .from(reservations)
    .innerJoin(guests, eq(guests.id, reservations.guestId))
    .leftJoin(roomTypes, eq(roomTypes.id, reservations.roomTypeId))
    .leftJoin(rooms, eq(rooms.id, reservations.roomId))
    .where(
      ownedBy(
        reservations,
        tenant,
        query.property_id ? eq(reservations.propertyId, query.property_id) : undefined,
        query.q ? reservationSearch(query.q, reservations.id) : undefined,
        query.status ? eq(reservations.status, query.status) : undefined,
        query.guest_id ? eq(reservations.guestId, query.guest_id) : undefined,
        query.room_type_id ? eq(reservations.roomTypeId, query.room_type_id) : undefined,
        query.source ? eq(reservations.source, query.source) : undefined,
        query.check_in_from ? gte(reservations.checkIn, query.check_in_from) : undefined,
        query.check_in_to ? lt(reservations.checkIn, query.check_in_to) : undefined,
        query.view && today ? dayMatch(query.view, today, timezone) : undefined,
        q.where,
      ),
    )
    .orderBy(...q.orderBy)
    .limit(q.limit);
  return { today: today ?? null, page: toPage(rows.map((r) => ({ ...r, createdAt: sortKey(query.order, r.reservation), id: r.reservation.id })), page) };
}

/** A reservation as the front desk's lists show it: the API object plus room type and room. */
export const presentReservationRow = (row: Awaited<ReturnType<typeof searchReservations>>["page"]["data"][number]) => ({
  ...presentReservation(row),
  room_type: row.roomType ? { code: row.roomType.code, name: row.roomType.name } : null,
  room_number: row.roomNumber,
});
