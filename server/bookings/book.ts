import type { ChangeCtx } from "@/server/audit/audit";
import { newId } from "@/server/ids";
import { inTransaction } from "@/db/transactions";
import { assertBookable, bookStay, depositOf, guaranteeOf, stayOf } from "@/server/reservations/create-reservation";
import { checkAndQuote } from "@/server/reservations/reservations";
import type { ReservationCreate } from "@/server/reservations/schemas";
import { holdDeposit, releaseDeposit, takeDeposit, type HeldDeposit } from "@/server/payments/deposits";

/**
 * Books a stay with what its rate plan asks at booking: the card on file saved first (a card the
 * bank refuses books nothing), then, where the plan asks a deposit and the card is chargeable
 * without the guest, the deposit held on it before the booking is written (a deposit refused
 * books nothing; a booking refused afterwards lets the hold go), and taken once the booking has
 * committed. A booking without a card, or with one still waiting on the guest's 3-D Secure, is
 * made with its deposit still to pay (the reservation's `deposit`, no payment on the folio).
 */
export async function createBooking({ db, tenant, actor, input, idempotencyKey }: ChangeCtx & { input: ReservationCreate; idempotencyKey?: string }) {
  await assertBookable(db, tenant, input);
  const guarantee = await guaranteeOf(db, tenant, input, idempotencyKey);
  const reservationId = newId("reservation");
  let held: HeldDeposit | null = null;
  if (guarantee?.status === "active") {
    // The stay's checks and quote, read once more inside the booking: a stay refused by them
    // holds nothing on the card.
    const { property, plan, quote } = await checkAndQuote(db, tenant, stayOf(input));
    const amount = depositOf(plan, quote.nightly);
    if (amount) {
      held = await holdDeposit(db, tenant, { propertyId: property.id, reservationId, amount, currency: property.currency, guarantee, requestKey: idempotencyKey });
    }
  }
  let booked;
  try {
    booked = await inTransaction(db, (tx) => bookStay(tx, { tenant, actor }, input, undefined, guarantee, reservationId));
  } catch (error) {
    if (held) await releaseDeposit(db, tenant, held);
    throw error;
  }
  if (held) await takeDeposit(db, tenant, held);
  return booked;
}
