import { z } from "@hono/zod-openapi";
import { paymentStatuses } from "@/db/schema";
import { date, idOf, money, timestamp } from "@/server/schemas";

// A payment and a refund as the API presents them: beside the folio's lines on the folio, so they
// sit with folios, below the payments capability that takes and refunds them (which re-exports
// them with its own schemas).
export const paymentSchema = z
  .object({
    id: idOf("pay"),
    object: z.literal("payment"),
    livemode: z.boolean(),
    property_id: idOf("prop"),
    reservation_id: idOf("res"),
    folio_id: idOf("fol"),
    amount: money,
    amount_refunded: money,
    status: z.enum(paymentStatuses),
    captured: z.boolean(),
    payment_method: z.object({
      type: z.enum(["card", "cash", "bank_transfer"]),
      brand: z.string().optional(),
      last4: z.string().optional(),
      exp_month: z.number().int().optional(),
      exp_year: z.number().int().optional(),
      reference: z.string().nullable().optional(),
    }),
    processor: z
      .object({ type: z.enum(["stripe"]), payment_id: z.string().nullable().openapi({ description: "Stripe's PaymentIntent (`pi_…`)." }) })
      .nullable()
      .openapi("ProcessorCharge", { description: "The processor a card went through, with its id of the charge; null for a sandbox test card, cash or a bank transfer." }),
    dispute: z
      .object({
        id: z.string().openapi({ description: "Stripe's dispute (`dp_…`)." }),
        status: z.string().openapi({
          description: "Stripe's status of the dispute: `warning_needs_response`, `warning_under_review`, `warning_closed` (an inquiry: no money moved), `needs_response`, `under_review`, `won`, `lost`.",
          example: "needs_response",
        }),
        reason: z.string().nullable().openapi({ description: "Stripe's reason, e.g. `fraudulent`, `duplicate`, `product_not_received`." }),
        amount: money.openapi({ description: "What the dispute is about; the bank took it back unless it is an inquiry." }),
        reinstates_payment_id: idOf("pay")
          .nullable()
          .openapi({ description: "Set on the payment that gives a won dispute's money back: the disputed payment. Null on the disputed payment itself." }),
      })
      .nullable()
      .openapi("PaymentDispute", {
        description:
          "A dispute (chargeback) the cardholder opened at Stripe. What the bank takes back is a refund with this dispute's `dispute_id`, posted on the business date it is learnt of, so the folio owes it again; a won dispute gives it back as a payment of the day it is won.",
      }),
    next_action: z
      .object({
        type: z.literal("use_stripe_sdk"),
        client_secret: z.string().openapi({ description: "Stripe's PaymentIntent client secret: Stripe.js `handleNextAction({clientSecret})` in the guest's browser completes the authentication." }),
      })
      .nullable()
      .openapi({
        description:
          "While `pending`: the guest's bank asks them to authenticate the card (3-D Secure), which their browser completes with Stripe.js. Stripe's event then makes the payment `succeeded` (or `authorized`, or `failed`), with its event. Null otherwise.",
      }),
    failure_code: z.string().nullable(),
    failure_message: z.string().nullable(),
    captured_at: timestamp.nullable().openapi({ description: "When the money was taken; null until captured (an authorization, a failed charge)." }),
    business_date: date
      .nullable()
      .openapi({ description: "The property's business date the payment was captured on: the day it counts in the revenue report and the night audit's flash (after midnight and before the audit, still the day before). Null until captured." }),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .openapi("Payment");

export const refundSchema = z
  .object({
    id: idOf("re"),
    object: z.literal("refund"),
    livemode: z.boolean(),
    payment_id: idOf("pay"),
    folio_id: idOf("fol"),
    amount: money,
    reason: z.string().nullable(),
    status: z.literal("succeeded"),
    credit_note_id: idOf("cn")
      .nullable()
      .openapi({ description: "The credit note this refund issued: a refund on a closed, invoiced folio of money the guest was charged (beyond any credit balance). Null for a refund that only pays back an overpayment or is made before the folio closes." }),
    business_date: date.openapi({ description: "The property's business date the refund was made on: the day it counts in the revenue report and the flash." }),
    dispute_id: z
      .string()
      .nullable()
      .openapi({ description: "Set when this is the money a cardholder's dispute took back (Stripe's `dp_…`), not a refund the hotel made." }),
    created_at: timestamp,
  })
  .openapi("Refund");
