import { eq } from "drizzle-orm";
import type { Tx } from "@/db/client";
import { properties, ratePlans, reservations, rooms, type ReservationStatus } from "@/db/schema";
import { ApiError } from "@/server/errors";
import { emitEvents } from "@/server/events/emit";
import { queueGuestMail } from "@/server/guest-mail/guest-mail";
import { closeFolioIfDone, folioBalance, folioStillShared, removeRoomNights } from "@/server/folios/folios";
import { presentInventoryRange } from "@/server/inventory/events";
import { releaseNights } from "@/server/inventory/nights";
import { businessToday, dayClosed, isClosedDay } from "@/server/properties/business-date";
import { cancellationIsFree } from "@/server/rates/cancellation";
import { feeAmount } from "@/server/rates/fees";
import { nightsOf } from "@/lib/dates";
import { amountText, defaultLocale } from "@/lib/money";
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
    const free = cancellationIsFree(plan, r.checkIn, property);
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
export async function checkInReservation(args: ChangeCtx & { id: string; roomId?: string }) {
  try {
    return await transition("checked_in", async (tx, { reservation: r }, today) => {
      if (!checkInOpen(r.checkIn, today)) {
        throw new ApiError("invalid_state_transition", `Check-in is possible only on the arrival date (${r.checkIn}); today is ${today} at the property.`);
      }
      const room = await takeReadyRoom(tx, args.tenant, r.roomTypeId, args.roomId);
      await tx.update(rooms).set({ occupied: true, updatedAt: new Date() }).where(eq(rooms.id, room.id));
      return { changes: { roomId: room.id, checkedInAt: new Date() }, events: [] };
    })(args);
  } catch (error) {
    // No ready room of the type: the hotel's shortfall, kept on the reservation (the refusal
    // itself changed nothing) so the night audit never charges the guest a no-show fee for it.
    if (error instanceof ApiError && error.code === "no_availability") await recordCheckInRefused(args);
    throw error;
  }
}

/** Marks a confirmed arrival of today as turned away for want of a ready room (once; the trail says when). */
async function recordCheckInRefused({ db, tenant, actor, id }: ChangeCtx & { id: string }) {
  await inTransaction(db, async (tx) => {
    const current = await loadReservation(tx, tenant, id, true);
    if (current.reservation.status !== "confirmed" || current.reservation.checkInRefusedAt) return;
    const [reservation] = await tx.update(reservations).set({ checkInRefusedAt: new Date() }).where(eq(reservations.id, current.reservation.id)).returning();
    await recordChange(tx, { tenant, actor }, [], {
      action: "reservation.check_in_refused",
      objectType: "reservation",
      objectId: reservation.id,
      before: presentReservation(current),
      after: presentReservation({ reservation, guest: current.guest }),
    });
  });
}

/**
 * Checks the guest out on the day they leave. A stay left early is first shortened to that day
 * (the arrival night at least): unused nights back on sale, their charges off the folio, the
 * plan's early-departure fee posted; a guest who stayed on past the departure date has the extra
 * nights priced and sold as an extension. The folio must then be settled; it closes, and the
 * room is vacated and dirty. If anything is refused, nothing changes.
 */
export const checkOutReservation = (args: ChangeCtx & { id: string }) =>
  transition("checked_out", async (tx, { reservation: r }, today, property) => {
    // A room of a group billed to its master folio leaves without settling: the master is
    // settled, and closed, when its last room checks out.
    const shared = await folioStillShared(tx, r);
    const before = shared ? 0 : await folioBalance(tx, r.folioId);
    // A guest who stayed on past a departure whose day is already closed (from before the night
    // audit sold such nights) leaves on the booked date: a closed day's nights are not sold again.
    const departure = today > r.checkOut && isClosedDay(property, r.checkOut) ? r.checkOut : departureOn(r, today);
    const moved = await moveStayEnd(tx, args.tenant, r, departure);
    const balance = shared ? 0 : await folioBalance(tx, r.folioId);
    if (balance !== 0) {
      // The refusal rolls the shortening (or the extension) back: it says what check-out today
      // would have done, so the folio as it stands and the refusal tell the same story.
      // The room charges that come off (early) or are added (staying on), taxes included.
      const stayCharges = departure < r.checkOut ? before - balance + moved.fee : balance - before;
      const change = departure === r.checkOut ? null : { r, departure, fee: moved.fee, stayCharges };
      throw new ApiError("balance_outstanding", checkOutRefusal(balance, r.currency, change), { amount: { amount: balance, currency: r.currency } });
    }
    // The settled folio closes into its invoice (invoice.created is emitted with it).
    if (!shared) await issueInvoice(tx, args.tenant, r.folioId);
    const events = [...moved.events, ...(r.roomId ? await vacateRoom(tx, r.roomId, r.propertyId) : [])];
    return { changes: { ...moved.changes, checkedOutAt: new Date() }, events };
  })(args);

