import { isoTime } from "@/lib/dates";
import type { ratePlans } from "@/db/schema";

export const presentRatePlan = (p: typeof ratePlans.$inferSelect) => ({
  id: p.id,
  object: "rate_plan" as const,
  livemode: p.livemode,
  property_id: p.propertyId,
  code: p.code,
  name: p.name,
  room_type_ids: p.roomTypeIds,
  refundable: p.refundable,
  cancellation_deadline_hours: p.cancellationDeadlineHours,
  meal_plan: p.mealPlan,
  derived_from: p.parentRatePlanId
    ? {
        rate_plan_id: p.parentRatePlanId,
        adjustment_percent: p.adjustmentPercentBp === null ? null : p.adjustmentPercentBp / 100,
        adjustment_amount: p.adjustmentAmount,
      }
    : null,
  active: p.active,
  early_departure_fee: p.earlyDepartureFee,
  no_show_fee: p.noShowFee,
  late_check_out_fee: p.lateCheckOutFee,
  deposit: p.deposit,
  created_at: isoTime(p.createdAt),
  updated_at: isoTime(p.updatedAt),
});
