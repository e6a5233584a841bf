import type { IsoDate } from "@/lib/dates";
import { getRateCalendar } from "@/server/rates/daily-rates";
import { getRatePlan } from "@/server/rates/rate-plans";
import type { Ctx } from "@/server/tenancy";
import { getInventory } from "./inventory";

/**
 * The rates grid beside demand (issue 39, point 7): a plan's nightly price and restrictions over
 * [from, to), each night with the rooms of its type still to sell, as `GET /v1/inventory` and
 * `GET /v1/availability` count them (`availableOf`: total less out of order, held and sold).
 * One read of the plan's rates and one of the property's nights for the whole range, never one per
 * cell.
 */
export async function getRateGrid(ctx: Ctx & { ratePlanId: string; query: { room_type_id?: string; from: IsoDate; to: IsoDate } }) {
  const rates = await getRateCalendar(ctx);
  const plan = await getRatePlan({ db: ctx.db, tenant: ctx.tenant, id: ctx.ratePlanId });
  const inventory = await getInventory({ db: ctx.db, tenant: ctx.tenant, query: { property_id: plan.propertyId, from: ctx.query.from, to: ctx.query.to } });
  const left = new Map(inventory.data.map((n) => [`${n.room_type_id}:${n.date}`, n]));
  return {
    ...rates,
    data: rates.data.map((night) => {
      const stock = left.get(`${night.room_type_id}:${night.date}`);
      return { ...night, rooms: stock?.total ?? 0, available: stock?.available ?? 0 };
    }),
  };
}
