import { asc, eq, inArray } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { groups, guests, reservations, type folios } from "@/db/schema";
import { ApiError } from "@/server/errors";
import { recordChange, type ChangeCtx } from "@/server/audit/audit";
import { newId } from "@/server/ids";
import type { PageRequest } from "@/server/pagination";
import { assertBookable, bookStay } from "@/server/reservations/create-reservation";
import type { ReservationWithGuest } from "@/server/reservations/present";
import type { ReservationCreate } from "@/server/reservations/schemas";
import { cancelReservation } from "@/server/reservations/transitions";
import { findOwned, listOwned, tenantValues, type Ctx, type Tenant } from "@/server/tenancy";
import { inTransaction } from "@/db/transactions";
import { presentGroup, type GroupWithRooms } from "./present";
import type { GroupCreate } from "./schemas";

/** A room's own fields, whose errors point at that room of the body. */
const roomParams = /^(room_type_id|rate_plan_id|adults|children|guest\b)/;

/** Runs one room's step; an error about one of its own fields names the room (`rooms.1.adults`, as the shape checks do). */
async function forRoom<T>(index: number, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof ApiError && error.param && roomParams.test(error.param)) {
      Object.defineProperty(error, "param", { value: `rooms.${index}.${error.param}` });
    }
    throw error;
  }
}

/** The booking of each room, as one reservation would be made. */
const roomBookings = (input: GroupCreate): ReservationCreate[] =>
  input.rooms.map((room) => ({
    property_id: input.property_id,
    guest: room.guest ?? input.guest,
    check_in: input.check_in,
    check_out: input.check_out,
    room_type_id: room.room_type_id,
    rate_plan_id: room.rate_plan_id,
    adults: room.adults,
    children: room.children,
    source: input.source,
    channel: input.channel,
    notes: input.notes,
  }));

/**
 * Books several rooms as one group, all in one transaction: every room is checked, priced and
 * sold as a reservation of its own would be, and if any one cannot be (a full room type, a
 * restriction), nothing is booked. With master billing the first room's folio becomes the master
 * and every other room's charges go to it. Writes each room's `reservation.created` and
 * `inventory.updated`, then `group.created`.
 */
export async function createGroup({ db, tenant, actor, input }: ChangeCtx & { input: GroupCreate }) {
  const bookings = roomBookings(input);
  for (const [i, booking] of bookings.entries()) await forRoom(i, () => assertBookable(db, tenant, booking));
  return inTransaction(db, async (tx) => {
    const id = newId("group");
    // Sold in room type order, whatever the order asked: two groups over the same types then
    // lock their nights in the same order and never wait on each other crosswise.
    const order = bookings.map((_, i) => i).sort((a, b) => (bookings[a].room_type_id < bookings[b].room_type_id ? -1 : bookings[a].room_type_id > bookings[b].room_type_id ? 1 : a - b));
    const booked: ReservationWithGuest[] = [];
    let master: typeof folios.$inferSelect | undefined;
    const now = Date.now();
    for (const i of order) {
      const stay = await forRoom(i, () => bookStay(tx, { tenant, actor }, bookings[i], { id, folio: master, createdAt: new Date(now + i) }));
      if (input.billing === "master") master ??= stay.folio;
      booked[i] = { reservation: stay.reservation, guest: stay.guest };
    }
    const [group] = await tx
      .insert(groups)
      .values({
        id,
        ...tenantValues(tenant),
        propertyId: input.property_id,
        name: input.name ?? `${booked[0].guest.lastName} group`,
        billing: input.billing,
        masterFolioId: master?.id ?? null,
        notes: input.notes ?? null,
      })
      .returning();
    const result = { group, rooms: booked };
    const after = presentGroup(result);
    await recordChange(tx, { tenant, actor }, [{ type: "group.created", propertyId: group.propertyId, object: after }], {
      action: "group.created",
      objectType: "group",
      objectId: group.id,
      after,
    });
    return result;
  });
}

/** A group's rooms with their guests, in the order they were booked. */
async function roomsOf(db: Executor, groupIds: string[]) {
  if (!groupIds.length) return [];
  return db
    .select({ reservation: reservations, guest: guests })
    .from(reservations)
    .innerJoin(guests, eq(guests.id, reservations.guestId))
    .where(inArray(reservations.groupId, groupIds))
    .orderBy(asc(reservations.createdAt), asc(reservations.id));
}

export async function loadGroup(db: Executor, tenant: Tenant, id: string, forUpdate = false): Promise<GroupWithRooms> {
  const group = await findOwned(db, groups, tenant, id, "group", { forUpdate });
  return { group, rooms: await roomsOf(db, [group.id]) };
}

export const getGroup = ({ db, tenant, id }: Ctx & { id: string }) => loadGroup(db, tenant, id);

export async function listGroups({ db, tenant, filters, page }: Ctx & { filters: { property_id?: string }; page: PageRequest }) {
  const result = await listOwned(db, groups, tenant, page, filters.property_id ? eq(groups.propertyId, filters.property_id) : undefined);
  const rooms = await roomsOf(
    db,
    result.data.map((g) => g.id),
  );
  return { ...result, data: result.data.map((group): GroupWithRooms => ({ group, rooms: rooms.filter((r) => r.reservation.groupId === group.id) })) };
}

/**
 * Cancels every room of the group still confirmed, each as `POST /reservations/{id}/cancel` would
 * (its nights back on sale, its charges dropped where the plan allows), all or none. Rooms in house
 * or gone are left as they are. Writes each room's events, then `group.cancelled`.
 */
export async function cancelGroup({ db, tenant, actor, id, reason }: ChangeCtx & { id: string; reason?: string }) {
  return inTransaction(db, async (tx) => {
    const current = await loadGroup(tx, tenant, id, true);
    const confirmed = current.rooms.filter((r) => r.reservation.status === "confirmed");
    if (!confirmed.length) throw new ApiError("invalid_state_transition", "No room of the group is still confirmed; there is nothing to cancel.");
    for (const room of confirmed) await cancelReservation({ db: tx, tenant, actor, id: room.reservation.id, reason });
    const [group] = await tx.update(groups).set({ updatedAt: new Date() }).where(eq(groups.id, current.group.id)).returning();
    const result = { group, rooms: await roomsOf(tx, [group.id]) };
    const after = presentGroup(result);
    await recordChange(tx, { tenant, actor }, [{ type: "group.cancelled", propertyId: group.propertyId, object: after }], {
      action: "group.cancelled",
      objectType: "group",
      objectId: group.id,
      before: presentGroup(current),
      after,
    });
    return result;
  });
}
