import { sql } from "drizzle-orm";
import { boolean, date, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { tenantColumns, timestamps, ts } from "./columns";

export const mealPlans = ["room_only", "breakfast", "half_board", "full_board", "all_inclusive"] as const;
export type MealPlan = (typeof mealPlans)[number];

/** A fee of a rate plan (server/rates/fees.ts): a fixed amount, a number of nights or a percentage. */
export type PlanFee = { type: "fixed"; amount: number } | { type: "nights"; nights: number } | { type: "percent"; percent: number };

export const ratePlans = pgTable(
  "rate_plans",
  {
    id: text("id").primaryKey(),
    ...tenantColumns(),
    propertyId: text("property_id").notNull(),
    code: text("code").notNull(),
    name: text("name").notNull(),
    roomTypeIds: text("room_type_ids").array().notNull(),
    refundable: boolean("refundable").notNull(),
    cancellationDeadlineHours: integer("cancellation_deadline_hours").notNull().default(24),
    active: boolean("active").notNull().default(true),
    mealPlan: text("meal_plan", { enum: mealPlans }).notNull().default("room_only"),
    /** A derived plan's parent: its daily rates are the parent's, adjusted, and follow them. */
    parentRatePlanId: text("parent_rate_plan_id"),
    /** The adjustment in hundredths of a percent (-1000 = -10 %); or `adjustmentAmount` in minor units. */
    adjustmentPercentBp: integer("adjustment_percent_bp"),
    adjustmentAmount: integer("adjustment_amount"),
    earlyDepartureFee: jsonb("early_departure_fee").$type<PlanFee>(),
    noShowFee: jsonb("no_show_fee").$type<PlanFee>(),
    lateCheckOutFee: jsonb("late_check_out_fee").$type<PlanFee>(),
    /** Taken at booking from the stay's card on file, on the nights booked (null: none). */
    deposit: jsonb("deposit").$type<PlanFee>(),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("rate_plans_code_key").on(t.propertyId, t.code),
    index("rate_plans_list_idx").on(t.accountId, t.livemode, t.createdAt, t.id),
    index("rate_plans_parent_idx").on(t.parentRatePlanId).where(sql`${t.parentRatePlanId} is not null`),
  ],
);

/** One price and its restrictions per rate plan, room type and night. */
export const dailyRates = pgTable(
  "daily_rates",
  {
    ratePlanId: text("rate_plan_id").notNull(),
    roomTypeId: text("room_type_id").notNull(),
    date: date("date").notNull(),
    ...tenantColumns(),
    propertyId: text("property_id").notNull(),
    amount: integer("amount").notNull(),
    minStay: integer("min_stay").notNull().default(1),
    closedToArrival: boolean("closed_to_arrival").notNull().default(false),
    closedToDeparture: boolean("closed_to_departure").notNull().default(false),
    stopSell: boolean("stop_sell").notNull().default(false),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.ratePlanId, t.roomTypeId, t.date] })],
);
