import { eq } from "drizzle-orm";
import { recordChange, type ChangeCtx } from "@/server/audit/audit";
import { properties, ratePlans, reservations, roomMoves, rooms } from "@/db/schema";
import { ApiError } from "@/server/errors";
import { newId } from "@/server/ids";
import { businessToday } from "@/server/properties/business-date";
import { feeAmount } from "@/server/rates/fees";
import type { PageRequest } from "@/server/pagination";
import type { Tx } from "@/db/client";
import { findOwned, listOwned, tenantValues, type Ctx, type Tenant } from "@/server/tenancy";
import { inTransaction } from "@/db/transactions";
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
export async function moveRoom({ db, tenant, actor, id, roomId, reason }: ChangeCtx & { id: string; roomId: string; reason?: string }) {
  return inTransaction(db, async (tx) => {
    const current = await inHouse(tx, tenant, id);
    const r = current.reservation;
    const room = await findOwned(tx, rooms, tenant, roomId, "room", { param: "room_id", forUpdate: true });
    if (room.id === r.roomId) throw new ApiError("parameter_invalid", `The guest is already in room ${room.number}.`, { param: "room_id" });
    if (room.roomTypeId !== r.roomTypeId) throw new ApiError("parameter_invalid", "The room is of another room type; change the stay's room type first.", { param: "room_id" });
    if (room.occupied || !(readyStatuses as readonly string[]).includes(room.housekeepingStatus)) {
      throw new ApiError("parameter_invalid", `Room ${room.number} is not ready (${room.occupied ? "occupied" : room.housekeepingStatus}).`, { param: "room_id" });
    }
    const events = await changeRoom(tx, tenant, r, room.id, reason);
    const [reservation] = await tx.update(reservations).set({ roomId: room.id, updatedAt: new Date() }).where(eq(reservations.id, r.id)).returning();
    const result = { reservation, guest: current.guest };
    const after = presentReservation(result);
    await recordChange(tx, { tenant, actor }, [{ type: "reservation.updated", propertyId: r.propertyId, object: after }, ...events], {
      action: "reservation.room_moved",
      objectType: "reservation",
      objectId: r.id,
      before: presentReservation(current),
      after,
    });
    return result;
  });
}

/**
 * Puts a guest in house into another room (already checked ready): the room left is vacated and
 * dirty, the new one occupied, and the move kept in the stay's history. Its housekeeping events.
 */
export async function changeRoom(tx: Tx, tenant: Tenant, r: typeof reservations.$inferSelect, roomId: string, reason: string | undefined) {
  const events = r.roomId ? await vacateRoom(tx, r.roomId, r.propertyId) : [];
  await tx.update(rooms).set({ occupied: true, updatedAt: new Date() }).where(eq(rooms.id, roomId));
  await tx.insert(roomMoves).values({
    id: newId("roomMove"),
    ...tenantValues(tenant),
    propertyId: r.propertyId,
    reservationId: r.id,
    fromRoomId: r.roomId ?? roomId,
    toRoomId: roomId,
    reason: reason ?? null,
  });
  return events;
}

/** The stay's room history, newest first, cursor-paginated like every list. */
export async function listRoomMoves({ db, tenant, id, page }: Ctx & { id: string; page: PageRequest }) {
  const r = await loadReservation(db, tenant, id);
  return listOwned(db, roomMoves, tenant, page, eq(roomMoves.reservationId, r.reservation.id));
}

/**
 * Why a late check-out cannot be granted to this stay today, or null when it can: a guest in
 * house, on the departure day, once per stay. The action enforces it and the reservation page
 * offers the button by it.
 */
export function lateCheckOutRefusal(r: Pick<typeof reservations.$inferSelect, "status" | "checkOut" | "lateCheckOutAt">, today: string): string | null {
  if (r.status !== "checked_in") return "Only a guest in house can be granted a late check-out.";
  if (today !== r.checkOut) return `A late check-out is granted on the departure day (${r.checkOut}); today is ${today} at the property.`;
  if (r.lateCheckOutAt) return "A late check-out was already granted for this stay.";
  return null;
}

/**
 * A late check-out granted on the departure day: the rate plan's late check-out fee, on the
 * stay's last night, posted once as its own folio line. Writes `reservation.updated`.
 */
export async function grantLateCheckOut({ db, tenant, actor, id, until }: ChangeCtx & { id: string; until?: string }) {
  return inTransaction(db, async (tx) => {
    const current = await inHouse(tx, tenant, id);
    const r = current.reservation;
    const [[property], [plan]] = await Promise.all([
      tx.select().from(properties).where(eq(properties.id, r.propertyId)),
      tx.select().from(ratePlans).where(eq(ratePlans.id, r.ratePlanId)),
    ]);
    const refusal = lateCheckOutRefusal(r, businessToday(property));
    if (refusal) throw new ApiError("invalid_state_transition", refusal);
    // "HH:MM" strings of one form compare as times.
    if (until !== undefined && until <= property.checkOutTime) {
      throw new ApiError("parameter_invalid", `A late check-out runs past the hotel's check-out time (${property.checkOutTime}): give a later hour than that.`, { param: "until" });
    }
    const fee = { amount: feeAmount(plan.lateCheckOutFee, r.nightly.slice(-1)), currency: r.currency };
    await postFee(tx, tenant, r, "late_check_out_fee", fee.amount, `departure ${r.checkOut}`, r.checkOut);
    const now = new Date();
    const [reservation] = await tx.update(reservations).set({ lateCheckOutAt: now, lateCheckOutUntil: until ?? null, updatedAt: now }).where(eq(reservations.id, r.id)).returning();
    const result = { reservation, guest: current.guest };
    const after = presentReservation(result);
    await recordChange(tx, { tenant, actor }, [{ type: "reservation.updated", propertyId: r.propertyId, object: after }], {
      action: "reservation.late_check_out_granted",
      objectType: "reservation",
      objectId: r.id,
      before: presentReservation(current),
      after: { ...after, charge: { description: "Late check-out fee", amount: fee } },
    });
    return result;
  });
}
