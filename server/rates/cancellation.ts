import { hoursBeforeDay, type WallClock } from "@/lib/dates";
import { businessClock } from "@/server/properties/business-date";

// A rate plan's cancellation rule, read by the cancellation itself, the desk and the guest's e-mails alike.

type Clocked = Parameters<typeof businessClock>[0];
type Policy = { refundable: boolean; cancellationDeadlineHours: number };

/**
 * Hours from now until the start of the check-in day at the property, on its business clock
 * (`businessClock`): after advance_day or an evening audit the open business day's hour, so a
 * deadline is judged on the hotel's day, never on a calendar that lags behind it.
 */
export function hoursUntilArrival(checkIn: string, property: Clocked, now = new Date()) {
  return (Date.parse(`${checkIn}T00:00:00Z`) - Date.parse(`${businessClock(property, now)}Z`)) / 3_600_000;
}

/** Whether cancelling now drops the room charges: a refundable plan, before its deadline. */
export function cancellationIsFree(plan: Policy, checkIn: string, property: Clocked, now = new Date()) {
  return plan.refundable && hoursUntilArrival(checkIn, property, now) >= plan.cancellationDeadlineHours;
}

/**
 * The stay's cancellation terms as the guest meets them now: free until a wall-clock time at the
 * hotel (the deadline, counted back from the start of the arrival day), or not free (a
 * non-refundable plan, or a deadline already past when this is read).
 */
export function cancellationTerms(plan: Policy, checkIn: string, property: Clocked, now = new Date()): { free: true; until: WallClock } | { free: false; reason: "non_refundable" | "deadline_passed" } {
  if (!plan.refundable) return { free: false, reason: "non_refundable" };
  if (!cancellationIsFree(plan, checkIn, property, now)) return { free: false, reason: "deadline_passed" };
  return { free: true, until: hoursBeforeDay(checkIn, plan.cancellationDeadlineHours) };
}
