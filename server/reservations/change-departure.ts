import { eq } from "drizzle-orm";
import { recordChange, type ChangeCtx } from "@/server/audit/audit";
import { properties, reservations } from "@/db/schema";
import { ApiError } from "@/server/errors";
import { businessToday } from "@/server/properties/business-date";
import type { Tx } from "@/db/client";
import type { Ctx, Tenant } from "@/server/tenancy";
import { folioBalance } from "@/server/folios/folios";
import { inTransaction, rolledBack } from "@/db/transactions";
import { presentReservation, reservationPrice } from "./present";
import { loadReservation } from "./reservations";
import { departureOn } from "./transitions";
import { earliestDeparture, moveStayEnd } from "./stay-end";

/**
 * Moves the departure of a stay in house: earlier (the guest leaves early: nights back on sale,
 * their charges removed, the plan's early-departure fee posted) or later (an extension, priced
 * and sold like a booking's nights). The guest stays checked in; check-out is its own step. One
 * transaction: `reservation.updated` and `inventory.updated` with the change, or nothing.
 */
export async function changeDeparture({ db, tenant, actor, id, checkOut }: ChangeCtx & { id: string; checkOut: string }) {
  return inTransaction(db, async (tx) => {
    const { current, moved } = await moveDeparture(tx, tenant, id, checkOut);
    const [reservation] = await tx
      .update(reservations)
      .set({ ...moved.changes, updatedAt: new Date() })
      .where(eq(reservations.id, current.reservation.id))
      .returning();
    const result = { reservation, guest: current.guest };
    const after = presentReservation(result);
    await recordChange(tx, { tenant, actor }, [{ type: "reservation.updated", propertyId: reservation.propertyId, object: after }, ...moved.events], {
      action: "reservation.departure_changed",
      objectType: "reservation",
      objectId: reservation.id,
      before: presentReservation(current),
      after,
    });
    return result;
  });
}

/**
 * What a departure would give a stay in house, without keeping it: on `checkOut`, or (none given)
 * on the day a check-out now would end it. The new end, nights, total and price, the fee posted and the
 * folio's balance after it: what the front desk confirms before an early check-out.
 */
export const previewDeparture = ({ db, tenant, id, checkOut }: Ctx & { id: string; checkOut?: string }) =>
  rolledBack(db, async (tx) => {
    const { current, moved, target } = await moveDeparture(tx, tenant, id, checkOut);
    const r = { ...current.reservation, ...moved.changes };
    return {
      check_out: target,
      nights: r.nightly!.length,
      total: { amount: r.totalAmount!, currency: r.currency! },
      price: reservationPrice({ netAmount: r.netAmount!, taxAmount: r.taxAmount!, taxes: r.taxes!, currency: r.currency! }),
      fee: { amount: moved.fee, currency: r.currency! },
      balance: { amount: await folioBalance(tx, r.folioId!), currency: r.currency! },
    };
  });

/** Checks and applies a new departure inside the caller's transaction; without a date, today's check-out. */
async function moveDeparture(tx: Tx, tenant: Tenant, id: string, checkOut: string | undefined) {
  const current = await loadReservation(tx, tenant, id, true);
  const r = current.reservation;
  if (r.status !== "checked_in") {
    throw new ApiError(
      "invalid_state_transition",
      r.status === "confirmed"
        ? "The guest is not in house yet; change a confirmed stay's dates with PATCH /v1/reservations/{id}."
        : `The departure of a ${r.status.replace("_", "-")} reservation cannot change.`,
    );
  }
  const [property] = await tx.select().from(properties).where(eq(properties.id, r.propertyId));
  const today = businessToday(property);
  if (checkOut === undefined) return { current, moved: await moveStayEnd(tx, tenant, r, departureOn(r, today)), target: departureOn(r, today) };
  const target = checkOut;
  if (checkOut === r.checkOut) throw new ApiError("parameter_invalid", `The stay already ends on ${checkOut}.`, { param: "check_out" });
  const earliest = earliestDeparture(r, today);
  if (checkOut < earliest) {
    throw new ApiError("parameter_invalid", `The stay cannot end before ${earliest} (today at the property, and at least the arrival night).`, {
      param: "check_out",
    });
  }
  const moved = await moveStayEnd(tx, tenant, r, target);
  return { current, moved, target };
}
