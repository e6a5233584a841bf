import { z } from "@hono/zod-openapi";
import { mealPlans } from "@/db/schema";
import { weekdays } from "@/lib/dates";
import { date, idOf, timestamp } from "@/server/schemas";
import { planFeeSchema } from "./fees";

const derivationSchema = z
  .object({
    rate_plan_id: idOf("rp").openapi({ description: "The parent plan whose daily rates this plan follows." }),
    adjustment_percent: z
      .number()
      .nullable()
      .openapi({ description: "Percent added to each of the parent's nightly amounts (-10: ten percent below), or null.", example: -10 }),
    adjustment_amount: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "Minor units added to each of the parent's nightly amounts (-1500: 15.00 below), or null." }),
  })
  .openapi("RatePlanDerivation", {
    description:
      "A derived plan's daily rates are its parent's, night by night, with the amount adjusted (rounded half up to a whole minor unit, never below 0) and the parent's restrictions; they change whenever the parent's do, and cannot be set directly.",
  });

/** Percent with at most two decimals, from -100 (free) to +1000. */
const percent = z
  .number()
  .min(-100)
  .max(1000)
  .refine((p) => Math.abs(p * 100 - Math.round(p * 100)) < 1e-6, "At most two decimals.");

const derivationInputSchema = z
  .strictObject({
    rate_plan_id: z.string().min(1),
    adjustment_percent: percent.optional(),
    adjustment_amount: z.number().int().min(-100_000_000).max(100_000_000).optional(),
  })
  .openapi("RatePlanDerivationInput", { description: "Exactly one of `adjustment_percent` and `adjustment_amount`." });

const ratePlanFee = planFeeSchema
  .nullable()
  .openapi("RatePlanFee", {
    description: "A fee of the rate plan: a fixed amount, a number of nights or a percentage; null: none (see the plan's description).",
  });

export const ratePlanSchema = z
  .object({
    id: idOf("rp"),
    object: z.literal("rate_plan"),
    livemode: z.boolean(),
    property_id: idOf("prop"),
    code: z.string(),
    name: z.string(),
    room_type_ids: z.array(z.string()),
    refundable: z.boolean(),
    cancellation_deadline_hours: z.number().int(),
    meal_plan: z.enum(mealPlans),
    derived_from: derivationSchema.nullable(),
    active: z.boolean(),
    // One shared nullable fee schema, described on the object: a per-field description would wrap
    // each in allOf, which some generators (datamodel-code-generator) then read as never null.
    early_departure_fee: ratePlanFee,
    no_show_fee: ratePlanFee,
    late_check_out_fee: ratePlanFee,
    deposit: ratePlanFee,
    created_at: timestamp,
    updated_at: timestamp,
  })
  .openapi("RatePlan", {
    description:
      "A rate plan. Its fees: `early_departure_fee`, charged when a guest leaves before the booked departure, on the nights given back (null: none); " +
      "`no_show_fee`, charged for a no-show on the nights booked, in place of them (null: the whole stay on a non-refundable plan, nothing on a refundable one); " +
      "`late_check_out_fee`, charged for a late check-out on the departure day, on the stay's last night (null: none). " +
      "`deposit`, taken at booking from the card on file given with it (`guarantee`), on the nights booked; a booking without a card is made with its deposit due (null: none).",
  });

const code = z
  .string()
  .trim()
  .min(1)
  .max(20)
  .regex(/^[A-Za-z0-9_-]+$/, "Letters, digits, '-' and '_' only.");

export const ratePlanCreateSchema = z
  .strictObject({
    property_id: z.string().min(1),
    code,
    name: z.string().trim().min(1).max(100),
    room_type_ids: z
      .array(z.string().min(1))
      .min(1)
      .max(100)
      .optional()
      .openapi({ description: "Required, except for a derived plan, which defaults to its parent's room types." }),
    refundable: z.boolean().default(true),
    cancellation_deadline_hours: z.number().int().min(0).max(8760).default(24),
    meal_plan: z.enum(mealPlans).default("room_only"),
    derived_from: derivationInputSchema.optional(),
    active: z.boolean().default(true),
    early_departure_fee: planFeeSchema.nullable().default(null),
    no_show_fee: planFeeSchema.nullable().default(null),
    late_check_out_fee: planFeeSchema.nullable().default(null),
    deposit: planFeeSchema.nullable().default(null),
  })
  .openapi("RatePlanCreate");

export const ratePlanUpdateSchema = z
  .strictObject({
    code: code.optional(),
    name: z.string().trim().min(1).max(100).optional(),
    room_type_ids: z.array(z.string().min(1)).min(1).max(100).optional(),
    refundable: z.boolean().optional(),
    cancellation_deadline_hours: z.number().int().min(0).max(8760).optional(),
    meal_plan: z.enum(mealPlans).optional(),
    derived_from: derivationInputSchema
      .nullable()
      .optional()
      .openapi({ description: "null: the plan stops following its parent and keeps its current rates as its own." }),
    active: z.boolean().optional(),
    early_departure_fee: planFeeSchema.nullable().optional().openapi({ description: "null removes the fee." }),
    no_show_fee: planFeeSchema.nullable().optional().openapi({ description: "null removes the fee." }),
    late_check_out_fee: planFeeSchema.nullable().optional().openapi({ description: "null removes the fee." }),
    deposit: planFeeSchema.nullable().optional().openapi({ description: "null: no deposit at booking. Stays already booked keep what they were asked." }),
  })
  .openapi("RatePlanUpdate");

export const ratePlanListQuery = z.strictObject({ property_id: z.string().optional(), active: z.enum(["true", "false"]).optional() });

const dailyRateSchema = z
  .object({
    date,
    room_type_id: idOf("rt"),
    amount: z.number().int().nullable().openapi({ description: "Minor units; null when no rate is loaded for the night (not bookable)." }),
    currency: z.string(),
    min_stay: z.number().int(),
    closed_to_arrival: z.boolean(),
    closed_to_departure: z.boolean(),
    stop_sell: z.boolean(),
  })
  .openapi("DailyRate");

export const rateCalendarSchema = z
  .object({
    object: z.literal("rate_calendar"),
    livemode: z.boolean(),
    rate_plan_id: idOf("rp"),
    from: date,
    to: date,
    data: z.array(dailyRateSchema),
  })
  .openapi("RateCalendar");

export const rateCalendarQuery = z.strictObject({ room_type_id: z.string().optional(), from: date, to: date });

export const rateRangeSetSchema = z
  .strictObject({
    room_type_id: z.string().min(1),
    from: date,
    to: date.openapi({ description: "Exclusive." }),
    amount: z.number().int().min(0).max(100_000_000).optional(),
    min_stay: z.number().int().min(1).max(365).optional(),
    closed_to_arrival: z.boolean().optional(),
    closed_to_departure: z.boolean().optional(),
    stop_sell: z.boolean().optional(),
    days_of_week: z.array(z.enum(weekdays)).min(1).max(7).optional().openapi({ description: "Only these weekdays of the range; all when absent." }),
  })
  .openapi("RateRangeSet");

export type RatePlanCreate = z.output<typeof ratePlanCreateSchema>;
export type RatePlanUpdate = z.output<typeof ratePlanUpdateSchema>;
export type RateRangeSet = z.output<typeof rateRangeSetSchema>;
export type DerivationInput = z.output<typeof derivationInputSchema>;
