import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import { reservations, rooms } from "@/db/schema";
import type { Executor } from "@/db/client";
import { ApiError } from "@/server/errors";
import { findOwned, ownedBy, type Ctx, type Tenant } from "@/server/tenancy";

/** Housekeeping states a guest may be put in. */
export const readyStatuses = ["clean", "inspected"] as const;

/** A free room of the type, ready for a guest: in service, clean or inspected, not occupied. */
export const readyRoomWhere = (roomTypeId: string) =>
  and(eq(rooms.roomTypeId, roomTypeId), isNull(rooms.retiredAt), eq(rooms.occupied, false), inArray(rooms.housekeepingStatus, [...readyStatuses]));

/** Inspected rooms first (they have been checked twice), then by number. */
export const readyRoomOrder = [sql`case when ${rooms.housekeepingStatus} = 'inspected' then 0 else 1 end`, asc(rooms.number)];

/**
 * A room of the type to put a guest in, locked: the one asked for (which must be of the type, in
 * service, free and ready; 422 on `room_id` otherwise), or the first ready room in the order above
 * (409 `no_availability` when none is).
 */
export async function takeReadyRoom(tx: Executor, tenant: Tenant, roomTypeId: string, roomId?: string) {
  if (roomId) {
    const room = await findOwned(tx, rooms, tenant, roomId, "room", { param: "room_id", forUpdate: true });
    if (room.roomTypeId !== roomTypeId) throw new ApiError("parameter_invalid", "The room is of another room type.", { param: "room_id" });
    if (room.retiredAt) throw new ApiError("parameter_invalid", `Room ${room.number} is retired.`, { param: "room_id" });
    if (room.occupied || !(readyStatuses as readonly string[]).includes(room.housekeepingStatus)) {
      throw new ApiError("parameter_invalid", `Room ${room.number} is not ready (${room.occupied ? "occupied" : room.housekeepingStatus}).`, { param: "room_id" });
    }
    return room;
  }
  const [room] = await tx
    .select()
    .from(rooms)
    .where(readyRoomWhere(roomTypeId))
    .orderBy(...readyRoomOrder)
    .limit(1)
    .for("update", { skipLocked: true });
  if (!room) throw new ApiError("no_availability", "No clean or inspected room of this type is free; mark one clean or pass room_id.");
  return room;
}

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
