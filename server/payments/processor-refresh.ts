import { payments } from "@/db/schema";
import { inTransaction } from "@/db/transactions";
import { processorFor } from "@/server/processors/connections";
import { findOwned, type Ctx } from "@/server/tenancy";
import { noProcessorAnyMore } from "./card-charge";
import { settleCharge } from "./processor-sync";

/**
 * A payment waiting on the guest's 3-D Secure, settled to what Stripe holds now, right after the
 * desk's browser completed the bank's check with Stripe.js: the PaymentIntent is retrieved and
 * applied by the very code that applies Stripe's event for it (`settleCharge`), so the desk does
 * not wait for the webhook, and whichever of the two comes second changes nothing. Any other
 * payment (settled already, or never through a processor) is answered as it is, with no call.
 */
export async function refreshPayment({ db, tenant, id }: Ctx & { id: string }) {
  const payment = await findOwned(db, payments, tenant, id, "payment");
  if (payment.status !== "pending" || !payment.processorPaymentId) return payment;
  const connected = await processorFor(db, tenant, payment.propertyId);
  if (!connected) throw noProcessorAnyMore();
  // Asked of Stripe before the transaction, so no lock waits on it.
  const charge = await connected.processor.findCharge(payment.processorPaymentId);
  return inTransaction(db, async (tx) => {
    await settleCharge(tx, tenant, charge, null);
    return findOwned(tx, payments, tenant, id, "payment");
  });
}
