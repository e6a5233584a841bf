import { eq } from "drizzle-orm";
import { folios, payments, reservations } from "@/db/schema";
import { ApiError } from "@/server/errors";
import { emitEvent } from "@/server/events/emit";
import { folioBalance } from "@/server/folios/folios";
import { newId } from "@/server/ids";
import { keyset, type PageRequest } from "@/server/pagination";
import { findOwned, ownedBy, tenantValues, type Ctx, listOwned } from "@/server/tenancy";
import { inTransaction } from "@/db/transactions";
import { cardBrand, cardExpired, luhnValid, testCards } from "./cards";
import { presentPayment } from "./present";
import type { PaymentCreate } from "./schemas";

type PaymentRow = typeof payments.$inferSelect;
type Decline = { code: "card_declined" | "insufficient_funds" | "expired_card" | "incorrect_cvc"; message: string };

const declineMessages: Record<Decline["code"], string> = {
  card_declined: "The card was declined.",
  insufficient_funds: "The card has insufficient funds.",
  expired_card: "The card has expired.",
  incorrect_cvc: "The card's security code is incorrect.",
};

/** Decides a card charge. Sandbox: the test cards of contract §6; live: needs a processor. */
function decideCard(method: Extract<PaymentCreate["payment_method"], { type: "card" }>, livemode: boolean): Decline | null {
  if (livemode) {
    throw new ApiError(
      "parameter_invalid",
      "Live card payments need a configured payment processor, and none is configured. Use cash or bank_transfer, or the sandbox.",
      {
        param: "payment_method.type",
      },
    );
  }
  if (!luhnValid(method.number)) throw new ApiError("parameter_invalid", "The card number is not valid.", { param: "payment_method.number" });
  const outcome = testCards[method.number];
  if (!outcome) return { code: "card_declined", message: "The sandbox accepts only test card numbers; see the documentation." };
  if (outcome !== "succeeds") return { code: outcome, message: declineMessages[outcome] };
  if (cardExpired(method.exp_month, method.exp_year)) return { code: "expired_card", message: declineMessages.expired_card };
  return null;
}

/**
 * Takes a payment against a reservation's folio; the amount defaults to the balance. A declined
 * card is recorded as a failed payment (with `payment.failed`) before the 402 is answered.
 */
export async function createPayment({ db, tenant, input }: Ctx & { input: PaymentCreate }) {
  const method = input.payment_method;
  if (!input.capture && method.type !== "card") {
    throw new ApiError("parameter_invalid", "Only card payments can be authorized without capture.", { param: "capture" });
  }
  const outcome = await inTransaction(db, async (tx) => {
    const reservation = await findOwned(tx, reservations, tenant, input.reservation_id, "reservation", { param: "reservation_id" });
    const folio = await findOwned(tx, folios, tenant, reservation.folioId, "folio", { forUpdate: true });
    const balance = await folioBalance(tx, folio.id);
    // A closed folio (invoiced) takes only what its invoice left due: the receivable settled, the invoice unchanged.
    if (folio.status !== "open" && balance <= 0) throw new ApiError("invalid_state_transition", "The reservation's folio is closed; it takes no more payments.");
    if (folio.status !== "open" && !input.capture) throw new ApiError("invalid_state_transition", "The reservation's folio is invoiced; it takes only a captured payment of what is due.");
    if (folio.status !== "open" && (input.amount ?? balance) > balance) {
      throw new ApiError("amount_exceeds_balance", `The folio is invoiced; a payment may take at most what is due, ${balance} (minor units).`, {
        param: "amount",
        amount: { amount: balance, currency: folio.currency },
      });
    }
    const amount = input.amount ?? balance;
    if (amount <= 0) throw new ApiError("parameter_missing", "The folio has nothing to pay; send an amount.", { param: "amount" });
    const decline = method.type === "card" ? decideCard(method, tenant.livemode) : null;
    const now = new Date();
    const status = decline ? "failed" : !input.capture ? "authorized" : "succeeded";
    const [payment] = await tx
      .insert(payments)
      .values({
        id: newId("payment"),
        ...tenantValues(tenant),
        propertyId: reservation.propertyId,
        reservationId: reservation.id,
        folioId: folio.id,
        amount,
        currency: folio.currency,
        status,
        methodType: method.type,
        ...(method.type === "card"
          ? { cardBrand: cardBrand(method.number), cardLast4: method.number.slice(-4), cardExpMonth: method.exp_month, cardExpYear: method.exp_year }
          : {}),
        bankReference: method.type === "bank_transfer" ? (method.reference ?? null) : null,
        failureCode: decline?.code ?? null,
        failureMessage: decline?.message ?? null,
        capturedAt: status === "succeeded" ? now : null,
      })
      .returning();
    if (status !== "authorized") {
      await emitEvent(tx, tenant, {
        type: decline ? "payment.failed" : "payment.succeeded",
        propertyId: payment.propertyId,
        object: presentPayment(payment),
      });
    }
    return { payment, decline };
  });
  if (outcome.decline) {
    throw new ApiError(outcome.decline.code, outcome.decline.message, { param: "payment_method", extra: { payment_id: outcome.payment.id } });
  }
  return outcome.payment;
}

async function settleAuthorization({ db, tenant, id }: Ctx & { id: string }, to: "succeeded" | "voided") {
  return inTransaction(db, async (tx) => {
    const payment = await findOwned(tx, payments, tenant, id, "payment", { forUpdate: true });
    if (payment.status !== "authorized") {
      throw new ApiError(
        "invalid_state_transition",
        `Only an authorized payment can be ${to === "succeeded" ? "captured" : "voided"}; this one is ${payment.status}.`,
      );
    }
    const [updated] = await tx
      .update(payments)
      .set({ status: to, capturedAt: to === "succeeded" ? new Date() : null, updatedAt: new Date() })
      .where(eq(payments.id, payment.id))
      .returning();
    if (to === "succeeded")
      await emitEvent(tx, tenant, { type: "payment.succeeded", propertyId: updated.propertyId, object: presentPayment(updated) });
    return updated;
  });
}

export const capturePayment = (ctx: Ctx & { id: string }) => settleAuthorization(ctx, "succeeded");
export const voidPayment = (ctx: Ctx & { id: string }) => settleAuthorization(ctx, "voided");

export const getPayment = ({ db, tenant, id }: Ctx & { id: string }) => findOwned(db, payments, tenant, id, "payment");

export type PaymentFilters = { reservation_id?: string; status?: PaymentRow["status"] };

function paymentFilters(filters: PaymentFilters) {
  return [
    filters.reservation_id ? eq(payments.reservationId, filters.reservation_id) : undefined,
    filters.status ? eq(payments.status, filters.status) : undefined,
  ];
}

export async function listPayments({ db, tenant, filters, page }: Ctx & { filters: PaymentFilters; page: PageRequest }) {
  return listOwned(db, payments, tenant, page, ...paymentFilters(filters));
}

/** Deprecated offset pagination of GET /payments (v1.7), same order as the cursor form. */
export async function listPaymentsByOffset({ db, tenant, filters, limit, offset }: Ctx & { filters: PaymentFilters; limit: number; offset: number }) {
  const q = keyset(payments, { limit, cursor: null });
  const rows = await db
    .select()
    .from(payments)
    .where(ownedBy(payments, tenant, ...paymentFilters(filters)))
    .orderBy(...q.orderBy)
    .limit(limit + 1)
    .offset(offset);
  return { rows: rows.slice(0, limit), hasMore: rows.length > limit };
}
