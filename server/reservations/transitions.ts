import { eq } from "drizzle-orm";
import type { Tx } from "@/db/client";
import { properties, ratePlans, reservations, rooms, type ReservationStatus } from "@/db/schema";
import { ApiError } from "@/server/errors";
import { emitEvents } from "@/server/events/emit";
import { queueGuestMail } from "@/server/guest-mail/guest-mail";
import { closeFolioIfDone, folioBalance, folioStillShared, removeRoomNights } from "@/server/folios/folios";
import { presentInventoryRange } from "@/server/inventory/events";
import { releaseNights } from "@/server/inventory/nights";
import { businessToday, dayClosed } from "@/server/properties/business-date";
import { feeAmount } from "@/server/rates/fees";
import { presentRoom } from "@/server/rooms/present";
import type { Ctx } from "@/server/tenancy";
import { recordChange, type ChangeCtx } from "@/server/audit/audit";
import { inTransaction } from "@/db/transactions";
import { presentReservation, type ReservationWithGuest } from "./present";
import { takeReadyRoom } from "./ready-rooms";
import { loadReservation } from "./reservations";
import { earliestDeparture, moveStayEnd, postFee } from "./stay-end";
import { issueInvoice } from "@/server/invoices/invoices";
import { invoiceEndedStay } from "./invoice-ended-stay";

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

/** The trail's action for each transition. */
const auditActions: Partial<Record<ReservationStatus, string>> = {
  cancelled: "reservation.cancelled",
  checked_in: "reservation.checked_in",
  checked_out: "reservation.checked_out",
  no_show: "reservation.no_show",
};

/**
 * Locks the reservation, checks the transition, applies it with its events and its trail entry
 * (the reservation as locked, and as written) in one transaction.
 */
