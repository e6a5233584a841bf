import { eq } from "drizzle-orm";
import type { Tx } from "@/db/client";
import { properties, ratePlans, reservations, rooms, type ReservationStatus } from "@/db/schema";
import { addDays, daysBetween, todayIn } from "@/server/dates";
import { ApiError } from "@/server/errors";
import { emitEvents } from "@/server/events/emit";
import { closeFolio, folioBalance, removeRoomNights } from "@/server/folios/folios";
import { presentInventoryRange } from "@/server/inventory/events";
import { releaseNights } from "@/server/inventory/nights";
import { presentRoom } from "@/server/rooms/present";
import { findOwned, type Ctx } from "@/server/tenancy";
import { inTransaction } from "@/server/transactions";
import { presentReservation, type ReservationWithGuest } from "./present";
import { readyRoomOrder, readyRoomWhere, readyStatuses } from "./ready-rooms";
import { loadReservation } from "./reservations";

/** The reservation state machine (contract §6); anything else is 409 invalid_state_transition. */
export const transitions: Record<ReservationStatus, ReservationStatus[]> = {
  confirmed: ["checked_in", "cancelled", "no_show"],
  checked_in: ["checked_out"],
  checked_out: [],
  cancelled: [],
  no_show: [],
};

function assertTransition(from: ReservationStatus, to: ReservationStatus) {
  if (!transitions[from].includes(to)) {
    throw new ApiError("invalid_state_transition", `A ${from.replace("_", "-")} reservation cannot become ${to.replace("_", "-")}.`);
  }
}

type Action = (tx: Tx, current: ReservationWithGuest, today: string, property: typeof properties.$inferSelect) => Promise<{ changes: Partial<typeof reservations.$inferInsert>; events: Parameters<typeof emitEvents>[2] }>;

/** Locks the reservation, checks the transition, applies it and its events in one transaction. */
function transition(to: ReservationStatus, action: Action) {
  return async ({ db, tenant, id }: Ctx & { id: string }) =>
    inTransaction(db, async (tx) => {
      const current = await loadReservation(tx, tenant, id, true);
      assertTransition(current.reservation.status, to);
      const [property] = await tx.select().from(properties).where(eq(properties.id, current.reservation.propertyId));
      const { changes, events } = await action(tx, current, todayIn(property.timezone), property);
      const [reservation] = await tx
        .update(reservations)
        .set({ ...changes, status: to, updatedAt: new Date() })
        .where(eq(reservations.id, current.reservation.id))
        .returning();
      const result = { reservation, guest: current.guest };
      const type = `reservation.${to === "no_show" ? "updated" : to}` as "reservation.updated";
      await emitEvents(tx, tenant, [{ type, propertyId: reservation.propertyId, object: presentReservation(result) }, ...events]);
      return result;
    });
}

const inventoryEvent = (r: typeof reservations.$inferSelect, from: string) => ({
  type: "inventory.updated" as const,
  propertyId: r.propertyId,
  object: presentInventoryRange({ propertyId: r.propertyId, roomTypeId: r.roomTypeId, from, to: r.checkOut }),
});

