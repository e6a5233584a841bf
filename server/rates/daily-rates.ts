import { and, eq, gte, lt } from "drizzle-orm";
import { audit, type ChangeCtx } from "@/server/audit/audit";
import type { Executor } from "@/db/client";
import { dailyRates, properties, ratePlans } from "@/db/schema";
import { addDays, nightsOf, weekdayOf, type IsoDate } from "@/lib/dates";
import { assertDateRange } from "@/server/date-ranges";
import { ApiError } from "@/server/errors";
import { emitEvent } from "@/server/events/emit";
import { anyOf, preparedQuery } from "@/db/prepared";
import { findOwned, type Ctx } from "@/server/tenancy";
import { followParent, upsertRates } from "./derived";
import type { NightRate } from "./quote";
import type { RateRangeSet } from "./schemas";

const maxRateRangeDays = 730;

const assertRange = (from: IsoDate, to: IsoDate, location: "query" | "body") => assertDateRange(from, to, maxRateRangeDays, location);

/**
 * What quotes, the grid and rate changes read of a night's rate: no timestamps or tenant columns,
 * which every availability call would otherwise parse for hundreds of rows.
 */
export const rateColumns = {
  ratePlanId: dailyRates.ratePlanId,
  roomTypeId: dailyRates.roomTypeId,
  date: dailyRates.date,
  amount: dailyRates.amount,
  minStay: dailyRates.minStay,
  closedToArrival: dailyRates.closedToArrival,
  closedToDeparture: dailyRates.closedToDeparture,
  stopSell: dailyRates.stopSell,
};
type RateRow = { [K in keyof typeof rateColumns]: (typeof dailyRates.$inferSelect)[K] };

/** Rates of several plans × room types × [from, to) in one statement: per plan, keyed `${roomTypeId}:${date}`. */
export async function loadRatesOfPlans(db: Executor, ratePlanIds: string[], roomTypeIds: string[], from: IsoDate, to: IsoDate) {
  const byPlan = new Map<string, Map<string, RateRow>>(ratePlanIds.map((id) => [id, new Map()]));
  if (!ratePlanIds.length || !roomTypeIds.length) return byPlan;
  const rows = await preparedQuery(db, "rates_load_plans", { plans: ratePlanIds, types: roomTypeIds, from, to }, (p) =>
    db
      .select(rateColumns)
      .from(dailyRates)
      .where(
        and(
          anyOf(dailyRates.ratePlanId, p("plans")),
          anyOf(dailyRates.roomTypeId, p("types")),
          gte(dailyRates.date, p("from")),
          lt(dailyRates.date, p("to")),
        ),
      ),
  );
  for (const r of rows) byPlan.get(r.ratePlanId)?.set(`${r.roomTypeId}:${r.date}`, r);
  return byPlan;
}

/** Rates of plan × room types × [from, to), keyed `${roomTypeId}:${date}`. */
export async function loadRates(db: Executor, ratePlanId: string, roomTypeIds: string[], from: IsoDate, to: IsoDate) {
  return (await loadRatesOfPlans(db, [ratePlanId], roomTypeIds, from, to)).get(ratePlanId)!;
}

export const asNightRate = (r: RateRow | undefined): NightRate | undefined =>
  r && { amount: r.amount, minStay: r.minStay, closedToArrival: r.closedToArrival, closedToDeparture: r.closedToDeparture, stopSell: r.stopSell };

async function calendar(db: Executor, plan: typeof ratePlans.$inferSelect, roomTypeIds: string[], from: IsoDate, to: IsoDate) {
  const [property] = await db.select({ currency: properties.currency }).from(properties).where(eq(properties.id, plan.propertyId));
  const rates = await loadRates(db, plan.id, roomTypeIds, from, to);
  const data = nightsOf(from, to).flatMap((date) =>
    roomTypeIds.map((roomTypeId) => {
      const r = rates.get(`${roomTypeId}:${date}`);
      return {
        date,
        room_type_id: roomTypeId,
        amount: r?.amount ?? null,
        currency: property.currency,
        min_stay: r?.minStay ?? 1,
        closed_to_arrival: r?.closedToArrival ?? false,
        closed_to_departure: r?.closedToDeparture ?? false,
        stop_sell: r?.stopSell ?? false,
      };
    }),
  );
  return { object: "rate_calendar" as const, livemode: plan.livemode, rate_plan_id: plan.id, from, to, data };
}

function planRoomType(plan: typeof ratePlans.$inferSelect, roomTypeId: string, location: "query" | "body") {
  if (!plan.roomTypeIds.includes(roomTypeId)) {
    throw new ApiError("parameter_invalid", `Rate plan '${plan.id}' does not cover room type '${roomTypeId}'.`, { param: "room_type_id", location });
  }
}

export async function getRateCalendar({
  db,
  tenant,
  ratePlanId,
  query,
}: Ctx & { ratePlanId: string; query: { room_type_id?: string; from: IsoDate; to: IsoDate } }) {
  const plan = await findOwned(db, ratePlans, tenant, ratePlanId, "rate_plan");
  assertRange(query.from, query.to, "query");
  if (query.room_type_id) planRoomType(plan, query.room_type_id, "query");
  return calendar(db, plan, query.room_type_id ? [query.room_type_id] : plan.roomTypeIds, query.from, query.to);
}

