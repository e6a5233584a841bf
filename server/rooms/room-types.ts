import { and, count, eq, inArray, isNull, ne } from "drizzle-orm";
import { inTransaction } from "@/db/transactions";
import { presentRoomType } from "./present";
import { recordChange, type ChangeCtx } from "@/server/audit/audit";
import { changesFrom } from "@/server/changes";
import type { Executor } from "@/db/client";
import { properties, roomTypes, rooms } from "@/db/schema";
import { ApiError } from "@/server/errors";
import { newId } from "@/server/ids";
import { type PageRequest } from "@/server/pagination";
import { findOwned, tenantValues, type Ctx, listOwned } from "@/server/tenancy";
import type { RoomTypeCreate, RoomTypeUpdate } from "./schemas";

type RoomTypeRow = typeof roomTypes.$inferSelect;

async function withRoomCounts(db: Executor, rows: RoomTypeRow[]) {
  if (!rows.length) return [];
  const counts = await db
    .select({ id: rooms.roomTypeId, n: count() })
    .from(rooms)
    .where(
      and(
        inArray(
          rooms.roomTypeId,
          rows.map((r) => r.id),
        ),
        isNull(rooms.retiredAt),
      ),
    )
    .groupBy(rooms.roomTypeId);
  const byId = new Map(counts.map((c) => [c.id, Number(c.n)]));
  return rows.map((r) => ({ ...r, roomCount: byId.get(r.id) ?? 0 }));
}

function codeTaken(code: string) {
  return new ApiError("parameter_invalid", `The property already has a room type with code '${code}'.`, { param: "code" });
}

async function assertCodeFree(db: Executor, propertyId: string, code: string, exceptId?: string) {
  const [clash] = await db
    .select({ id: roomTypes.id })
    .from(roomTypes)
    .where(and(eq(roomTypes.propertyId, propertyId), eq(roomTypes.code, code), exceptId ? ne(roomTypes.id, exceptId) : undefined));
  if (clash) throw codeTaken(code);
}

export async function listRoomTypes({ db, tenant, filters, page }: Ctx & { filters: { property_id?: string }; page: PageRequest }) {
  const result = await listOwned(db, roomTypes, tenant, page, filters.property_id ? eq(roomTypes.propertyId, filters.property_id) : undefined);
  return { ...result, data: await withRoomCounts(db, result.data) };
}

export async function getRoomType({ db, tenant, id }: Ctx & { id: string }) {
  const row = await findOwned(db, roomTypes, tenant, id, "room_type");
  return (await withRoomCounts(db, [row]))[0];
}

export async function createRoomType({ db, tenant, actor, input }: ChangeCtx & { input: RoomTypeCreate }) {
  const property = await findOwned(db, properties, tenant, input.property_id, "property", { param: "property_id" });
  const base = input.base_occupancy ?? Math.min(2, input.max_occupancy);
  if (base > input.max_occupancy) {
    throw new ApiError("parameter_invalid", "base_occupancy cannot exceed max_occupancy.", { param: "base_occupancy" });
  }
  await assertCodeFree(db, property.id, input.code);
  return inTransaction(db, async (tx) => {
    const [row] = await tx
      .insert(roomTypes)
      .values({
        id: newId("roomType"),
        ...tenantValues(tenant),
        propertyId: property.id,
        code: input.code,
        name: input.name,
        description: input.description || null,
        beds: input.beds || null,
        maxOccupancy: input.max_occupancy,
        baseOccupancy: base,
        amenities: input.amenities ?? [],
      })
      .onConflictDoNothing()
      .returning();
    if (!row) throw codeTaken(input.code);
    const created = { ...row, roomCount: 0 };
    const after = presentRoomType(created);
    await recordChange(tx, { tenant, actor }, [{ type: "room_type.created", propertyId: row.propertyId, object: after }], {
      action: "room_type.created",
      objectType: "room_type",
      objectId: row.id,
      after,
    });
    return created;
  });
}

export async function updateRoomType({ db, tenant, actor, id, input }: ChangeCtx & { id: string; input: RoomTypeUpdate }) {
  return db.transaction(async (tx) => {
    const current = await findOwned(tx, roomTypes, tenant, id, "room_type", { forUpdate: true });
    const max = input.max_occupancy ?? current.maxOccupancy;
    const base = input.base_occupancy ?? Math.min(current.baseOccupancy, max);
    if (base > max) throw new ApiError("parameter_invalid", "base_occupancy cannot exceed max_occupancy.", { param: "base_occupancy" });
    if (input.code && input.code !== current.code) await assertCodeFree(tx, current.propertyId, input.code, current.id);
    const changes = changesFrom(current, {
      code: input.code ?? current.code,
      name: input.name ?? current.name,
      description: input.description === undefined ? current.description : input.description || null,
      beds: input.beds === undefined ? current.beds : input.beds || null,
      maxOccupancy: max,
      baseOccupancy: base,
      amenities: input.amenities ?? current.amenities,
    });
    if (!changes) return (await withRoomCounts(tx, [current]))[0];
    const [row] = await tx
      .update(roomTypes)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(roomTypes.id, current.id))
      .returning();
    const [updated] = await withRoomCounts(tx, [row]);
    const after = presentRoomType(updated);
    await recordChange(tx, { tenant, actor }, [{ type: "room_type.updated", propertyId: row.propertyId, object: after }], {
      action: "room_type.updated",
      objectType: "room_type",
      objectId: row.id,
      // The rooms are not this change's: counted once, for both sides.
      before: presentRoomType({ ...current, roomCount: updated.roomCount }),
      after,
    });
    return updated;
  });
}