/** Money in an API message: "USD 227.00" (the amount field carries the minor units). */
const moneyWords = (amount: number, currency: string) => `${currency} ${amountText({ amount, currency }, defaultLocale, { grouping: true })}`;

/**
 * Why check-out is refused with the folio unsettled, in the words of what check-out today would
 * do: for a stay whose departure moves (leaving early, or staying on), the nights that come off
 * (or are added), their room charges, the early-departure fee, and what the folio would then owe
 * or be owed, with the steps that settle it in an order that keeps the folio true throughout.
 */
function checkOutRefusal(balance: number, currency: string, change: { r: typeof reservations.$inferSelect; departure: string; fee: number; stayCharges: number } | null) {
  const money = (amount: number) => moneyWords(amount, currency);
  const owed = balance < 0 ? `the folio would then owe the guest ${money(-balance)}` : `the guest would then owe ${money(balance)}`;
  if (!change) {
    return balance > 0
      ? `The folio has an outstanding balance of ${money(balance)}; take a payment of ${money(balance)} before check-out.`
      : `The folio owes the guest ${money(-balance)}; refund ${money(-balance)} to the guest's payment before check-out.`;
  }
  const { r, departure, fee, stayCharges } = change;
  const early = departure < r.checkOut;
  const nights = early ? nightsOf(departure, r.checkOut) : nightsOf(r.checkOut, departure);
  const dates = nights.length === 1 ? `the night of ${nights[0]}` : `the nights of ${nights[0]} to ${nights.at(-1)}`;
  const count = `${nights.length} night${nights.length === 1 ? "" : "s"}`;
  const what = early
    ? `${count} (${dates}, ${money(stayCharges)} with taxes) come${nights.length === 1 ? "s" : ""} off the folio${fee > 0 ? ` and the early-departure fee of ${money(fee)} is posted` : ", with no early-departure fee"}`
    : `${count} past the booked departure (${dates}, ${money(stayCharges)} with taxes) ${nights.length === 1 ? "is" : "are"} charged`;
  const settle = balance < 0 ? `refund ${money(-balance)} to the guest's payment` : `take a payment of ${money(balance)}`;
  return (
    `Checking out today ends the stay on ${departure} instead of ${r.checkOut}: ${what}; ${owed}. ` +
    `Change the departure to ${departure} first (POST /v1/reservations/{id}/change_departure), then ${settle}, then check out.`
  );
}

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
    await chargeNoShow(tx, args.tenant, r, property);
    return { changes: {}, events: [inventoryEvent(r, r.checkIn)] };
  })(args);

/**
 * A no-show's nights given back and its charge in place of its room nights (see
 * noShowReservation; the night audit too); the amount posted. The nights first, as a
 * cancellation does: the same lock order as a booking's.
 */
export async function chargeNoShow(tx: Tx, tenant: Ctx["tenant"], r: typeof reservations.$inferSelect, property: Pick<typeof properties.$inferSelect, "businessDate">) {
  await releaseNights(tx, r.roomTypeId, r.checkIn, r.checkOut);
  const [plan] = await tx.select().from(ratePlans).where(eq(ratePlans.id, r.ratePlanId));
  const amount = plan.noShowFee ? feeAmount(plan.noShowFee, r.nightly) : plan.refundable ? 0 : r.totalAmount;
  await removeRoomNights(tx, r);
  // On the arrival night, as the audit that closes it posts it; once that day is closed, on the open business date (nothing posts into a closed day).
  const posted = await postFee(tx, tenant, r, "no_show_fee", amount, `arrival ${r.checkIn}`, isClosedDay(property, r.checkIn) ? null : r.checkIn);
  await closeFolioIfDone(tx, r);
  await invoiceEndedStay(tx, tenant, r);
  return posted;
}

/** A stay the hotel could not give a room: its nights back on sale and its room nights off the folio, no fee (the night audit's cancellation of a guest turned away). */
export async function releaseWithoutCharge(tx: Tx, r: typeof reservations.$inferSelect) {
  await releaseNights(tx, r.roomTypeId, r.checkIn, r.checkOut);
  await removeRoomNights(tx, r);
  await closeFolioIfDone(tx, r);
}
