import { and, eq, ne } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { properties, roomTypes, rooms, type HousekeepingStatus } from "@/db/schema";
import { todayIn } from "@/server/dates";
import { ApiError } from "@/server/errors";
import { newId } from "@/server/ids";
import { adjustOutOfOrder, adjustTotals } from "@/server/inventory/nights";
import { emitInventoryUpdated } from "@/server/inventory/events";
import { type PageRequest } from "@/server/pagination";
import { findOwned, tenantValues, type Ctx, listOwned } from "@/server/tenancy";
import type { RoomCreate, RoomUpdate } from "./schemas";

export type RoomFilters = { property_id?: string; room_type_id?: string; housekeeping_status?: HousekeepingStatus };

export async function listRooms({ db, tenant, filters, page }: Ctx & { filters: RoomFilters; page: PageRequest }) {
  return listOwned(
    db,
    rooms,
    tenant,
    page,
    filters.property_id ? eq(rooms.propertyId, filters.property_id) : undefined,
    filters.room_type_id ? eq(rooms.roomTypeId, filters.room_type_id) : undefined,
    filters.housekeeping_status ? eq(rooms.housekeepingStatus, filters.housekeeping_status) : undefined,
  );
}

export const getRoom = ({ db, tenant, id }: Ctx & { id: string }) => findOwned(db, rooms, tenant, id, "room");

const numberTaken = (number: string) =>
  new ApiError("parameter_invalid", `The property already has a room numbered '${number}'.`, { param: "number" });

async function assertNumberFree(db: Executor, propertyId: string, number: string, exceptId?: string) {
  const [clash] = await db
    .select({ id: rooms.id })
    .from(rooms)
    .where(and(eq(rooms.propertyId, propertyId), eq(rooms.number, number), exceptId ? ne(rooms.id, exceptId) : undefined));
  if (clash) throw numberTaken(number);
}

async function propertyToday(db: Executor, propertyId: string) {
  const [p] = await db.select({ timezone: properties.timezone }).from(properties).where(eq(properties.id, propertyId));
  return todayIn(p.timezone);
}

/** A new room adds one to its type's inventory from today on. */
export async function createRoom({ db, tenant, input }: Ctx & { input: RoomCreate }) {
  return db.transaction(async (tx) => {
    const type = await findOwned(tx, roomTypes, tenant, input.room_type_id, "room_type", { param: "room_type_id" });
    await assertNumberFree(tx, type.propertyId, input.number);
    // The unique index settles a race between two creates of one number: the loser gets the 422.
    const [row] = await tx
      .insert(rooms)
      .values({
        id: newId("room"),
        ...tenantValues(tenant),
        propertyId: type.propertyId,
        roomTypeId: type.id,
        number: input.number,
        floor: input.floor ?? null,
      })
      .onConflictDoNothing()
      .returning();
    if (!row) throw numberTaken(input.number);
    const today = await propertyToday(tx, type.propertyId);
    await adjustTotals(tx, type.id, 1, today);
    await emitInventoryUpdated(tx, tenant, { propertyId: type.propertyId, roomTypeId: type.id, from: today, to: null });
    return row;
  });
}

/** Moving a room to another type moves its night from one type's inventory to the other's. */
export async function updateRoom({ db, tenant, id, input }: Ctx & { id: string; input: RoomUpdate }) {
  return db.transaction(async (tx) => {
    const room = await findOwned(tx, rooms, tenant, id, "room", { forUpdate: true });
    if (input.number && input.number !== room.number) await assertNumberFree(tx, room.propertyId, input.number, room.id);
    let roomTypeId = room.roomTypeId;
    if (input.room_type_id && input.room_type_id !== room.roomTypeId) {
      const type = await findOwned(tx, roomTypes, tenant, input.room_type_id, "room_type", { param: "room_type_id" });
      if (type.propertyId !== room.propertyId) {
        throw new ApiError("parameter_invalid", "The room type belongs to another property.", { param: "room_type_id" });
      }
      if (room.occupied) throw new ApiError("invalid_state_transition", "An occupied room cannot change type.", { param: "room_type_id" });
      roomTypeId = type.id;
      const today = await propertyToday(tx, room.propertyId);
      await adjustTotals(tx, room.roomTypeId, -1, today);
      await adjustTotals(tx, roomTypeId, 1, today);
      if (room.housekeepingStatus === "out-of-order") {
        await adjustOutOfOrder(tx, room.roomTypeId, -1, today, room.outOfOrderUntil);
        await adjustOutOfOrder(tx, roomTypeId, 1, today, room.outOfOrderUntil);
      }
      for (const typeId of [room.roomTypeId, roomTypeId]) {
        await emitInventoryUpdated(tx, tenant, { propertyId: room.propertyId, roomTypeId: typeId, from: today, to: null });
      }
    }
    const [row] = await tx
      .update(rooms)
      .set({ number: input.number ?? room.number, floor: input.floor === undefined ? room.floor : input.floor, roomTypeId, updatedAt: new Date() })
      .where(eq(rooms.id, room.id))
      .returning();
    return row;
  });
}
