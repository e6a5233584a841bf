import { eq, inArray } from "drizzle-orm";
import { properties, roomTypes, rooms } from "@/db/schema";
import { folioBalance } from "@/server/folios/folios";
import { businessToday } from "@/server/properties/business-date";
import { presentReservation } from "@/server/reservations/present";
import { checkInOpen, transitions } from "@/server/reservations/transitions";
import type { Ctx } from "@/server/tenancy";
import { loadGroup } from "./groups";
import { presentGroup } from "./present";

/**
 * A group as the front desk works on it: the group, each room with the names behind its ids and
 * whether it can be checked in or cancelled now (by the rules those actions enforce), what the
 * rooms not cancelled come to (net, tax, gross) and the master folio's balance.
 */
export async function getGroupDesk({ db, tenant, id }: Ctx & { id: string }) {
  const current = await loadGroup(db, tenant, id);
  const stays = current.rooms.map((r) => r.reservation);
  const [[property], types, assigned, balance] = await Promise.all([
    db.select().from(properties).where(eq(properties.id, current.group.propertyId)),
    db.select().from(roomTypes).where(inArray(roomTypes.id, [...new Set(stays.map((r) => r.roomTypeId))])),
    db.select().from(rooms).where(inArray(rooms.id, stays.flatMap((r) => (r.roomId ? [r.roomId] : [])))),
    current.group.masterFolioId ? folioBalance(db, current.group.masterFolioId) : Promise.resolve(null),
  ]);
  const today = businessToday(property);
  const group = presentGroup(current);
  return {
    group,
    // What the guests pay for the rooms not cancelled, as /v1/groups states it.
    price: group.price,
    today,
    master_balance: balance === null ? null : { amount: balance, currency: property.currency },
    rooms: current.rooms.map((stay) => {
      const r = stay.reservation;
      return {
        reservation: presentReservation(stay),
        room_type: types.find((t) => t.id === r.roomTypeId)?.name ?? "",
        room_number: assigned.find((room) => room.id === r.roomId)?.number ?? null,
        can_check_in: transitions[r.status].includes("checked_in") && checkInOpen(r.checkIn, today),
        can_cancel: transitions[r.status].includes("cancelled"),
      };
    }),
  };
}
