import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/routers/_app";

type Calendar = inferRouterOutputs<AppRouter>["inventory"]["calendar"];
type PlanNight = Calendar["data"][number]["rates"][number];

/**
 * A night's rate restrictions in a few marks for the cell and in words for its accessible name:
 * `closed` when every rate plan of the room type has stopped selling that night.
 */
export function restrictionSummary(rates: PlanNight[], codeOf: (planId: string) => string) {
  const codes = (list: PlanNight[]) => list.map((r) => codeOf(r.rate_plan_id)).join(", ");
  const stopped = rates.filter((r) => r.stop_sell);
  const unpriced = rates.filter((r) => r.amount === null);
  const arrival = rates.filter((r) => r.closed_to_arrival);
  const departure = rates.filter((r) => r.closed_to_departure);
  const minStay = rates.filter((r) => r.min_stay > 1);
  const longest = Math.max(1, ...minStay.map((r) => r.min_stay));
  const closed = rates.length > 0 && stopped.length === rates.length;
  const marks: string[] = [];
  const words: string[] = [];
  if (!rates.length) words.push("no active rate plan");
  if (closed) {
    marks.push("Stop-sell");
    words.push(`stop-sell on every rate plan (${codes(stopped)})`);
  } else if (stopped.length) {
    marks.push(`SS ${stopped.length}/${rates.length}`);
    words.push(`stop-sell on ${stopped.length} of ${rates.length} rate plans (${codes(stopped)})`);
  }
  if (arrival.length) {
    marks.push("No arrival");
    words.push(`closed to arrival on ${codes(arrival)}`);
  }
  if (departure.length) {
    marks.push("No departure");
    words.push(`closed to departure on ${codes(departure)}`);
  }
  if (minStay.length) {
    marks.push(`Min ${longest}`);
    words.push(minStay.map((r) => `minimum stay ${r.min_stay} nights on ${codeOf(r.rate_plan_id)}`).join(", "));
  }
  if (unpriced.length) words.push(`no rate loaded on ${codes(unpriced)}`);
  return { closed, marks, words };
}

/** The restrictions of one plan's night, as a short list of words ("none" when it sells freely). */
export function planNightWords(r: PlanNight): string {
  const parts = [
    r.stop_sell && "stop-sell",
    r.closed_to_arrival && "closed to arrival",
    r.closed_to_departure && "closed to departure",
    r.min_stay > 1 && `minimum stay ${r.min_stay} nights`,
  ].filter(Boolean);
  return parts.length ? parts.join(", ") : "none";
}
