import { and, eq } from "drizzle-orm";
import { folioCharges, properties, ratePlans, reservations, roomMoves, rooms } from "@/db/schema";
import { ApiError } from "@/server/errors";
import { emitEvents } from "@/server/events/emit";
import { newId } from "@/server/ids";
import { businessToday } from "@/server/properties/business-date";
import { feeAmount } from "@/server/rates/fees";
import type { PageRequest } from "@/server/pagination";
import { findOwned, listOwned, tenantValues, type Ctx } from "@/server/tenancy";
import { inTransaction } from "@/server/transactions";
import { presentReservation, type ReservationWithGuest } from "./present";
import { readyStatuses } from "./ready-rooms";
import { loadReservation } from "./reservations";
import { postFee } from "./stay-end";
import { vacateRoom } from "./transitions";

async function inHouse(tx: Parameters<typeof loadReservation>[0], tenant: Ctx["tenant"], id: string): Promise<ReservationWithGuest> {
  const current = await loadReservation(tx, tenant, id, true);
  if (current.reservation.status !== "checked_in") {
    throw new ApiError("invalid_state_transition", `Only a guest in house can do this; the reservation is ${current.reservation.status.replace("_", "-")}.`);
  }
  return current;
}

/**
 * Moves a guest in house to another free, clean or inspected room of the same type. The room left
 * becomes dirty (it was slept in) and free; the move is kept in the stay's room history
 * (`room_moves`). Writes `reservation.updated` and the rooms' `housekeeping.status_changed`.
 */
export async function moveRoom({ db, tenant, id, roomId, reason }: Ctx & { id: string; roomId: string; reason?: string }) {
  return inTransaction(db, async (tx) => {
    const current = await inHouse(tx, tenant, id);
    const r = current.reservation;
    const room = await findOwned(tx, rooms, tenant, roomId, "room", { param: "room_id", forUpdate: true });
    if (room.id === r.roomId) throw new ApiError("parameter_invalid", `The guest is already in room ${room.number}.`, { param: "room_id" });
    if (room.roomTypeId !== r.roomTypeId) throw new ApiError("parameter_invalid", "The room is of another room type; change the stay's room type first.", { param: "room_id" });
    if (room.occupied || !(readyStatuses as readonly string[]).includes(room.housekeepingStatus)) {
      throw new ApiError("parameter_invalid", `Room ${room.number} is not ready (${room.occupied ? "occupied" : room.housekeepingStatus}).`, { param: "room_id" });
    }
    const events = r.roomId ? await vacateRoom(tx, r.roomId, r.propertyId) : [];
    await tx.update(rooms).set({ occupied: true, updatedAt: new Date() }).where(eq(rooms.id, room.id));
    await tx.insert(roomMoves).values({
      id: newId("roomMove"),
      ...tenantValues(tenant),
      propertyId: r.propertyId,
      reservationId: r.id,
      fromRoomId: r.roomId ?? room.id,
      toRoomId: room.id,
      reason: reason ?? null,
    });
    const [reservation] = await tx.update(reservations).set({ roomId: room.id, updatedAt: new Date() }).where(eq(reservations.id, r.id)).returning();
    const result = { reservation, guest: current.guest };
    await emitEvents(tx, tenant, [{ type: "reservation.updated", propertyId: r.propertyId, object: presentReservation(result) }, ...events]);
    return result;
  });
}

/** The stay's room history, newest first, cursor-paginated like every list. */
export async function listRoomMoves({ db, tenant, id, page }: Ctx & { id: string; page: PageRequest }) {
  const r = await loadReservation(db, tenant, id);
  return listOwned(db, roomMoves, tenant, page, eq(roomMoves.reservationId, r.reservation.id));
}

/**
 * A late check-out granted on the departure day: the rate plan's late check-out fee, on the
 * stay's last night, posted once as its own folio line. Writes `reservation.updated`.
 */
export async function grantLateCheckOut({ db, tenant, id }: Ctx & { id: string }) {
  return inTransaction(db, async (tx) => {
    const current = await inHouse(tx, tenant, id);
    const r = current.reservation;
    const [[property], [plan]] = await Promise.all([
      tx.select().from(properties).where(eq(properties.id, r.propertyId)),
      tx.select().from(ratePlans).where(eq(ratePlans.id, r.ratePlanId)),
    ]);
    const today = businessToday(property);
    if (today !== r.checkOut) throw new ApiError("invalid_state_transition", `A late check-out is granted on the departure day (${r.checkOut}); today is ${today} at the property.`);
    const [already] = await tx.select({ id: folioCharges.id }).from(folioCharges).where(and(eq(folioCharges.folioId, r.folioId), eq(folioCharges.kind, "late_check_out_fee"))).limit(1);
    if (already) throw new ApiError("invalid_state_transition", "A late check-out was already granted for this stay.");
    await postFee(tx, tenant, r, "late_check_out_fee", feeAmount(plan.lateCheckOutFee, r.nightly.slice(-1)), `departure ${r.checkOut}`, r.checkOut);
    const [reservation] = await tx.update(reservations).set({ updatedAt: new Date() }).where(eq(reservations.id, r.id)).returning();
    const result = { reservation, guest: current.guest };
    await emitEvents(tx, tenant, [{ type: "reservation.updated", propertyId: r.propertyId, object: presentReservation(result) }]);
    return result;
  });
}
