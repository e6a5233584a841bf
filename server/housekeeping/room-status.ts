import { and, eq, ne } from "drizzle-orm";
import { audit, recordChange, type ChangeCtx } from "@/server/audit/audit";
import { housekeepingAssignments, properties, rooms, type HousekeepingStatus } from "@/db/schema";
import { ApiError } from "@/server/errors";
import { emitEvents } from "@/server/events/emit";
import { presentInventoryRange } from "@/server/inventory/events";
import { adjustOutOfOrder } from "@/server/inventory/nights";
import { businessToday } from "@/server/properties/business-date";
import { presentRoom } from "@/server/rooms/present";
import { findOwned } from "@/server/tenancy";
import type { Tx } from "@/db/client";
import { inTransaction } from "@/db/transactions";
import type { StatusChange } from "./schemas";
import { canMove } from "./transitions";
import { presentAssignment } from "./assignments";

/**
 * Moves a room through the housekeeping states. Out of order takes the room off sale from today
 * until `until` (or until further notice) and back on when it returns; both write
 * `inventory.updated` beside `housekeeping.status_changed`.
 */
export async function changeRoomStatus({ db, tenant, actor, roomId, input }: ChangeCtx & { roomId: string; input: StatusChange }) {
  return inTransaction(db, async (tx) => {
    const room = await findOwned(tx, rooms, tenant, roomId, "room", { forUpdate: true });
    if (room.retiredAt) throw new ApiError("invalid_state_transition", `Room ${room.number} is retired.`, { param: "status" });
    const from = room.housekeepingStatus;
    if (!canMove(from, input.status)) {
      throw new ApiError("invalid_state_transition", `A room cannot go from ${from} to ${input.status}.`, { param: "status" });
    }
    const [property] = await tx.select().from(properties).where(eq(properties.id, room.propertyId));
    // The property's business day: after an audit has closed today, a block starts on the day that is open, never in the closed one.
    const today = businessToday(property);
    const goingOut = input.status === "out-of-order";
    if (goingOut && !input.reason) throw new ApiError("parameter_missing", "A reason is required to put a room out of order.", { param: "reason" });
    if (!goingOut && (input.reason || input.until)) {
      throw new ApiError("parameter_invalid", "reason and until apply only to out-of-order.", { param: input.reason ? "reason" : "until" });
    }
    if (input.until && input.until <= today) throw new ApiError("parameter_invalid", `until must be after today (${today}).`, { param: "until" });
    const events: Parameters<typeof emitEvents>[2] = [];
    if (goingOut) {
      await adjustOutOfOrder(tx, room.roomTypeId, 1, today, input.until ?? null);
      events.push(inventoryChange(room, today, input.until ?? null));
    } else if (from === "out-of-order") {
      await adjustOutOfOrder(tx, room.roomTypeId, -1, today, room.outOfOrderUntil);
      events.push(inventoryChange(room, today, room.outOfOrderUntil));
    }
    const updated = await writeRoomStatus(tx, { tenant, actor }, room, input.status, { reason: goingOut ? input.reason! : null, until: goingOut ? (input.until ?? null) : null }, events);
    // A room made ready is the housekeeper's work done: today's assignment of it is complete too.
    if (input.status === "clean" || input.status === "inspected") await completeAssignments(tx, { tenant, actor }, room.id, today);
    return updated;
  });
}

/** Today's open assignments of a room marked done, each on the trail. */
async function completeAssignments(tx: Tx, who: Pick<ChangeCtx, "tenant" | "actor">, roomId: string, today: string) {
  const open = and(eq(housekeepingAssignments.roomId, roomId), eq(housekeepingAssignments.date, today), ne(housekeepingAssignments.status, "done"));
  const before = await tx.select().from(housekeepingAssignments).where(open).for("update");
  if (!before.length) return;
  const done = await tx.update(housekeepingAssignments).set({ status: "done", updatedAt: new Date() }).where(open).returning();
  for (const row of done) {
    const was = before.find((b) => b.id === row.id);
    await audit(tx, who, {
      action: "housekeeping_assignment.updated",
      objectType: "housekeeping_assignment",
      objectId: row.id,
      before: was ? presentAssignment(was) : undefined,
      after: presentAssignment(row),
    });
  }
}

/**
 * Changes the block of a room that is out of order: its return date (extended, shortened, or
 * until further notice with null) and, if given, its reason. The nights from today on follow the
 * new end, with `inventory.updated` and `housekeeping.status_changed` as for the block itself.
 */
export async function changeOutOfOrder({ db, tenant, actor, roomId, input }: ChangeCtx & { roomId: string; input: { until: string | null; reason?: string } }) {
  return inTransaction(db, async (tx) => {
    const room = await findOwned(tx, rooms, tenant, roomId, "room", { forUpdate: true });
    if (room.housekeepingStatus !== "out-of-order") throw new ApiError("invalid_state_transition", `Room ${room.number} is not out of order.`, { param: "status" });
    const [property] = await tx.select().from(properties).where(eq(properties.id, room.propertyId));
    const today = businessToday(property);
    if (input.until && input.until <= today) throw new ApiError("parameter_invalid", `until must be after today (${today}).`, { param: "until" });
    await adjustOutOfOrder(tx, room.roomTypeId, -1, today, room.outOfOrderUntil);
    await adjustOutOfOrder(tx, room.roomTypeId, 1, today, input.until);
    const end = input.until === null || room.outOfOrderUntil === null ? null : input.until > room.outOfOrderUntil ? input.until : room.outOfOrderUntil;
    return writeRoomStatus(tx, { tenant, actor }, room, "out-of-order", { reason: input.reason ?? room.outOfOrderReason, until: input.until }, [inventoryChange(room, today, end)]);
  });
}

/**
 * Writes a room's housekeeping status, with `housekeeping.status_changed` (and any events the
 * change brings, such as the inventory's) and the trail's entry, in the caller's transaction: the
 * desk's change and the night audit's return of a room whose block ended alike.
 */
export async function writeRoomStatus(
  tx: Tx,
  who: Pick<ChangeCtx, "tenant" | "actor">,
  room: typeof rooms.$inferSelect,
  status: HousekeepingStatus,
  block: { reason: string | null; until: string | null },
  events: Parameters<typeof emitEvents>[2] = [],
) {
  const [updated] = await tx
    .update(rooms)
    .set({ housekeepingStatus: status, outOfOrderReason: block.reason, outOfOrderUntil: block.until, updatedAt: new Date() })
    .where(eq(rooms.id, room.id))
    .returning();
  const after = presentRoom(updated);
  await recordChange(tx, who, [{ type: "housekeeping.status_changed", propertyId: room.propertyId, object: { ...after, previous_status: room.housekeepingStatus } }, ...events], {
    action: status === "out-of-order" ? "room.out_of_order" : `room.marked_${status}`,
    objectType: "room",
    objectId: room.id,
    before: presentRoom(room),
    after,
  });
  return updated;
}

const inventoryChange = (room: typeof rooms.$inferSelect, from: string, to: string | null) => ({
  type: "inventory.updated" as const,
  propertyId: room.propertyId,
  object: presentInventoryRange({ propertyId: room.propertyId, roomTypeId: room.roomTypeId, from, to }),
});
