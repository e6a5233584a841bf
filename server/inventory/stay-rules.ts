import { daysBetween, type IsoDate } from "@/lib/dates";
import { ApiError, type ParamLocation } from "@/server/errors";

export const maxNights = 30;

/**
 * The date checks of contract §6, in its order: check_out after check_in, check_in not before
 * the property's today, at most 30 nights. Shared by availability (query) and reservations (body).
 */
export function assertStayDates(checkIn: IsoDate, checkOut: IsoDate, today: IsoDate, location: ParamLocation): number {
  const nights = daysBetween(checkIn, checkOut);
  if (nights <= 0) throw new ApiError("parameter_invalid", "The departure date (check_out) must be after the arrival date (check_in).", { param: "check_out", location });
  if (checkIn < today) {
    throw new ApiError("parameter_invalid", `The arrival date (check_in) cannot be before today, ${today} at the property (its business date).`, { param: "check_in", location });
  }
  if (nights > maxNights) throw new ApiError("parameter_invalid", `A stay is at most ${maxNights} nights.`, { param: "check_out", location });
  return nights;
}
