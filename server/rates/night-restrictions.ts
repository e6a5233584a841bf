import { and, eq } from "drizzle-orm";
import { ratePlans } from "@/db/schema";
import { nightsOf, type IsoDate } from "@/lib/dates";
import { ownedBy, type Ctx } from "@/server/tenancy";
import { loadRates } from "./daily-rates";

/** One active rate plan's rate and restrictions on one night of one room type; `amount` null: no rate loaded. */
export type PlanNight = {
  rate_plan_id: string;
  amount: number | null;
  min_stay: number;
  closed_to_arrival: boolean;
  closed_to_departure: boolean;
  stop_sell: boolean;
};

/**
 * What each active rate plan says about each night of [from, to) for each room type it covers,
 * read with the same `loadRates` the quotes use: the calendar shows why a night cannot be sold
 * (stop-sell, closed to arrival or departure, minimum stay) beside how many rooms are free.
 */
export async function nightRestrictions(ctx: Ctx & { propertyId: string; roomTypeIds: string[]; from: IsoDate; to: IsoDate }) {
  const { db, tenant, propertyId, roomTypeIds, from, to } = ctx;
  const plans = await db
    .select({ id: ratePlans.id, code: ratePlans.code, name: ratePlans.name, roomTypeIds: ratePlans.roomTypeIds })
    .from(ratePlans)
    .where(ownedBy(ratePlans, tenant, and(eq(ratePlans.propertyId, propertyId), eq(ratePlans.active, true))))
    .orderBy(ratePlans.code);
  const byCell = new Map<string, PlanNight[]>();
  await Promise.all(
    plans.map(async (plan) => {
      const covered = roomTypeIds.filter((t) => plan.roomTypeIds.includes(t));
      const rates = await loadRates(db, plan.id, covered, from, to);
      for (const roomTypeId of covered) {
        for (const date of nightsOf(from, to)) {
          const r = rates.get(`${roomTypeId}:${date}`);
          const key = `${roomTypeId}|${date}`;
          const list = byCell.get(key) ?? [];
          list.push({
            rate_plan_id: plan.id,
            amount: r?.amount ?? null,
            min_stay: r?.minStay ?? 1,
            closed_to_arrival: r?.closedToArrival ?? false,
            closed_to_departure: r?.closedToDeparture ?? false,
            stop_sell: r?.stopSell ?? false,
          });
          byCell.set(key, list);
        }
      }
    }),
  );
  // Plans in code order within each cell, whatever order their queries finished in.
  const order = new Map(plans.map((p, i) => [p.id, i]));
  for (const list of byCell.values()) list.sort((a, b) => order.get(a.rate_plan_id)! - order.get(b.rate_plan_id)!);
  return {
    plans: plans.map((p) => ({ id: p.id, code: p.code, name: p.name })),
    nights: (roomTypeId: string, date: IsoDate) => byCell.get(`${roomTypeId}|${date}`) ?? [],
  };
}
