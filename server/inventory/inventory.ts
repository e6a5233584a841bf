import { and, eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { audit, type ChangeCtx } from "@/server/audit/audit";
import { inventoryHolds, properties, roomTypes } from "@/db/schema";
import type { IsoDate } from "@/lib/dates";
import { businessToday } from "@/server/properties/business-date";
import { assertDateRange } from "@/server/date-ranges";
import { ApiError, type ParamLocation } from "@/server/errors";
import { newId } from "@/server/ids";
import { type PageRequest } from "@/server/pagination";
import { preparedQuery } from "@/db/prepared";
import { findOwned, ownedBy, tenantValues, type Ctx, listOwned } from "@/server/tenancy";
import { emitInventoryUpdated } from "./events";
import { availableOf, holdNights, readNights, unholdNights } from "./nights";
import type { HoldCreate } from "./schemas";

const maxInventoryDays = 730;

const assertRange = (from: IsoDate, to: IsoDate, location: ParamLocation) => assertDateRange(from, to, maxInventoryDays, location);

/** The room types a request names: one (which must belong to the property) or all of it. */
export async function typesOf(ctx: Ctx, propertyId: string, roomTypeId: string | undefined, location: ParamLocation) {
  // All of a property's types (availability, the calendar) is the common case: prepared once.
  const types =
    !roomTypeId && ctx.tenant.propertyIds === null
      ? await preparedQuery(ctx.db, "room_types_of_property", { account: ctx.tenant.accountId, livemode: ctx.tenant.livemode, property: propertyId }, (p) =>
          ctx.db
            .select()
            .from(roomTypes)
            .where(and(eq(roomTypes.accountId, p("account")), eq(roomTypes.livemode, p("livemode")), eq(roomTypes.propertyId, p("property")))),
        )
      : await ctx.db
          .select()
          .from(roomTypes)
          .where(ownedBy(roomTypes, ctx.tenant, eq(roomTypes.propertyId, propertyId), roomTypeId ? eq(roomTypes.id, roomTypeId) : undefined));
  if (roomTypeId && !types.length) {
    throw new ApiError("parameter_invalid", `'${roomTypeId}' is not a room type of property '${propertyId}'.`, { param: "room_type_id", location });
  }
  return types;
}

export async function getInventory(ctx: Ctx & { query: { property_id: string; room_type_id?: string; from: IsoDate; to: IsoDate } }) {
  const { query } = ctx;
  const property = await findOwned(ctx.db, properties, ctx.tenant, query.property_id, "property", { param: "property_id" });
  assertRange(query.from, query.to, "query");
  const types = await typesOf(ctx, property.id, query.room_type_id, "query");
  const nights = await readNights(
    ctx.db,
    types.map((t) => t.id),
    query.from,
    query.to,
  );
  return {
    object: "inventory_calendar" as const,
    livemode: property.livemode,
    property_id: property.id,
    from: query.from,
    to: query.to,
    data: nights.map((n) => ({
      date: n.date,
      room_type_id: n.roomTypeId,
      total: n.total,
      sold: n.sold,
      out_of_order: n.outOfOrder,
      held: n.held,
      available: availableOf(n),
    })),
  };
}

export async function createHold(ctx: ChangeCtx & { input: HoldCreate }) {
  const { db, tenant, actor, input } = ctx;
  return db.transaction(async (tx) => {
    const property = await findOwned(tx, properties, tenant, input.property_id, "property", { param: "property_id" });
    assertRange(input.from, input.to, "body");
    const today = businessToday(property);
    if (input.from < today)
      throw new ApiError("parameter_invalid", `A hold cannot start in the past; today is ${today} at the property.`, { param: "from" });
    const [type] = await typesOf({ db: tx, tenant }, property.id, input.room_type_id, "body");
    return holdRooms(tx, { tenant, actor }, { propertyId: property.id, roomTypeId: type.id, from: input.from, to: input.to, rooms: input.rooms });
  });
}

/**
 * Holds rooms of a type inside the caller's transaction (checked by the caller: the property and
 * type are the tenant's, the range valid), or 409 `no_availability`: the hold's row, its event and
 * its trail entry. The booking engine holds a guest's room this way while they fill the form.
 */
export async function holdRooms(
  tx: Executor,
  { tenant, actor }: Pick<ChangeCtx, "tenant" | "actor">,
  input: { propertyId: string; roomTypeId: string; from: IsoDate; to: IsoDate; rooms: number },
) {
  await holdNights(tx, input.roomTypeId, input.from, input.to, input.rooms);
  const [hold] = await tx
    .insert(inventoryHolds)
    .values({ id: newId("hold"), ...tenantValues(tenant), ...input })
    .returning();
  await emitInventoryUpdated(tx, tenant, { propertyId: input.propertyId, roomTypeId: input.roomTypeId, from: input.from, to: input.to });
  await audit(tx, { tenant, actor }, { action: "inventory_hold.created", objectType: "inventory_hold", objectId: hold.id, after: presentHold(hold) });
  return hold;
}

export async function releaseHold(ctx: ChangeCtx & { id: string }) {
  const { db, tenant, actor, id } = ctx;
  return db.transaction(async (tx) => {
    const hold = await findOwned(tx, inventoryHolds, tenant, id, "inventory_hold", { forUpdate: true });
    if (hold.releasedAt) throw new ApiError("resource_missing", `No such inventory_hold: '${id}'`, { param: "id" });
    return unholdRooms(tx, { tenant, actor }, hold);
  });
}

/** Gives a hold's rooms back to sale inside the caller's transaction (the hold's row locked by the caller, not yet released). */
export async function unholdRooms(tx: Executor, { tenant, actor }: Pick<ChangeCtx, "tenant" | "actor">, hold: typeof inventoryHolds.$inferSelect) {
  await unholdNights(tx, hold.roomTypeId, hold.from, hold.to, hold.rooms);
  const [released] = await tx.update(inventoryHolds).set({ releasedAt: new Date() }).where(eq(inventoryHolds.id, hold.id)).returning();
  await emitInventoryUpdated(tx, tenant, { propertyId: hold.propertyId, roomTypeId: hold.roomTypeId, from: hold.from, to: hold.to });
  await audit(tx, { tenant, actor }, { action: "inventory_hold.released", objectType: "inventory_hold", objectId: hold.id, before: presentHold(hold) });
  return released;
}

export async function listHolds(ctx: Ctx & { filters: { property_id?: string; room_type_id?: string }; page: PageRequest }) {
  const { db, tenant, filters, page } = ctx;
  return listOwned(
    db,
    inventoryHolds,
    tenant,
    page,
    and(
      filters.property_id ? eq(inventoryHolds.propertyId, filters.property_id) : undefined,
      filters.room_type_id ? eq(inventoryHolds.roomTypeId, filters.room_type_id) : undefined,
    ),
  );
}

export const presentHold = (h: typeof inventoryHolds.$inferSelect) => ({
  id: h.id,
  object: "inventory_hold" as const,
  livemode: h.livemode,
  property_id: h.propertyId,
  room_type_id: h.roomTypeId,
  from: h.from,
  to: h.to,
  rooms: h.rooms,
  created_at: h.createdAt.toISOString(),
  released_at: h.releasedAt?.toISOString() ?? null,
});

