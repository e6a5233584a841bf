import { eq } from "drizzle-orm";
import { recordChange, type ChangeCtx } from "@/server/audit/audit";
import { guests, reservations } from "@/db/schema";
import { changesFrom } from "@/server/changes";
import { ApiError } from "@/server/errors";
import { queueGuestMail } from "@/server/guest-mail/guest-mail";
import { postRoomNights, priceColumns, removeRoomNights } from "@/server/folios/folios";
import { presentInventoryRange } from "@/server/inventory/events";
import { releaseNights, sellNights } from "@/server/inventory/nights";
import type { Ctx } from "@/server/tenancy";
import { inTransaction, rolledBack } from "@/db/transactions";
import { presentReservation } from "./present";
import { checkAndQuote, loadReservation } from "./reservations";
import type { ReservationUpdate } from "./schemas";

/**
 * Modifies a confirmed reservation. A change of dates, room type, rate plan or party is
 * re-checked and re-quoted as a new booking would be, with the old nights released and the new
 * ones sold in one transaction: if the new stay cannot be sold, nothing changes.
 */
export async function updateReservation({ db, tenant, actor, id, input }: ChangeCtx & { id: string; input: ReservationUpdate }) {
  return inTransaction(db, async (tx) => {
    const { reservation: r, guest } = await loadReservation(tx, tenant, id, true);
    if (r.status !== "confirmed") {
      throw new ApiError("invalid_state_transition", `Only a confirmed reservation can be modified; this one is ${r.status}.`);
    }
    const stay = {
      propertyId: r.propertyId,
      roomTypeId: input.room_type_id ?? r.roomTypeId,
      ratePlanId: input.rate_plan_id ?? r.ratePlanId,
      checkIn: input.check_in ?? r.checkIn,
      checkOut: input.check_out ?? r.checkOut,
      adults: input.adults ?? r.adults,
      children: input.children ?? r.children,
    };
    const restay =
      stay.roomTypeId !== r.roomTypeId || stay.ratePlanId !== r.ratePlanId || stay.checkIn !== r.checkIn || stay.checkOut !== r.checkOut ||
      stay.adults !== r.adults || stay.children !== r.children;
    const changes: Partial<typeof reservations.$inferInsert> = { updatedAt: new Date() };
    const ranges = [];
    if (restay) {
      const { roomType, plan, quote } = await checkAndQuote(tx, tenant, stay);
      const nightsMoved = stay.roomTypeId !== r.roomTypeId || stay.checkIn !== r.checkIn || stay.checkOut !== r.checkOut;
      if (nightsMoved) {
        await releaseNights(tx, r.roomTypeId, r.checkIn, r.checkOut);
        await sellNights(tx, stay.roomTypeId, stay.checkIn, stay.checkOut);
        // One inventory.updated per change of availability (contract §6): within one room type
        // a single range spans the old and the new nights; a change of type touches two types.
        if (stay.roomTypeId === r.roomTypeId) {
          const from = stay.checkIn < r.checkIn ? stay.checkIn : r.checkIn;
          const to = stay.checkOut > r.checkOut ? stay.checkOut : r.checkOut;
          ranges.push({ propertyId: r.propertyId, roomTypeId: r.roomTypeId, from, to });
        } else {
          ranges.push({ propertyId: r.propertyId, roomTypeId: r.roomTypeId, from: r.checkIn, to: r.checkOut });
          ranges.push({ propertyId: r.propertyId, roomTypeId: stay.roomTypeId, from: stay.checkIn, to: stay.checkOut });
        }
      }
      await removeRoomNights(tx, r);
      const price = await postRoomNights(tx, tenant, { ...r, adults: stay.adults, children: stay.children }, quote.nightly, `${roomType.name}, ${plan.name}`);
      Object.assign(changes, {
        roomTypeId: stay.roomTypeId,
        ratePlanId: stay.ratePlanId,
        checkIn: stay.checkIn,
        checkOut: stay.checkOut,
        adults: stay.adults,
        children: stay.children,
        totalAmount: quote.total,
        ...priceColumns(price),
        nightly: quote.nightly,
      });
    }
    const written = changesFrom(r, { notes: input.notes, metadata: input.metadata });
    Object.assign(changes, written);
    const names = changesFrom(guest, { firstName: input.guest?.first_name || undefined, lastName: input.guest?.last_name || undefined });
    // Nothing sent differs from what is there: no write, no updated_at, no event.
    if (!restay && !written && !names) return { reservation: r, guest };
    let updatedGuest = guest;
    if (names) {
      [updatedGuest] = await tx
        .update(guests)
        .set({ ...names, updatedAt: new Date() })
        .where(eq(guests.id, guest.id))
        .returning();
    }
    const [updated] = await tx.update(reservations).set(changes).where(eq(reservations.id, r.id)).returning();
    const result = { reservation: updated, guest: updatedGuest };
    const after = presentReservation(result);
    await recordChange(
      tx,
      { tenant, actor },
      [
        { type: "reservation.updated", propertyId: r.propertyId, object: after },
        ...ranges.map((range) => ({ type: "inventory.updated" as const, propertyId: r.propertyId, object: presentInventoryRange(range) })),
      ],
      { action: "reservation.updated", objectType: "reservation", objectId: r.id, before: presentReservation({ reservation: r, guest }), after },
    );
    // The guest hears of a change to their stay (dates, room, rate, party), not of staff notes.
    if (restay) await queueGuestMail(tx, tenant, "modification", r.id);
    return result;
  });
}

/**
 * What a modification would give (the new stay, re-quoted) without keeping it: the real update,
 * run in a transaction that is then rolled back, so the preview applies every rule the update
 * does and refuses exactly what it would refuse.
 */
export const previewReservationUpdate = ({ db, tenant, id, input }: Ctx & { id: string; input: ReservationUpdate }) =>
  rolledBack(db, (tx) => updateReservation({ db: tx, tenant, actor: null, id, input }));
