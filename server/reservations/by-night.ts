import { asc, eq, gt, inArray, lte } from "drizzle-orm";
import { guests, properties, reservations } from "@/db/schema";
import type { IsoDate } from "@/lib/dates";
import { findOwned, ownedBy, type Ctx } from "@/server/tenancy";
import type { ReservationWithGuest } from "./present";

/** The states in which a reservation holds its nights (cancelled and no-show gave them back). */
const holdingNights = ["confirmed", "checked_in", "checked_out"] as const;

/**
 * The reservations staying the night of `date` (check-in ≤ date < check-out) at a property,
 * optionally of one room type: the bookings behind a calendar cell's "sold".
 */
export async function listNightReservations({
  db,
  tenant,
  propertyId,
  roomTypeId,
  date,
}: Ctx & { propertyId: string; roomTypeId?: string; date: IsoDate }): Promise<ReservationWithGuest[]> {
  const property = await findOwned(db, properties, tenant, propertyId, "property", { param: "property_id" });
  return db
    .select({ reservation: reservations, guest: guests })
    .from(reservations)
    .innerJoin(guests, eq(guests.id, reservations.guestId))
    .where(
      ownedBy(
        reservations,
        tenant,
        eq(reservations.propertyId, property.id),
        roomTypeId ? eq(reservations.roomTypeId, roomTypeId) : undefined,
        inArray(reservations.status, [...holdingNights]),
        lte(reservations.checkIn, date),
        gt(reservations.checkOut, date),
      ),
    )
    .orderBy(asc(reservations.checkIn), asc(reservations.id))
    .limit(500);
}
