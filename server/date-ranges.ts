import { daysBetween, type IsoDate } from "@/lib/dates";
import { ApiError, type ParamLocation } from "./errors";

/**
 * The check every `from`/`to` range gets: half-open, `to` after `from`, at most `maxDays` long.
 * Returns the number of days.
 */
export function assertDateRange(from: IsoDate, to: IsoDate, maxDays: number, location: ParamLocation, noun = "range"): number {
  const days = daysBetween(from, to);
  if (days <= 0) throw new ApiError("parameter_invalid", "`to` must be after `from` (ranges are half-open, `to` excluded).", { param: "to", location });
  if (days > maxDays) throw new ApiError("parameter_invalid", `A ${noun} covers at most ${maxDays} days.`, { param: "to", location });
  return days;
}
