import { z } from "@hono/zod-openapi";
import { paymentStatuses } from "@/db/schema";
import { paymentSchema, refundSchema } from "@/server/folios/payment-schemas";

export { paymentSchema, refundSchema };

const cardFields = ["number", "exp_month", "exp_year", "cvc"] as const;

/**
 * A card: a processor's payment method (`pm_…`, collected by Stripe in the browser: the only form
 * live mode takes), or, in the sandbox, a test card's number, expiry and security code.
 */
const cardInput = z
  .strictObject({
    type: z.literal("card"),
    processor_payment_method: z
      .string()
      .regex(/^pm_[A-Za-z0-9_]{1,250}$/, "Expected a Stripe payment method id (pm_…).")
      .optional()
      .openapi({ description: "The card as the property's processor holds it (Stripe's `pm_…`, from Stripe.js). Live mode takes only this; send it instead of number, exp_month, exp_year and cvc." }),
    number: z.string().regex(/^\d{12,19}$/, "Expected 12 to 19 digits.").optional().openapi({ description: "Sandbox only: a test card's number (contract §6). Refused in live mode." }),
    exp_month: z.number().int().min(1).max(12).optional(),
    exp_year: z.number().int().min(2000).max(2100).optional(),
    cvc: z.string().regex(/^\d{3,4}$/, "Expected 3 or 4 digits.").optional(),
  })
  .superRefine((card, ctx) => {
    if (card.processor_payment_method !== undefined) {
      const raw = cardFields.find((field) => card[field] !== undefined);
      if (raw) ctx.addIssue({ code: "custom", path: [raw], message: "Send either processor_payment_method or the card's number, exp_month, exp_year and cvc, not both" });
      return;
    }
    for (const field of cardFields) if (card[field] === undefined) ctx.addIssue({ code: "custom", path: [field], message: "Required" });
  });

export const paymentMethodInput = z
  .discriminatedUnion("type", [
    cardInput,
    z.strictObject({ type: z.literal("card_on_file") }).openapi({
      description: "The stay's card on file (its `guarantee`), charged through the property's Stripe account without the guest present: a pre-authorisation at check-in, a fee. A bank that asks for the guest's authentication declines it (402).",
    }),
    z.strictObject({ type: z.literal("cash") }),
    z.strictObject({ type: z.literal("bank_transfer"), reference: z.string().trim().min(1).max(100).optional() }),
  ])
  .openapi("PaymentMethodInput", { example: { type: "card", number: "4242424242424242", exp_month: 12, exp_year: 2030, cvc: "123" } });

export const paymentCreateSchema = z
  .strictObject({
    reservation_id: z.string().min(1),
    amount: z.number().int().min(1).max(100_000_000).optional().openapi({ description: "Minor units; defaults to the folio balance." }),
    payment_method: paymentMethodInput,
    capture: z.boolean().default(true).openapi({ description: "false authorizes a card only; capture or void it later." }),
  })
  .openapi("PaymentCreate", {
    example: { reservation_id: "res_1a2B3c4D5e6F7g8H9i0J1k2L", payment_method: { type: "card", number: "4242424242424242", exp_month: 12, exp_year: 2030, cvc: "123" } },
  });

export const paymentListQuery = z.strictObject({ reservation_id: z.string().optional(), status: z.enum(paymentStatuses).optional() });

export const refundCreateSchema = z
  .strictObject({
    payment_id: z.string().min(1),
    amount: z.number().int().min(1).max(100_000_000).optional().openapi({ description: "Minor units; defaults to everything still refundable." }),
    reason: z.string().trim().min(1).max(500).optional(),
  })
  .openapi("RefundCreate");

export const refundListQuery = z.strictObject({ payment_id: z.string().optional() });

export type PaymentCreate = z.output<typeof paymentCreateSchema>;
export type RefundCreate = z.output<typeof refundCreateSchema>;

export const holdRaiseSchema = z
  .strictObject({
    amount: z.number().int().min(1).max(100_000_000).openapi({ description: "The new total to hold, in minor units of the payment's currency: more than held now." }),
  })
  .openapi("HoldRaise");
