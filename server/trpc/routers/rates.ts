import { z } from "zod";
import { setRates } from "@/server/rates/daily-rates";
import { getRateGrid } from "@/server/inventory/rate-grid";
import { presentRatePlan } from "@/server/rates/present";
import { listRatePlans } from "@/server/rates/rate-plans";
import { rateRangeSetSchema } from "@/server/rates/schemas";
import { presentRoomType } from "@/server/rooms/present";
import { listRoomTypes } from "@/server/rooms/room-types";
import { ApiError } from "@/server/errors";
import { date } from "@/server/schemas";
import { access } from "@/lib/access";
import { roles, router, staffProcedure } from "../init";

// The same schemas and services as /v1/rate_plans/{id}/rates: tRPC adds transport, not rules.
const ratesProcedure = staffProcedure.use(roles(...access.rates));
const id = z.string().min(1).max(64);
const everything = { limit: 100, cursor: null };

/** The service names one `room_type_id`; this input has a list, so its errors point at the item. */
const asListItem =
  (index: number) =>
  (error: unknown): never => {
    if (error instanceof ApiError && error.param === "room_type_id")
      throw new ApiError(error.code, error.message, { param: `room_type_ids.${index}` });
    throw error;
  };

export const ratesRouter = router({
  /** What the grid needs to draw: the property's room types and rate plans. */
  setup: ratesProcedure.input(z.strictObject({ property_id: id })).query(async ({ ctx, input }) => {
    const [types, plans] = await Promise.all([
      listRoomTypes({ db: ctx.db, tenant: ctx.tenant, filters: { property_id: input.property_id }, page: everything }),
      listRatePlans({ db: ctx.db, tenant: ctx.tenant, filters: { property_id: input.property_id }, page: everything }),
    ]);
    return {
      room_types: types.data.map(presentRoomType).sort((a, b) => a.code.localeCompare(b.code)),
      rate_plans: plans.data.map(presentRatePlan).sort((a, b) => Number(b.active) - Number(a.active) || a.code.localeCompare(b.code)),
    };
  }),
  /**
   * Nightly amount and restrictions of one plan over [from, to), for one or all of its room types,
   * each night with the rooms left to sell (the availability the booking paths count).
   */
  calendar: ratesProcedure
    .input(z.strictObject({ rate_plan_id: id, room_type_id: id.optional(), from: date, to: date }))
    .query(({ ctx, input: { rate_plan_id, ...query } }) => getRateGrid({ db: ctx.db, tenant: ctx.tenant, ratePlanId: rate_plan_id, query })),
  /**
   * Sets amount and restrictions over a range for one or several room types of a plan, in one
   * transaction (all or nothing); each room type is the `/v1` call, with its `rate.updated`.
   */
  set: ratesProcedure
    .input(rateRangeSetSchema.omit({ room_type_id: true }).extend({ rate_plan_id: id, room_type_ids: z.array(id).min(1).max(100) }))
    .mutation(async ({ ctx, input: { rate_plan_id, room_type_ids, ...range } }) => {
      // Each room type is its own call, on the plan's trail; all of them or none.
      const calendars = await ctx.db.transaction(async (tx) => {
        const done = [];
        for (const [index, room_type_id] of room_type_ids.entries()) {
          done.push(
            await setRates({ db: tx, tenant: ctx.tenant, actor: ctx.actor, ratePlanId: rate_plan_id, input: { ...range, room_type_id } }).catch(
              asListItem(index),
            ),
          );
        }
        return done;
      });
      return { rate_plan_id, from: range.from, to: range.to, data: calendars.flatMap((c) => c.data) };
    }),
});