type Night = { amount: number | null; min_stay: number; closed_to_arrival: boolean; closed_to_departure: boolean; stop_sell: boolean };
const restrictionKeys = ["amount", "min_stay", "closed_to_arrival", "closed_to_departure", "stop_sell"] as const;

/**
 * A range's nights per field for the audit trail: the value when every night has it, else
 * `{ mixed: [values seen] }`, so the trail can say what a change replaced (its sentences format
 * the amounts in the property's currency).
 */
function summarize(nights: Night[]) {
  return Object.fromEntries(
    restrictionKeys.map((key) => {
      const values = [...new Set(nights.map((n) => n[key]))];
      return [key, values.length === 1 ? values[0] : { mixed: values }];
    }),
  );
}

const asNight = (r: Pick<RateRow, "amount" | "minStay" | "closedToArrival" | "closedToDeparture" | "stopSell"> | undefined): Night => ({
  amount: r?.amount ?? null,
  min_stay: r?.minStay ?? 1,
  closed_to_arrival: r?.closedToArrival ?? false,
  closed_to_departure: r?.closedToDeparture ?? false,
  stop_sell: r?.stopSell ?? false,
});

/**
 * Sets price and restrictions over a range (optionally on some weekdays only). Nights with no
 * rate yet need an amount. Writes one `rate.updated` carrying the changed range, and the plan's
 * trail entry: the nights it touched as they were (read to write them) and as they are.
 */
export async function setRates({ db, tenant, actor, ratePlanId, input }: ChangeCtx & { ratePlanId: string; input: RateRangeSet }) {
  return db.transaction(async (tx) => {
    const plan = await findOwned(tx, ratePlans, tenant, ratePlanId, "rate_plan", { forUpdate: true });
    if (plan.parentRatePlanId) {
      throw new ApiError(
        "parameter_invalid",
        `Rate plan '${plan.code}' is derived from another plan: its rates follow that plan's and cannot be set directly. Set the parent's rates, or stop deriving it (PATCH derived_from: null).`,
      );
    }
    assertRange(input.from, input.to, "body");
    planRoomType(plan, input.room_type_id, "body");
    const days = input.days_of_week ? new Set(input.days_of_week) : null;
    const dates = nightsOf(input.from, input.to).filter((d) => !days || days.has(weekdayOf(d)));
    const existing = await loadRates(tx, plan.id, [input.room_type_id], input.from, input.to);
    if (input.amount === undefined) {
      const bare = dates.find((d) => !existing.has(`${input.room_type_id}:${d}`));
      if (bare) throw new ApiError("parameter_missing", `No rate exists for ${bare} yet; send an amount.`, { param: "amount" });
    }
    const now = new Date();
    const rows = dates.map((date) => {
      const current = existing.get(`${input.room_type_id}:${date}`);
      return {
        ratePlanId: plan.id,
        roomTypeId: input.room_type_id,
        date,
        accountId: plan.accountId,
        livemode: plan.livemode,
        propertyId: plan.propertyId,
        amount: input.amount ?? current!.amount,
        minStay: input.min_stay ?? current?.minStay ?? 1,
        closedToArrival: input.closed_to_arrival ?? current?.closedToArrival ?? false,
        closedToDeparture: input.closed_to_departure ?? current?.closedToDeparture ?? false,
        stopSell: input.stop_sell ?? current?.stopSell ?? false,
        updatedAt: now,
      };
    });
    await upsertRates(tx, rows);
    await audit(
      tx,
      { tenant, actor },
      {
        action: "rate_plan.rates_set",
        objectType: "rate_plan",
        objectId: plan.id,
        before: { ...summarize(dates.map((d) => asNight(existing.get(`${input.room_type_id}:${d}`)))), room_type_id: input.room_type_id },
        // The nights as the rates page shows them: the first and the last, inclusive.
        after: {
          ...summarize(rows.map(asNight)),
          room_type_id: input.room_type_id,
          nights_range: { from: input.from, to: addDays(input.to, -1) },
          ...(input.days_of_week ? { days_of_week: input.days_of_week } : {}),
        },
      },
    );
    const result = await calendar(tx, plan, [input.room_type_id], input.from, input.to);
    await emitEvent(tx, tenant, {
      type: "rate.updated",
      propertyId: plan.propertyId,
      object: { ...result, object: "rate_calendar", room_type_id: input.room_type_id, days_of_week: input.days_of_week ?? null },
    });
    // Plans derived from this one follow it in the same transaction, each with its own event.
    for (const child of await followParent(tx, plan, input.room_type_id, input.from, input.to)) {
      const followed = await calendar(tx, child, [input.room_type_id], input.from, input.to);
      await emitEvent(tx, tenant, {
        type: "rate.updated",
        propertyId: child.propertyId,
        object: { ...followed, room_type_id: input.room_type_id, days_of_week: null },
      });
    }
    return result;
  });
}
