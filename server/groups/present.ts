import type { groups } from "@/db/schema";
import { isoTime } from "@/server/dates";
import { presentReservation, type ReservationWithGuest } from "@/server/reservations/present";

export type GroupWithRooms = { group: typeof groups.$inferSelect; rooms: ReservationWithGuest[] };

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
    reservations: rooms.map(presentReservation),
    notes: g.notes,
    created_at: isoTime(g.createdAt),
    updated_at: isoTime(g.updatedAt),
  };
}
