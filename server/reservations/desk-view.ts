import { eq } from "drizzle-orm";
import { groups, properties, ratePlans, roomTypes, rooms } from "@/db/schema";
import { businessToday } from "@/server/properties/business-date";
import type { Ctx } from "@/server/tenancy";
import { presentReservation } from "./present";
import { lateCheckOutRefusal } from "./in-house";
import { loadReservation } from "./reservations";
import { cancellationIsFree, cancellationTerms } from "@/server/rates/cancellation";
import { checkInOpen, noShowOpen, transitions } from "./transitions";

/** An action of the reservation page: offered or not, and why not in words. */
type Action = { allowed: boolean; reason: string | null };

const allow: Action = { allowed: true, reason: null };
const refuse = (reason: string): Action => ({ allowed: false, reason });
/** An action by a rule that answers why not, or null when it is allowed. */
const unless = (refusal: string | null): Action => (refusal ? refuse(refusal) : allow);

/**
 * One reservation as the front desk works on it: the API object, the names behind its ids, the
 * property's today, the cancellation policy as it stands now, and which actions its state
 * allows, each decided by the same rules the actions themselves enforce.
 */
export async function getReservationDesk({ db, tenant, id, now = new Date() }: Ctx & { id: string; now?: Date }) {
  const current = await loadReservation(db, tenant, id);
  const r = current.reservation;
  const [[property], [roomType], [plan], room, [group]] = await Promise.all([
    db.select().from(properties).where(eq(properties.id, r.propertyId)),
    db.select().from(roomTypes).where(eq(roomTypes.id, r.roomTypeId)),
    db.select().from(ratePlans).where(eq(ratePlans.id, r.ratePlanId)),
    r.roomId ? db.select().from(rooms).where(eq(rooms.id, r.roomId)).then((rows) => rows[0]) : Promise.resolve(undefined),
    r.groupId ? db.select().from(groups).where(eq(groups.id, r.groupId)) : Promise.resolve([]),
  ]);
  const today = businessToday(property, now);
  const next = transitions[r.status];
  const status = r.status.replace("_", "-");
  const state = (to: (typeof next)[number]) => (next.includes(to) ? allow : refuse(`A ${status} reservation cannot be changed this way.`));
  const checkIn = !next.includes("checked_in")
    ? state("checked_in")
    : checkInOpen(r.checkIn, today)
      ? allow
      : refuse(r.checkIn > today ? `Check-in opens on the arrival date, ${r.checkIn}.` : `The arrival date (${r.checkIn}) has passed; record a no-show or modify the dates.`);
  const noShow = !next.includes("no_show") ? state("no_show") : noShowOpen(r.checkIn, property, now) ? allow : refuse(`A no-show can be recorded once the arrival night of ${r.checkIn} is over, from the night audit's hour.`);
  const confirmed = r.status === "confirmed";
  return {
    reservation: presentReservation(current),
    property: { id: property.id, name: property.name, timezone: property.timezone, currency: property.currency, today },
    room_type: { id: roomType.id, code: roomType.code, name: roomType.name, max_occupancy: roomType.maxOccupancy },
    rate_plan: {
      id: plan.id,
      code: plan.code,
      name: plan.name,
      refundable: plan.refundable,
      cancellation_deadline_hours: plan.cancellationDeadlineHours,
      /** Whether cancelling now would drop the room charges (else they stay as the cancellation charge). */
      free_cancellation_now: cancellationIsFree(plan, r.checkIn, property, now),
      /** Until when (the hotel's wall clock) cancelling is free; null when it is not, or no longer. */
      free_cancellation_until: ((t) => (t.free ? t.until : null))(cancellationTerms(plan, r.checkIn, property, now)),
    },
    room: room ? { id: room.id, number: room.number, floor: room.floor, housekeeping_status: room.housekeepingStatus } : null,
    actions: {
      modify: confirmed ? allow : refuse(`Only a confirmed reservation can be modified; this one is ${status}.`),
      cancel: state("cancelled"),
      check_in: checkIn,
      check_out: state("checked_out"),
      move_room: r.status === "checked_in" ? allow : refuse(`Only a guest in house can change rooms; this reservation is ${status}.`),
      change_departure: r.status === "checked_in" ? allow : refuse(`Only a stay in house can leave early or be extended; this one is ${status}.`),
      no_show: noShow,
      upgrade:
        r.status !== "confirmed" && r.status !== "checked_in"
          ? refuse(`Only a confirmed stay or a guest in house can be upgraded; this one is ${status}.`)
          : r.status === "checked_in" && today >= r.checkOut
            ? refuse("The guest leaves today; no night is left to upgrade.")
            : allow,
      late_check_out: unless(lateCheckOutRefusal(r, today)),
    },
    group: group ? { id: group.id, name: group.name, billing: group.billing } : null,
  };
}
