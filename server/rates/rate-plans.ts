import { and, eq, inArray, ne } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { properties, ratePlans, roomTypes } from "@/db/schema";
import { ApiError } from "@/server/errors";
import { emitEvent } from "@/server/events/emit";
import { newId } from "@/server/ids";
import { type PageRequest } from "@/server/pagination";
import { findOwned, ownedBy, tenantValues, type Ctx, type Tenant, listOwned } from "@/server/tenancy";
import { presentRatePlan } from "./present";
import type { RatePlanCreate, RatePlanUpdate } from "./schemas";

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

export async function createRatePlan({ db, tenant, input }: Ctx & { input: RatePlanCreate }) {
  return db.transaction(async (tx) => {
    const property = await findOwned(tx, properties, tenant, input.property_id, "property", { param: "property_id" });
    const typeIds = await assertRoomTypes(tx, tenant, property.id, input.room_type_ids);
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
        active: input.active,
        earlyDepartureFee: input.early_departure_fee,
        noShowFee: input.no_show_fee,
        lateCheckOutFee: input.late_check_out_fee,
      })
      .returning();
    await emitEvent(tx, tenant, { type: "rate.updated", propertyId: row.propertyId, object: presentRatePlan(row) });
    return row;
  });
}

export async function updateRatePlan({ db, tenant, id, input }: Ctx & { id: string; input: RatePlanUpdate }) {
  return db.transaction(async (tx) => {
    const plan = await findOwned(tx, ratePlans, tenant, id, "rate_plan", { forUpdate: true });
    const typeIds = input.room_type_ids ? await assertRoomTypes(tx, tenant, plan.propertyId, input.room_type_ids) : plan.roomTypeIds;
    if (input.code && input.code !== plan.code) await assertCodeFree(tx, plan.propertyId, input.code, plan.id);
    const [row] = await tx
      .update(ratePlans)
      .set({
        code: input.code ?? plan.code,
        name: input.name ?? plan.name,
        roomTypeIds: typeIds,
        refundable: input.refundable ?? plan.refundable,
        cancellationDeadlineHours: input.cancellation_deadline_hours ?? plan.cancellationDeadlineHours,
        active: input.active ?? plan.active,
        earlyDepartureFee: input.early_departure_fee === undefined ? plan.earlyDepartureFee : input.early_departure_fee,
        noShowFee: input.no_show_fee === undefined ? plan.noShowFee : input.no_show_fee,
        lateCheckOutFee: input.late_check_out_fee === undefined ? plan.lateCheckOutFee : input.late_check_out_fee,
        updatedAt: new Date(),
      })
      .where(eq(ratePlans.id, plan.id))
      .returning();
    await emitEvent(tx, tenant, { type: "rate.updated", propertyId: row.propertyId, object: presentRatePlan(row) });
    return row;
  });
}
