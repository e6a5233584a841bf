import { and, asc, eq, gte, inArray, isNotNull, isNull, ne } from "drizzle-orm";
import { presentRoom } from "./present";
import { recordChange, type ChangeCtx } from "@/server/audit/audit";
import { changesFrom } from "@/server/changes";
import type { Executor } from "@/db/client";
import { inventoryNights, properties, roomTypes, rooms, type HousekeepingStatus } from "@/db/schema";
import { businessToday } from "@/server/properties/business-date";
import { ApiError } from "@/server/errors";
import { newId } from "@/server/ids";
import { adjustOutOfOrder, adjustTotals, availableOf } from "@/server/inventory/nights";
import { emitInventoryUpdated } from "@/server/inventory/events";
import { type PageRequest } from "@/server/pagination";
import { findOwned, tenantValues, type Ctx, listOwned } from "@/server/tenancy";
import { maxRoomsPerRange, type RoomCreate, type RoomRangeCreate, type RoomUpdate } from "./schemas";

export type RoomFilters = { property_id?: string; room_type_id?: string; housekeeping_status?: HousekeepingStatus; retired?: "true" | "false" };

export async function listRooms({ db, tenant, filters, page }: Ctx & { filters: RoomFilters; page: PageRequest }) {
  return listOwned(
    db,
    rooms,
    tenant,
    page,
    filters.property_id ? eq(rooms.propertyId, filters.property_id) : undefined,
    filters.room_type_id ? eq(rooms.roomTypeId, filters.room_type_id) : undefined,
    filters.housekeeping_status ? eq(rooms.housekeepingStatus, filters.housekeeping_status) : undefined,
    filters.retired === "true" ? isNotNull(rooms.retiredAt) : isNull(rooms.retiredAt),
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
  const [p] = await db.select({ timezone: properties.timezone, businessDate: properties.businessDate }).from(properties).where(eq(properties.id, propertyId));
  return businessToday(p);
}

type Who = Pick<ChangeCtx, "tenant" | "actor">;
type RoomRow = typeof rooms.$inferSelect;

/**
 * New rooms' events and trail entries: one `room.created` per room (a range of 20 is 20), each
 * the room as `GET /rooms/{id}` answers it, written with the rooms.
 */
function roomsCreated(tx: Executor, who: Who, created: RoomRow[]) {
  const after = created.map(presentRoom);
  return recordChange(
    tx,
    who,
    after.map((object) => ({ type: "room.created" as const, propertyId: object.property_id, object })),
    after.map((object) => ({ action: "room.created", objectType: "room", objectId: object.id, after: object })),
  );
}

/** A room's change (`room.updated`, `room.retired`): its event and trail entry, the room after it as GET answers it. */
function roomChanged(tx: Executor, who: Who, type: "room.updated" | "room.retired", before: RoomRow, row: RoomRow) {
  const after = presentRoom(row);
  return recordChange(tx, who, [{ type, propertyId: row.propertyId, object: after }], {
    action: type,
    objectType: "room",
    objectId: row.id,
    before: presentRoom(before),
    after,
  });
}

/** A new room adds one to its type's inventory from today on. */
export async function createRoom({ db, tenant, actor, input }: ChangeCtx & { input: RoomCreate }) {
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
    await roomsCreated(tx, { tenant, actor }, [row]);
    return row;
  });
}

/** Moving a room to another type moves its night from one type's inventory to the other's. */
export async function updateRoom({ db, tenant, actor, id, input }: ChangeCtx & { id: string; input: RoomUpdate }) {
  return db.transaction(async (tx) => {
    const room = await findOwned(tx, rooms, tenant, id, "room", { forUpdate: true });
    if (room.retiredAt) throw new ApiError("invalid_state_transition", `Room ${room.number} is retired and cannot change.`);
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
    const changes = changesFrom(room, {
      number: input.number ?? room.number,
      floor: input.floor === undefined ? room.floor : input.floor,
      roomTypeId,
    });
    if (!changes) return room;
    const [row] = await tx
      .update(rooms)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(rooms.id, room.id))
      .returning();
    await roomChanged(tx, { tenant, actor }, "room.updated", room, row);
    return row;
  });
}

/** The numbers of a range, keeping the first number's width ("001"–"020"). */
function rangeNumbers(input: RoomRangeCreate): string[] {
  const [from, to] = [Number(input.from_number), Number(input.to_number)];
  if (to < from) throw new ApiError("parameter_invalid", "to_number must not be below from_number.", { param: "to_number" });
  if (to - from + 1 > maxRoomsPerRange)
    throw new ApiError("parameter_invalid", `A range may add at most ${maxRoomsPerRange} rooms.`, { param: "to_number" });
  const width = input.from_number.length;
  return Array.from({ length: to - from + 1 }, (_, i) => String(from + i).padStart(width, "0"));
}

/**
 * Adds a room for every number of a range ("101"–"120"), all of one type, or none: a number the
 * property already has (a retired room's too) refuses the whole range and names the clashes.
 */
