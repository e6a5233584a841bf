import { and, eq, inArray, ne } from "drizzle-orm";
import { changesFrom } from "@/server/changes";
import type { Executor } from "@/db/client";
import { properties, ratePlans, roomTypes } from "@/db/schema";
import { ApiError } from "@/server/errors";
import { recordChange, type ChangeCtx } from "@/server/audit/audit";
import { newId } from "@/server/ids";
import { type PageRequest } from "@/server/pagination";
import { findOwned, ownedBy, tenantValues, type Ctx, type Tenant, listOwned } from "@/server/tenancy";
import { presentRatePlan } from "./present";
import { rederive } from "./derived";
import type { DerivationInput, RatePlanCreate, RatePlanUpdate } from "./schemas";

type Plan = typeof ratePlans.$inferSelect;
type Derivation = Pick<Plan, "parentRatePlanId" | "adjustmentPercentBp" | "adjustmentAmount">;
const notDerived: Derivation = { parentRatePlanId: null, adjustmentPercentBp: null, adjustmentAmount: null };

/**
 * A derivation as stored, after its rules: the parent is another, underived plan of the same
 * property, covering every room type of the derived plan; exactly one adjustment is given.
 * Answers the parent too (its room types are the derived plan's default).
 */
async function derivationOf(tx: Executor, tenant: Tenant, propertyId: string, input: DerivationInput, selfId?: string) {
  const param = "derived_from.rate_plan_id";
  const hasPercent = input.adjustment_percent !== undefined;
  if (hasPercent === (input.adjustment_amount !== undefined)) {
    throw new ApiError(hasPercent ? "parameter_invalid" : "parameter_missing", "Send exactly one of adjustment_percent and adjustment_amount.", {
      param: hasPercent ? "derived_from.adjustment_amount" : "derived_from.adjustment_percent",
    });
  }
  const parent = await findOwned(tx, ratePlans, tenant, input.rate_plan_id, "rate_plan", { param, forUpdate: true });
  if (parent.propertyId !== propertyId) throw new ApiError("parameter_invalid", "The parent rate plan belongs to another property.", { param });
  if (parent.id === selfId) throw new ApiError("parameter_invalid", "A rate plan cannot be derived from itself.", { param });
  if (parent.parentRatePlanId) {
    throw new ApiError("parameter_invalid", `Rate plan '${parent.code}' is itself derived; derive from its parent instead.`, { param });
  }
  const derivation: Derivation = {
    parentRatePlanId: parent.id,
    adjustmentPercentBp: hasPercent ? Math.round(input.adjustment_percent! * 100) : null,
    adjustmentAmount: hasPercent ? null : input.adjustment_amount!,
  };
  return { parent, derivation };
}

function assertParentCovers(parent: Plan, typeIds: string[]) {
  const index = typeIds.findIndex((id) => !parent.roomTypeIds.includes(id));
  if (index >= 0) {
    throw new ApiError("parameter_invalid", `The parent rate plan '${parent.code}' does not cover room type '${typeIds[index]}'.`, {
      param: `room_type_ids.${index}`,
    });
  }
}

/** Every id must name a room type of this property. */
async function assertRoomTypes(db: Executor, tenant: Tenant, propertyId: string, ids: string[]) {
  const unique = [...new Set(ids)];
  const found = await db
    .select({ id: roomTypes.id })
    .from(roomTypes)
    .where(ownedBy(roomTypes, tenant, eq(roomTypes.propertyId, propertyId), inArray(roomTypes.id, unique)));
  const known = new Set(found.map((r) => r.id));
  const index = ids.findIndex((id) => !known.has(id));
  if (index >= 0) {
    throw new ApiError("parameter_invalid", `'${ids[index]}' is not a room type of property '${propertyId}'.`, { param: `room_type_ids.${index}` });
  }
  return unique;
}

async function assertCodeFree(db: Executor, propertyId: string, code: string, exceptId?: string) {
  const [clash] = await db
    .select({ id: ratePlans.id })
    .from(ratePlans)
    .where(and(eq(ratePlans.propertyId, propertyId), eq(ratePlans.code, code), exceptId ? ne(ratePlans.id, exceptId) : undefined));
  if (clash) throw new ApiError("parameter_invalid", `The property already has a rate plan with code '${code}'.`, { param: "code" });
}

export async function listRatePlans({
  db,
  tenant,
  filters,
  page,
}: Ctx & { filters: { property_id?: string; active?: "true" | "false" }; page: PageRequest }) {
  return listOwned(
    db,
    ratePlans,
    tenant,
    page,
    filters.property_id ? eq(ratePlans.propertyId, filters.property_id) : undefined,
    filters.active ? eq(ratePlans.active, filters.active === "true") : undefined,
  );
}

export const getRatePlan = ({ db, tenant, id }: Ctx & { id: string }) => findOwned(db, ratePlans, tenant, id, "rate_plan");

/**
 * A plan created or changed is `rate_plan.created` / `rate_plan.updated`, and still `rate.updated`
 * with the same plan, as it has been since the specification's 12 (the availability calendar and
 * existing subscribers follow it): both in the change's transaction (docs/decisions.md).
 */
const planEvents = (type: "rate_plan.created" | "rate_plan.updated", propertyId: string, object: ReturnType<typeof presentRatePlan>) =>
  [type, "rate.updated" as const].map((t) => ({ type: t, propertyId, object }));

