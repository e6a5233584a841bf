import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import { reservations, rooms } from "@/db/schema";
import { findOwned, ownedBy, type Ctx } from "@/server/tenancy";

/** Housekeeping states a guest may be put in. */
export const readyStatuses = ["clean", "inspected"] as const;

/** A free room of the type, ready for a guest: in service, clean or inspected, not occupied. */
export const readyRoomWhere = (roomTypeId: string) =>
  and(eq(rooms.roomTypeId, roomTypeId), isNull(rooms.retiredAt), eq(rooms.occupied, false), inArray(rooms.housekeepingStatus, [...readyStatuses]));

/** Inspected rooms first (they have been checked twice), then by number. */
export const readyRoomOrder = [sql`case when ${rooms.housekeepingStatus} = 'inspected' then 0 else 1 end`, asc(rooms.number)];

/**
 * The rooms a reservation can be checked in to, in the order check-in would pick them: the
 * clerk's choice on the reservation page, from the same rule the check-in applies.
 */
export async function listReadyRooms({ db, tenant, reservationId }: Ctx & { reservationId: string }) {
  const reservation = await findOwned(db, reservations, tenant, reservationId, "reservation");
  return db
    .select()
    .from(rooms)
    .where(ownedBy(rooms, tenant, readyRoomWhere(reservation.roomTypeId)))
    .orderBy(...readyRoomOrder);
}
