import type { groups } from "@/db/schema";
import { isoTime } from "@/lib/dates";
import { presentStayPrice } from "@/server/folios/folios";
import { presentReservation, type ReservationWithGuest } from "@/server/reservations/present";
import { sumLines } from "@/server/taxes/compute";

export type GroupWithRooms = { group: typeof groups.$inferSelect; rooms: ReservationWithGuest[] };

/**
 * What the rooms not cancelled come to as their folios charge them (net, tax, gross and each
 * tax's share): the sum of each room's own `price`, kept from when its nights were posted, so no
 * tax is worked out a second time here.
 */
function groupPrice(rooms: ReservationWithGuest[]) {
  const live = rooms.filter((r) => r.reservation.status !== "cancelled").map((r) => r.reservation);
  const price = sumLines(live.map((r) => ({ amount: r.netAmount + r.taxAmount, taxAmount: r.taxAmount, taxes: r.taxes })));
  return presentStayPrice(price, rooms[0].reservation.currency);
}

export function presentGroup({ group: g, rooms }: GroupWithRooms) {
  const live = rooms.filter((r) => r.reservation.status !== "cancelled");
  const dates = (live.length ? live : rooms).map((r) => r.reservation);
  return {
    id: g.id,
    object: "group" as const,
    livemode: g.livemode,
    property_id: g.propertyId,
    name: g.name,
    billing: g.billing,
    master_folio_id: g.masterFolioId,
    check_in: dates.map((r) => r.checkIn).sort()[0],
    check_out: dates.map((r) => r.checkOut).sort().at(-1)!,
    total: { amount: live.reduce((s, r) => s + r.reservation.totalAmount, 0), currency: rooms[0].reservation.currency },
    price: groupPrice(rooms),
    reservations: rooms.map(presentReservation),
    notes: g.notes,
    created_at: isoTime(g.createdAt),
    updated_at: isoTime(g.updatedAt),
  };
}