export async function createRatePlan({ db, tenant, actor, input }: ChangeCtx & { input: RatePlanCreate }) {
  return db.transaction(async (tx) => {
    const property = await findOwned(tx, properties, tenant, input.property_id, "property", { param: "property_id" });
    const derived = input.derived_from ? await derivationOf(tx, tenant, property.id, input.derived_from) : null;
    const requested = input.room_type_ids ?? derived?.parent.roomTypeIds;
    if (!requested)
      throw new ApiError("parameter_missing", "room_type_ids is required (a derived plan defaults to its parent's).", { param: "room_type_ids" });
    const typeIds = await assertRoomTypes(tx, tenant, property.id, requested);
    if (derived) assertParentCovers(derived.parent, typeIds);
    await assertCodeFree(tx, property.id, input.code);
    const [row] = await tx
      .insert(ratePlans)
      .values({
        id: newId("ratePlan"),
        ...tenantValues(tenant),
        propertyId: property.id,
        code: input.code,
        name: input.name,
        roomTypeIds: typeIds,
        refundable: input.refundable,
        cancellationDeadlineHours: input.cancellation_deadline_hours,
        mealPlan: input.meal_plan,
        ...(derived?.derivation ?? notDerived),
        active: input.active,
        earlyDepartureFee: input.early_departure_fee,
        noShowFee: input.no_show_fee,
        lateCheckOutFee: input.late_check_out_fee,
        deposit: input.deposit,
      })
      .returning();
    if (row.parentRatePlanId) await rederive(tx, row);
    const after = presentRatePlan(row);
    await recordChange(tx, { tenant, actor }, planEvents("rate_plan.created", row.propertyId, after), {
      action: "rate_plan.created",
      objectType: "rate_plan",
      objectId: row.id,
      after,
    });
    return row;
  });
}

export async function updateRatePlan({ db, tenant, actor, id, input }: ChangeCtx & { id: string; input: RatePlanUpdate }) {
  return db.transaction(async (tx) => {
    const plan = await findOwned(tx, ratePlans, tenant, id, "rate_plan", { forUpdate: true });
    const typeIds = input.room_type_ids ? await assertRoomTypes(tx, tenant, plan.propertyId, input.room_type_ids) : plan.roomTypeIds;
    if (input.code && input.code !== plan.code) await assertCodeFree(tx, plan.propertyId, input.code, plan.id);
    // A derivation stays as it is unless sent: null ends it (the plan keeps its rates as its own).
    let derivation: Derivation = plan;
    if (input.derived_from) {
      const children = await tx.select({ code: ratePlans.code }).from(ratePlans).where(eq(ratePlans.parentRatePlanId, plan.id)).limit(1);
      if (children.length) {
        throw new ApiError("parameter_invalid", `Rate plan '${children[0].code}' is derived from this plan, so it cannot be derived itself.`, {
          param: "derived_from",
        });
      }
      derivation = (await derivationOf(tx, tenant, plan.propertyId, input.derived_from, plan.id)).derivation;
    } else if (input.derived_from === null) derivation = notDerived;
    if (derivation.parentRatePlanId) {
      const [parent] = await tx.select().from(ratePlans).where(eq(ratePlans.id, derivation.parentRatePlanId));
      assertParentCovers(parent, typeIds);
    }
    if (input.room_type_ids) {
      // A parent keeps every room type its derived plans follow it for.
      const children = await tx.select().from(ratePlans).where(eq(ratePlans.parentRatePlanId, plan.id));
      for (const child of children) {
        const dropped = child.roomTypeIds.find((t) => !typeIds.includes(t));
        if (dropped) {
          throw new ApiError(
            "parameter_invalid",
            `Derived rate plan '${child.code}' follows this plan for room type '${dropped}'; keep it or change '${child.code}' first.`,
            {
              param: "room_type_ids",
            },
          );
        }
      }
    }
    const changes = changesFrom(plan, {
      code: input.code ?? plan.code,
      name: input.name ?? plan.name,
      roomTypeIds: typeIds,
      refundable: input.refundable ?? plan.refundable,
      cancellationDeadlineHours: input.cancellation_deadline_hours ?? plan.cancellationDeadlineHours,
      mealPlan: input.meal_plan ?? plan.mealPlan,
      parentRatePlanId: derivation.parentRatePlanId,
      adjustmentPercentBp: derivation.adjustmentPercentBp,
      adjustmentAmount: derivation.adjustmentAmount,
      active: input.active ?? plan.active,
      earlyDepartureFee: input.early_departure_fee === undefined ? plan.earlyDepartureFee : input.early_departure_fee,
      noShowFee: input.no_show_fee === undefined ? plan.noShowFee : input.no_show_fee,
      lateCheckOutFee: input.late_check_out_fee === undefined ? plan.lateCheckOutFee : input.late_check_out_fee,
      deposit: input.deposit === undefined ? plan.deposit : input.deposit,
    });
    if (!changes) return plan;
    const [row] = await tx
      .update(ratePlans)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(ratePlans.id, plan.id))
      .returning();
    const followsAnew =
      row.parentRatePlanId &&
      (row.parentRatePlanId !== plan.parentRatePlanId ||
        row.adjustmentPercentBp !== plan.adjustmentPercentBp ||
        row.adjustmentAmount !== plan.adjustmentAmount ||
        row.roomTypeIds.join() !== plan.roomTypeIds.join());
    if (followsAnew) await rederive(tx, row);
    const after = presentRatePlan(row);
    await recordChange(tx, { tenant, actor }, planEvents("rate_plan.updated", row.propertyId, after), {
      action: "rate_plan.updated",
      objectType: "rate_plan",
      objectId: row.id,
      before: presentRatePlan(plan),
      after,
    });
    return row;
  });
}
