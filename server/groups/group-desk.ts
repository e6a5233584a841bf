import { eq, inArray } from "drizzle-orm";
import { properties, roomTypes, rooms } from "@/db/schema";
import { folioBalance, presentStayPrice } from "@/server/folios/folios";
import { businessToday } from "@/server/properties/business-date";
import { presentReservation } from "@/server/reservations/present";
import { checkInOpen, transitions } from "@/server/reservations/transitions";
import { sumLines } from "@/server/taxes/compute";
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
  // What the guests pay for the rooms not cancelled: the sum of their prices, each as its folio charges it.
  const live = stays.filter((r) => r.status !== "cancelled");
  const price = sumLines(live.map((r) => ({ amount: r.netAmount + r.taxAmount, taxAmount: r.taxAmount, taxes: r.taxes })));
  return {
    group: presentGroup(current),
    price: presentStayPrice(price, property.currency),
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
