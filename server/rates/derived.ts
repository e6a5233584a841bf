import { and, eq, gte, inArray, lt, sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { dailyRates, ratePlans } from "@/db/schema";
import type { IsoDate } from "@/lib/dates";

type Plan = typeof ratePlans.$inferSelect;
type Derivation = Pick<Plan, "adjustmentPercentBp" | "adjustmentAmount">;

type RateWrite = typeof dailyRates.$inferInsert;

/** Writes nights' rates, replacing what the same plan, room type and night had. */
export async function upsertRates(tx: Executor, rows: RateWrite[]) {
  for (let i = 0; i < rows.length; i += 500) {
    await tx
      .insert(dailyRates)
      .values(rows.slice(i, i + 500))
      .onConflictDoUpdate({
        target: [dailyRates.ratePlanId, dailyRates.roomTypeId, dailyRates.date],
        set: {
          amount: sql`excluded.amount`,
          minStay: sql`excluded.min_stay`,
          closedToArrival: sql`excluded.closed_to_arrival`,
          closedToDeparture: sql`excluded.closed_to_departure`,
          stopSell: sql`excluded.stop_sell`,
          updatedAt: sql`excluded.updated_at`,
        },
      });
  }
}

/**
 * A derived plan's nightly amount from its parent's, in minor units: a percent adjustment is
 * rounded half up to a whole minor unit (12345 − 10 % = 11110.5 → 11111), an amount is added as
 * is, and the result is never below 0.
 */
function derivedAmount(parentAmount: number, { adjustmentPercentBp, adjustmentAmount }: Derivation): number {
  const adjusted =
    adjustmentPercentBp !== null
      ? Math.floor((parentAmount * (10_000 + adjustmentPercentBp) + 5_000) / 10_000)
      : parentAmount + (adjustmentAmount ?? 0);
  return Math.max(0, adjusted);
}

/**
 * Copies the parent's nights onto the derived plan (amount adjusted, restrictions as the
 * parent's) for the given room types, over [from, to) or every night the parent has.
 */
async function copyNights(tx: Executor, child: Plan, roomTypeIds: string[], range?: { from: IsoDate; to: IsoDate }) {
  if (!child.parentRatePlanId || !roomTypeIds.length) return;
  const parentRows = await tx
    .select()
    .from(dailyRates)
    .where(
      and(
        eq(dailyRates.ratePlanId, child.parentRatePlanId),
        inArray(dailyRates.roomTypeId, roomTypeIds),
        range ? gte(dailyRates.date, range.from) : undefined,
        range ? lt(dailyRates.date, range.to) : undefined,
      ),
    );
  const now = new Date();
  await upsertRates(
    tx,
    parentRows.map((r) => ({ ...r, ratePlanId: child.id, amount: derivedAmount(r.amount, child), updatedAt: now })),
  );
}

/**
 * After the parent's rates changed for one room type over [from, to): every plan derived from
 * it that covers the room type takes the new nights. Answers the plans that followed.
 */
export async function followParent(tx: Executor, parent: Plan, roomTypeId: string, from: IsoDate, to: IsoDate): Promise<Plan[]> {
  const children = await tx.select().from(ratePlans).where(eq(ratePlans.parentRatePlanId, parent.id)).orderBy(ratePlans.code).for("update");
  const following = children.filter((c) => c.roomTypeIds.includes(roomTypeId));
  for (const child of following) await copyNights(tx, child, [roomTypeId], { from, to });
  return following;
}

/**
 * A plan became derived, or its derivation or room types changed: its nights are replaced by
 * its parent's, adjusted, for every room type it covers.
 */
export async function rederive(tx: Executor, child: Plan) {
  await tx.delete(dailyRates).where(eq(dailyRates.ratePlanId, child.id));
  await copyNights(tx, child, child.roomTypeIds);
}