export async function createRoomRange({ db, tenant, actor, input }: ChangeCtx & { input: RoomRangeCreate }) {
  const numbers = rangeNumbers(input);
  return db.transaction(async (tx) => {
    const type = await findOwned(tx, roomTypes, tenant, input.room_type_id, "room_type", { param: "room_type_id" });
    const clashes = async () =>
      (
        await tx
          .select({ number: rooms.number })
          .from(rooms)
          .where(and(eq(rooms.propertyId, type.propertyId), inArray(rooms.number, numbers)))
      ).map((r) => r.number);
    const refuse = (taken: string[]) =>
      new ApiError(
        "parameter_invalid",
        `The property already has room${taken.length === 1 ? "" : "s"} ${taken.sort().join(", ")}; no room was added.`,
        { param: "from_number" },
      );
    const taken = await clashes();
    if (taken.length) throw refuse(taken);
    const created = await tx
      .insert(rooms)
      .values(
        numbers.map((number) => ({
          id: newId("room"),
          ...tenantValues(tenant),
          propertyId: type.propertyId,
          roomTypeId: type.id,
          number,
          floor: input.floor ?? null,
        })),
      )
      .onConflictDoNothing()
      .returning();
    // A concurrent create took a number between the check and the insert: undo them all.
    if (created.length !== numbers.length) throw refuse(await clashes());
    const today = await propertyToday(tx, type.propertyId);
    await adjustTotals(tx, type.id, created.length, today);
    await emitInventoryUpdated(tx, tenant, { propertyId: type.propertyId, roomTypeId: type.id, from: today, to: null });
    const byNumber = new Map(created.map((r) => [r.number, r]));
    const ordered = numbers.map((n) => byNumber.get(n)!);
    // Each room's creation on its own trail and with its own event, each in one INSERT.
    await roomsCreated(tx, { tenant, actor }, ordered);
    return { type, rooms: ordered };
  });
}

/**
 * Takes a room out of the hotel for good: it leaves its type's inventory from today on, is no
 * longer listed, assigned or cleaned, and its row stays so stays and the audit trail that name it
 * keep it. Refused while a guest is in it, and when its type would then have more rooms sold (or
 * held) than rooms on some night from today: those stays need a room, so move or cancel them first.
 */
export async function retireRoom({ db, tenant, actor, id }: ChangeCtx & { id: string }) {
  return db.transaction(async (tx) => {
    const room = await findOwned(tx, rooms, tenant, id, "room", { forUpdate: true });
    if (room.retiredAt) throw new ApiError("invalid_state_transition", `Room ${room.number} is already retired.`);
    if (room.occupied) throw new ApiError("invalid_state_transition", `Room ${room.number} is occupied; check the guest out first.`);
    const today = await propertyToday(tx, room.propertyId);
    const outOfOrder = room.housekeepingStatus === "out-of-order";
    // An out-of-order room was not for sale anyway: retiring it frees and removes one alike.
    if (!outOfOrder) {
      // Every night from today locked in date order, as a sale locks them: no booking slips in
      // between this check and the change.
      const nights = await tx
        .select({
          date: inventoryNights.date,
          total: inventoryNights.total,
          outOfOrder: inventoryNights.outOfOrder,
          held: inventoryNights.held,
          sold: inventoryNights.sold,
        })
        .from(inventoryNights)
        .where(and(eq(inventoryNights.roomTypeId, room.roomTypeId), gte(inventoryNights.date, today)))
        .orderBy(asc(inventoryNights.date))
        .for("update");
      const short = nights.find((n) => availableOf(n) < 1);
      if (short) {
        throw new ApiError(
          "no_availability",
          `Room ${room.number} cannot be retired: every room of its type is sold or held on the night of ${short.date}. Move or cancel a stay of that night first.`,
        );
      }
    }
    await adjustTotals(tx, room.roomTypeId, -1, today);
    if (outOfOrder) await adjustOutOfOrder(tx, room.roomTypeId, -1, today, room.outOfOrderUntil);
    const [row] = await tx.update(rooms).set({ retiredAt: new Date(), updatedAt: new Date() }).where(eq(rooms.id, room.id)).returning();
    await emitInventoryUpdated(tx, tenant, { propertyId: room.propertyId, roomTypeId: room.roomTypeId, from: today, to: null });
    await roomChanged(tx, { tenant, actor }, "room.retired", room, row);
    return row;
  });
}

/** Every room of a property, in service or retired, by number: the dashboard's rooms page. */
export async function listPropertyRooms({ db, tenant, propertyId, retired }: Ctx & { propertyId: string; retired: boolean }) {
  const property = await findOwned(db, properties, tenant, propertyId, "property", { param: "property_id" });
  return db
    .select()
    .from(rooms)
    .where(and(eq(rooms.propertyId, property.id), retired ? isNotNull(rooms.retiredAt) : isNull(rooms.retiredAt)))
    .orderBy(asc(rooms.floor), asc(rooms.number));
}
