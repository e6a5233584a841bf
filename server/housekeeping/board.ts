import { and, asc, eq, gte, isNull, or } from "drizzle-orm";
import { guests, properties, reservations, roomTypes, rooms } from "@/db/schema";
import { todayIn, type IsoDate } from "@/lib/dates";
import { businessToday } from "@/server/properties/business-date";
import { presentRoom } from "@/server/rooms/present";
import { findOwned, ownedBy, type Ctx } from "@/server/tenancy";
import { housekeepingTransitions } from "./transitions";

type StayRow = { reservation: typeof reservations.$inferSelect; firstName: string; lastName: string };

/** What today means for one room: who is in it, and whether someone arrives or leaves today. */
function stayMarks(stays: StayRow[], today: IsoDate, timezone: string) {
  const inHouse = stays.find((s) => s.reservation.status === "checked_in");
  // Left today: on the departure date or early (check-out still ahead), by the property's clock.
  const departed = stays.find(
    (s) => s.reservation.status === "checked_out" && s.reservation.checkedOutAt && todayIn(timezone, s.reservation.checkedOutAt) === today,
  );
  const current = inHouse ?? departed;
  return {
    stay: current
      ? {
          reservation_id: current.reservation.id,
          guest_name: `${current.firstName} ${current.lastName}`,
          status: current.reservation.status,
          check_in: current.reservation.checkIn,
          check_out: current.reservation.checkOut,
        }
      : null,
    /** A guest checked in to this room today. */
    arrival: inHouse?.reservation.checkIn === today,
    /** `due`: the in-house guest leaves today (or is late); `departed`: checked out today. */
    departure: inHouse && inHouse.reservation.checkOut <= today ? ("due" as const) : departed ? ("departed" as const) : null,
  };
}

/**
 * The housekeeping board of one property on its local today: every room with its status, the
 * transitions it allows, occupancy and today's arrival or departure; per room type, the arrivals
 * still to come (a room is chosen only at check-in) beside the rooms ready for them.
 */
export async function getHousekeepingBoard({ db, tenant, propertyId }: Ctx & { propertyId: string }) {
  const property = await findOwned(db, properties, tenant, propertyId, "property", { param: "property_id" });
  const today = businessToday(property);
  const [types, roomRows, stays] = await Promise.all([
    db
      .select()
      .from(roomTypes)
      .where(ownedBy(roomTypes, tenant, eq(roomTypes.propertyId, property.id)))
      .orderBy(asc(roomTypes.name)),
    db
      .select()
      .from(rooms)
      .where(ownedBy(rooms, tenant, eq(rooms.propertyId, property.id), isNull(rooms.retiredAt)))
      .orderBy(asc(rooms.floor), asc(rooms.number)),
    db
      .select({ reservation: reservations, firstName: guests.firstName, lastName: guests.lastName })
      .from(reservations)
      .innerJoin(guests, eq(guests.id, reservations.guestId))
      .where(
        ownedBy(
          reservations,
          tenant,
          eq(reservations.propertyId, property.id),
          or(
            eq(reservations.status, "checked_in"),
            and(eq(reservations.status, "confirmed"), eq(reservations.checkIn, today)),
            and(eq(reservations.status, "checked_out"), gte(reservations.checkOut, today)),
          ),
        ),
      ),
  ]);
  const byRoom = new Map<string, StayRow[]>();
  for (const s of stays) if (s.reservation.roomId) byRoom.set(s.reservation.roomId, [...(byRoom.get(s.reservation.roomId) ?? []), s]);
  const typeName = new Map(types.map((t) => [t.id, t.name]));
  const boardRooms = roomRows.map((r) => ({
    ...presentRoom(r),
    room_type_name: typeName.get(r.roomTypeId) ?? "",
    next_statuses: housekeepingTransitions[r.housekeepingStatus],
    ...stayMarks(byRoom.get(r.id) ?? [], today, property.timezone),
  }));
  return {
    object: "housekeeping_board" as const,
    property: { id: property.id, name: property.name, timezone: property.timezone },
    today,
    room_types: types.map((t) => ({
      id: t.id,
      code: t.code,
      name: t.name,
      arrivals_pending: stays.filter((s) => s.reservation.status === "confirmed" && s.reservation.roomTypeId === t.id).length,
      ready: roomRows.filter(
        (r) => r.roomTypeId === t.id && !r.occupied && (r.housekeepingStatus === "clean" || r.housekeepingStatus === "inspected"),
      ).length,
    })),
    rooms: boardRooms,
  };
}

export type HousekeepingBoard = Awaited<ReturnType<typeof getHousekeepingBoard>>;
