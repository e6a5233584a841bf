import type { CardGuarantee, guests, reservations, roomMoves } from "@/db/schema";
import { daysBetween, isoTime, isoTimeOrNull } from "@/lib/dates";
import { presentStayPrice } from "@/server/folios/folios";

export type ReservationWithGuest = { reservation: typeof reservations.$inferSelect; guest: typeof guests.$inferSelect };

/** A reservation's price as its folio charges it (the columns `priceColumns` wrote), in the API's shape. */
export const reservationPrice = (r: Pick<typeof reservations.$inferSelect, "netAmount" | "taxAmount" | "taxes" | "currency">) =>
  presentStayPrice({ net: r.netAmount, tax: r.taxAmount, taxes: r.taxes }, r.currency);

export const presentReservation = ({ reservation: r, guest: g }: ReservationWithGuest) => ({
  id: r.id,
  object: "reservation" as const,
  livemode: r.livemode,
  status: r.status,
  property_id: r.propertyId,
  check_in: r.checkIn,
  check_out: r.checkOut,
  nights: daysBetween(r.checkIn, r.checkOut),
  adults: r.adults,
  children: r.children,
  room_type_id: r.roomTypeId,
  rate_plan_id: r.ratePlanId,
  room_id: r.roomId,
  folio_id: r.folioId,
  group_id: r.groupId,
  total: { amount: r.totalAmount, currency: r.currency },
  nightly: r.nightly.map(({ date, amount }) => ({ date, amount })),
  price: reservationPrice(r),
  guest: { id: g.id, first_name: g.firstName, last_name: g.lastName, email: g.email },
  source: r.source as "api",
  channel: r.channel as "other" | null,
  notes: r.notes,
  metadata: r.metadata,
  cancelled_at: isoTimeOrNull(r.cancelledAt),
  cancellation_reason: r.cancellationReason,
  checked_in_at: isoTimeOrNull(r.checkedInAt),
  checked_out_at: isoTimeOrNull(r.checkedOutAt),
  late_check_out: r.lateCheckOutAt ? { granted_at: isoTime(r.lateCheckOutAt), until: r.lateCheckOutUntil } : null,
  guarantee: r.guarantee ? presentGuarantee(r.guarantee) : null,
  deposit: r.depositAmount === null ? null : { amount: r.depositAmount, currency: r.currency },
  created_at: isoTime(r.createdAt),
  updated_at: isoTime(r.updatedAt),
});

/** A card on file as the API shows it: brand and last four, and what the guest must still do. */
export const presentGuarantee = (g: CardGuarantee) => ({
  type: "card" as const,
  status: g.status,
  card: g.card ? { brand: g.card.brand, last4: g.card.last4, exp_month: g.card.expMonth, exp_year: g.card.expYear } : null,
  next_action: g.status === "requires_action" && g.clientSecret ? { type: "use_stripe_sdk" as const, client_secret: g.clientSecret } : null,
  created_at: g.createdAt,
});

export const presentRoomMove = (m: typeof roomMoves.$inferSelect) => ({
  id: m.id,
  object: "room_move" as const,
  livemode: m.livemode,
  reservation_id: m.reservationId,
  from_room_id: m.fromRoomId,
  to_room_id: m.toRoomId,
  reason: m.reason,
  created_at: isoTime(m.createdAt),
});