/** Hours from now until the start of the check-in day at the property. */
export function hoursUntilArrival(checkIn: string, timezone: string, now = new Date()) {
  const local = new Intl.DateTimeFormat("sv-SE", { timeZone: timezone, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" })
    .format(now)
    .replace(" ", "T");
  return (Date.parse(`${checkIn}T00:00:00Z`) - Date.parse(`${local}Z`)) / 3_600_000;
}

/** Whether cancelling now drops the room charges: a refundable plan, before its deadline. */
export function cancellationIsFree(plan: { refundable: boolean; cancellationDeadlineHours: number }, checkIn: string, timezone: string, now = new Date()) {
  return plan.refundable && hoursUntilArrival(checkIn, timezone, now) >= plan.cancellationDeadlineHours;
}

/** Check-in is possible on the arrival date only (the property's today). */
export const checkInOpen = (checkIn: string, today: string) => today === checkIn;
/** A no-show can be recorded once the arrival date has passed. */
export const noShowOpen = (checkIn: string, today: string) => today > checkIn;

/**
 * Cancels a confirmed reservation and gives its nights back. Room charges are dropped when the
 * plan is refundable and the cancellation deadline has not passed; otherwise they stay on the
 * folio as the cancellation charge.
 */
export const cancelReservation = (args: Ctx & { id: string; reason?: string }) =>
  transition("cancelled", async (tx, { reservation: r }, _today, property) => {
    const [plan] = await tx.select().from(ratePlans).where(eq(ratePlans.id, r.ratePlanId));
    const free = cancellationIsFree(plan, r.checkIn, property.timezone);
    if (free) await removeRoomNights(tx, r.folioId);
    await releaseNights(tx, r.roomTypeId, r.checkIn, r.checkOut);
    if ((await folioBalance(tx, r.folioId)) === 0) await closeFolio(tx, r.folioId);
    return {
      changes: { cancelledAt: new Date(), cancellationReason: args.reason ?? null },
      events: [inventoryEvent(r, r.checkIn)],
    };
  })(args);

/**
 * Checks the guest in on the arrival date and puts them in a room: the one asked for, or a
 * clean or inspected free room of the type (inspected first). The room becomes occupied.
 */
export const checkInReservation = (args: Ctx & { id: string; roomId?: string }) =>
  transition("checked_in", async (tx, { reservation: r }, today) => {
    if (!checkInOpen(r.checkIn, today)) {
      throw new ApiError("invalid_state_transition", `Check-in is possible only on the arrival date (${r.checkIn}); today is ${today} at the property.`);
    }
    let room;
    if (args.roomId) {
      room = await findOwned(tx, rooms, args.tenant, args.roomId, "room", { param: "room_id", forUpdate: true });
      if (room.roomTypeId !== r.roomTypeId) throw new ApiError("parameter_invalid", "The room is of another room type.", { param: "room_id" });
      if (room.occupied || !(readyStatuses as readonly string[]).includes(room.housekeepingStatus)) {
        throw new ApiError("parameter_invalid", `Room ${room.number} is not ready (${room.occupied ? "occupied" : room.housekeepingStatus}).`, { param: "room_id" });
      }
    } else {
      [room] = await tx
        .select()
        .from(rooms)
        .where(readyRoomWhere(r.roomTypeId))
        .orderBy(...readyRoomOrder)
        .limit(1)
        .for("update", { skipLocked: true });
      if (!room) throw new ApiError("no_availability", "No clean or inspected room of this type is free; mark one clean or pass room_id.");
    }
    await tx.update(rooms).set({ occupied: true, updatedAt: new Date() }).where(eq(rooms.id, room.id));
    return { changes: { roomId: room.id, checkedInAt: new Date() }, events: [] };
  })(args);

/**
 * Checks the guest out: the folio must be settled, it closes, the room is vacated and dirty,
 * and nights not used (an early departure) go back on sale.
 */
export const checkOutReservation = (args: Ctx & { id: string }) =>
  transition("checked_out", async (tx, { reservation: r }, today) => {
    const balance = await folioBalance(tx, r.folioId);
    if (balance !== 0) {
      throw new ApiError("balance_outstanding", `The folio has an outstanding balance of ${balance} (minor units); settle it before check-out.`, {
        amount: { amount: balance, currency: r.currency },
      });
    }
    await closeFolio(tx, r.folioId);
    const events: Parameters<typeof emitEvents>[2] = [];
    if (r.roomId) {
      const [before] = await tx.select().from(rooms).where(eq(rooms.id, r.roomId)).for("update");
      const [after] = await tx
        .update(rooms)
        .set({ occupied: false, housekeepingStatus: before.housekeepingStatus === "out-of-order" ? "out-of-order" : "dirty", updatedAt: new Date() })
        .where(eq(rooms.id, r.roomId))
        .returning();
      if (after.housekeepingStatus !== before.housekeepingStatus) {
        events.push({ type: "housekeeping.status_changed", propertyId: r.propertyId, object: { ...presentRoom(after), previous_status: before.housekeepingStatus } });
      }
    }
    // Unused nights go back on sale. The arrival night stays sold when the guest leaves on the
    // arrival day, but the nights after it must still be released: guarding the whole release
    // on `today > checkIn` kept a multi-night stay left on its first day sold to the end.
    const firstUnused = today > r.checkIn ? today : addDays(r.checkIn, 1);
    if (daysBetween(firstUnused, r.checkOut) > 0) {
      await releaseNights(tx, r.roomTypeId, firstUnused, r.checkOut);
      events.push(inventoryEvent(r, firstUnused));
    }
    return { changes: { checkedOutAt: new Date() }, events };
  })(args);

/** Marks a guest who never arrived, once the arrival date has passed; the nights go back on sale. */
export const noShowReservation = (args: Ctx & { id: string }) =>
  transition("no_show", async (tx, { reservation: r }, today) => {
    if (!noShowOpen(r.checkIn, today)) {
      throw new ApiError("invalid_state_transition", `A no-show can be recorded only after the arrival date (${r.checkIn}).`);
    }
    await releaseNights(tx, r.roomTypeId, r.checkIn, r.checkOut);
    return { changes: {}, events: [inventoryEvent(r, r.checkIn)] };
  })(args);