function transition(to: ReservationStatus, action: Action) {
  return async ({ db, tenant, actor, id }: ChangeCtx & { id: string }) =>
    inTransaction(db, async (tx) => {
      const current = await loadReservation(tx, tenant, id, true);
      assertTransition(current.reservation.status, to);
      const [property] = await tx.select().from(properties).where(eq(properties.id, current.reservation.propertyId));
      const { changes, events } = await action(tx, current, businessToday(property), property);
      const [reservation] = await tx
        .update(reservations)
        .set({ ...changes, status: to, updatedAt: new Date() })
        .where(eq(reservations.id, current.reservation.id))
        .returning();
      const result = { reservation, guest: current.guest };
      const type = `reservation.${to === "no_show" ? "updated" : to}` as "reservation.updated";
      const after = presentReservation(result);
      await recordChange(tx, { tenant, actor }, [{ type, propertyId: reservation.propertyId, object: after }, ...events], {
        action: auditActions[to]!,
        objectType: "reservation",
        objectId: reservation.id,
        before: presentReservation(current),
        after,
      });
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
/**
 * A no-show can be recorded once the arrival night is over: from its night audit's hour (03:00
 * the next morning by default), or as soon as an audit closed that business day.
 */
export const noShowOpen = (checkIn: string, property: Parameters<typeof dayClosed>[1], now = new Date()) => dayClosed(checkIn, property, now);

/** The departure a check-out made today gives a stay: today (early or late), at least the arrival night. */
export const departureOn = (r: { checkIn: string; checkOut: string }, today: string) => (today < r.checkOut ? earliestDeparture(r, today) : today);

/**
 * Cancels a confirmed reservation and gives its nights back. Room charges are dropped when the
 * plan is refundable and the cancellation deadline has not passed; otherwise they stay on the
 * folio as the cancellation charge.
 */
export const cancelReservation = (args: ChangeCtx & { id: string; reason?: string }) =>
  transition("cancelled", async (tx, { reservation: r }, _today, property) => {
    const [plan] = await tx.select().from(ratePlans).where(eq(ratePlans.id, r.ratePlanId));
    const free = cancellationIsFree(plan, r.checkIn, property.timezone);
    // The inventory nights before the folio lines: removing lines updates the per-day sales rows
    // (db/migrations/0022), which a booking takes after its inventory nights. Taken the other way
    // round, a cancellation and a booking of the same nights deadlocked (the race tests met it).
    await releaseNights(tx, r.roomTypeId, r.checkIn, r.checkOut);
    if (free) await removeRoomNights(tx, r);
    await closeFolioIfDone(tx, r);
    await invoiceEndedStay(tx, args.tenant, r);
    await queueGuestMail(tx, args.tenant, "cancellation", r.id);
    return {
      changes: { cancelledAt: new Date(), cancellationReason: args.reason ?? null },
      events: [inventoryEvent(r, r.checkIn)],
    };
  })(args);

/**
 * Checks the guest in on the arrival date and puts them in a room: the one asked for, or a
 * clean or inspected free room of the type (inspected first). The room becomes occupied.
 */
export const checkInReservation = (args: ChangeCtx & { id: string; roomId?: string }) =>
  transition("checked_in", async (tx, { reservation: r }, today) => {
    if (!checkInOpen(r.checkIn, today)) {
      throw new ApiError("invalid_state_transition", `Check-in is possible only on the arrival date (${r.checkIn}); today is ${today} at the property.`);
    }
    const room = await takeReadyRoom(tx, args.tenant, r.roomTypeId, args.roomId);
    await tx.update(rooms).set({ occupied: true, updatedAt: new Date() }).where(eq(rooms.id, room.id));
    return { changes: { roomId: room.id, checkedInAt: new Date() }, events: [] };
  })(args);

/**
 * Checks the guest out on the day they leave. A stay left early is first shortened to that day
 * (the arrival night at least): unused nights back on sale, their charges off the folio, the
 * plan's early-departure fee posted; a guest who stayed on past the departure date has the extra
 * nights priced and sold as an extension. The folio must then be settled; it closes, and the
 * room is vacated and dirty. If anything is refused, nothing changes.
 */
export const checkOutReservation = (args: ChangeCtx & { id: string }) =>
  transition("checked_out", async (tx, { reservation: r }, today) => {
    const moved = await moveStayEnd(tx, args.tenant, r, departureOn(r, today));
    // A room of a group billed to its master folio leaves without settling: the master is
    // settled, and closed, when its last room checks out.
    const shared = await folioStillShared(tx, r);
    const balance = shared ? 0 : await folioBalance(tx, r.folioId);
    if (balance !== 0) {
      throw new ApiError(
        "balance_outstanding",
        balance > 0
          ? `The folio has an outstanding balance of ${balance} (minor units); settle it before check-out.`
          : `The folio owes the guest ${-balance} (minor units); refund it before check-out.`,
        { amount: { amount: balance, currency: r.currency } },
      );
    }
    // The settled folio closes into its invoice (invoice.created is emitted with it).
    if (!shared) await issueInvoice(tx, args.tenant, r.folioId);
    const events = [...moved.events, ...(r.roomId ? await vacateRoom(tx, r.roomId, r.propertyId) : [])];
    return { changes: { ...moved.changes, checkedOutAt: new Date() }, events };
  })(args);

/** A room the guest leaves (check-out, a move): vacated and dirty (out of order stays so); its housekeeping event. */
export async function vacateRoom(tx: Tx, roomId: string, propertyId: string): Promise<Parameters<typeof emitEvents>[2]> {
  const [before] = await tx.select().from(rooms).where(eq(rooms.id, roomId)).for("update");
  const [after] = await tx
    .update(rooms)
    .set({ occupied: false, housekeepingStatus: before.housekeepingStatus === "out-of-order" ? "out-of-order" : "dirty", updatedAt: new Date() })
    .where(eq(rooms.id, roomId))
    .returning();
  if (after.housekeepingStatus === before.housekeepingStatus) return [];
  return [{ type: "housekeeping.status_changed", propertyId, object: { ...presentRoom(after), previous_status: before.housekeepingStatus } }];
}

/**
 * Marks a guest who never arrived, once the arrival night is over (its audit hour, or an audit
 * that closed it); the nights go back on sale. The room-night charges leave the folio and the
 * plan's no-show fee is posted in their place: the fee the plan sets, else the whole stay on a
 * non-refundable plan and nothing on a refundable one. A settled folio closes.
 */
export const noShowReservation = (args: ChangeCtx & { id: string; now?: Date }) =>
  transition("no_show", async (tx, { reservation: r }, _today, property) => {
    if (!noShowOpen(r.checkIn, property, args.now)) {
      throw new ApiError("invalid_state_transition", `A no-show can be recorded once the arrival night (${r.checkIn}) is over, from the night audit's hour.`);
    }
    await chargeNoShow(tx, args.tenant, r);
    return { changes: {}, events: [inventoryEvent(r, r.checkIn)] };
  })(args);

/**
 * A no-show's nights given back and its charge in place of its room nights (see
 * noShowReservation; the night audit too); the amount posted. The nights first, as a
 * cancellation does: the same lock order as a booking's.
 */
export async function chargeNoShow(tx: Tx, tenant: Ctx["tenant"], r: typeof reservations.$inferSelect) {
  await releaseNights(tx, r.roomTypeId, r.checkIn, r.checkOut);
  const [plan] = await tx.select().from(ratePlans).where(eq(ratePlans.id, r.ratePlanId));
  const amount = plan.noShowFee ? feeAmount(plan.noShowFee, r.nightly) : plan.refundable ? 0 : r.totalAmount;
  await removeRoomNights(tx, r);
  const posted = await postFee(tx, tenant, r, "no_show_fee", amount, `arrival ${r.checkIn}`, r.checkIn);
  await closeFolioIfDone(tx, r);
  await invoiceEndedStay(tx, tenant, r);
  return posted;
}
