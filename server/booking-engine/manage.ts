import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { bookingSessions, guests, ratePlans, reservations, roomTypes } from "@/db/schema";
import { addDays, daysBetween, type IsoDate } from "@/lib/dates";
import type { Money } from "@/lib/money";
import { ApiError } from "@/server/errors";
import { businessToday } from "@/server/properties/business-date";
import { cancellationIsFree, cancellationTerms } from "@/server/rates/cancellation";
import { cancelReservation } from "@/server/reservations/transitions";
import { previewReservationUpdate, updateReservation } from "@/server/reservations/update-reservation";
import { ownedBy } from "@/server/tenancy";
import { engineActor, engineBySlug, presentHotel, referenceOf } from "./guest";
import { manageTokenHash as hashOf } from "./link";

/** The manage link keeps working until this many days after the stay's (current) departure day at the hotel. */
export const manageLinkDays = 14;

export const linkInvalid = () => new ApiError("resource_missing", "This link to a booking is not valid. Please use the link in your confirmation e-mail.", { param: "token" });
export const linkExpired = () => new ApiError("token_expired", "This link to a booking has expired.", { param: "token" });

/** The booking a manage link opens, or a refusal: a token no booking has (mistyped, tampered with), or a link past its time. */
async function managed(db: Db, slug: string, token: string, now = new Date()) {
  const { property, tenant } = await engineBySlug(db, slug);
  if (!token || token.length > 100) throw linkInvalid();
  const [session] = await db
    .select()
    .from(bookingSessions)
    .where(and(eq(bookingSessions.manageTokenHash, hashOf(token)), eq(bookingSessions.propertyId, property.id)));
  if (!session?.reservationId) throw linkInvalid();
  const [reservation] = await db.select().from(reservations).where(ownedBy(reservations, tenant, eq(reservations.id, session.reservationId)));
  if (!reservation) throw linkInvalid();
  const expiresOn = addDays(reservation.checkOut, manageLinkDays);
  if (businessToday(property, now) > expiresOn) throw linkExpired();
  return { property, tenant, reservation, expiresOn };
}

type Loaded = Awaited<ReturnType<typeof managed>>;

/** Why the guest may not change the stay themselves, or null when they may. */
function changeRefusal({ property, reservation: r }: Loaded, plan: typeof ratePlans.$inferSelect, now: Date) {
  if (r.status !== "confirmed") return "not_confirmed" as const;
  // A change could shorten a stay whose nights are already due: only while cancelling is free.
  if (!cancellationIsFree(plan, r.checkIn, property, now)) return plan.refundable ? ("deadline_passed" as const) : ("non_refundable" as const);
  return null;
}

/** What cancelling now costs: nothing while free, else the room charges (nights and their taxes), which stay on the folio. */
const cancelFee = ({ property, reservation: r }: Loaded, plan: typeof ratePlans.$inferSelect, now: Date): Money => ({
  amount: cancellationIsFree(plan, r.checkIn, property, now) ? 0 : r.netAmount + r.taxAmount,
  currency: r.currency,
});

async function planOf(db: Db, loaded: Loaded) {
  const [plan] = await db.select().from(ratePlans).where(eq(ratePlans.id, loaded.reservation.ratePlanId));
  return plan;
}

/**
 * A booking as its manage page shows it: the stay, the price, the terms as the guest meets them
 * now, what cancelling would cost now, and what the guest may do. Cancelled stays read too.
 */
export async function getManagedStay({ db, slug, token, now = new Date() }: { db: Db; slug: string; token: string; now?: Date }) {
  const loaded = await managed(db, slug, token, now);
  const { property, reservation: r } = loaded;
  const [plan, [type], [guest]] = await Promise.all([
    planOf(db, loaded),
    db.select().from(roomTypes).where(eq(roomTypes.id, r.roomTypeId)),
    db.select({ firstName: guests.firstName }).from(guests).where(eq(guests.id, r.guestId)),
  ]);
  const terms = cancellationTerms(plan, r.checkIn, property, now);
  const refusal = changeRefusal(loaded, plan, now);
  return {
    hotel: presentHotel(property),
    reference: referenceOf(r.id),
    status: r.status,
    guest_first_name: guest?.firstName ?? "",
    stay: { check_in: r.checkIn, check_out: r.checkOut, nights: daysBetween(r.checkIn, r.checkOut), adults: r.adults, children: r.children },
    room: { name: type.name, max_occupancy: type.maxOccupancy },
    rate: { name: plan.name, meal_plan: plan.mealPlan },
    total: { amount: r.netAmount + r.taxAmount, currency: r.currency } satisfies Money,
    tax: { amount: r.taxAmount, currency: r.currency } satisfies Money,
    /** The terms now: free until a wall-clock time at the hotel ("YYYY-MM-DDTHH:MM"), or why not. */
    terms: terms.free ? { free: true as const, until: `${terms.until.date}T${terms.until.time}`, reason: null } : { free: false as const, until: null, reason: terms.reason },
    cancel_fee: r.status === "confirmed" ? cancelFee(loaded, plan, now) : null,
    can_change: refusal === null,
    change_refusal: refusal,
    can_cancel: r.status === "confirmed",
    today: businessToday(property, now),
    link_expires_on: loaded.expiresOn,
  };
}

export type StayChange = { check_in: IsoDate; check_out: IsoDate; adults: number; children: number };

async function changeable(db: Db, slug: string, token: string, now: Date) {
  const loaded = await managed(db, slug, token, now);
  const plan = await planOf(db, loaded);
  const refusal = changeRefusal(loaded, plan, now);
  if (refusal === "not_confirmed") throw new ApiError("invalid_state_transition", `Only a confirmed booking can be changed; this one is ${loaded.reservation.status}.`);
  if (refusal) throw new ApiError("invalid_state_transition", "This booking can no longer be changed here: its free cancellation has ended.", { param: "rate_plan_id" });
  return loaded;
}

/**
 * What a change of dates or party would give, without keeping it: the desk's modification run
 * and rolled back (server/reservations/update-reservation.ts), so it is re-checked against the
 * inventory and the rate's restrictions and re-priced exactly as the change itself will be.
 */
export async function previewStayChange({ db, slug, token, change, now = new Date() }: { db: Db; slug: string; token: string; change: StayChange; now?: Date }) {
  const { tenant, reservation: r } = await changeable(db, slug, token, now);
  const { reservation: u } = await previewReservationUpdate({ db, tenant, id: r.id, input: change });
  return {
    stay: { check_in: u.checkIn, check_out: u.checkOut, nights: daysBetween(u.checkIn, u.checkOut), adults: u.adults, children: u.children },
    total: { amount: u.netAmount + u.taxAmount, currency: u.currency } satisfies Money,
    before: { amount: r.netAmount + r.taxAmount, currency: r.currency } satisfies Money,
    unchanged: u.checkIn === r.checkIn && u.checkOut === r.checkOut && u.adults === r.adults && u.children === r.children,
  };
}

/**
 * The guest changes the dates or the party: the desk's modification (the same checks, nights
 * moved, folio re-priced, `reservation.updated`, `inventory.updated`, the trail and the change
 * e-mail), by the booking engine. `expectedTotal` is the price the guest was shown: if the stay
 * would now cost something else (a rate changed meanwhile), nothing changes and the guest is
 * shown the new price again.
 */
export async function changeStay({ db, slug, token, change, expectedTotal, now = new Date() }: { db: Db; slug: string; token: string; change: StayChange; expectedTotal: number; now?: Date }) {
  const { tenant, reservation: r } = await changeable(db, slug, token, now);
  const preview = await previewReservationUpdate({ db, tenant, id: r.id, input: change });
  if (preview.reservation.netAmount + preview.reservation.taxAmount !== expectedTotal) {
    throw new ApiError("parameter_invalid", "The price of this change has changed; please look at it again.", { param: "total" });
  }
  return updateReservation({ db, tenant, actor: engineActor, id: r.id, input: change });
}

/** The guest adds special requests: to the reservation's notes, where the desk reads them, in the staff's words (as the booking form does). */
export async function addStayRequests({ db, slug, token, requests, now = new Date() }: { db: Db; slug: string; token: string; requests: string; now?: Date }) {
  const { tenant, reservation: r } = await managed(db, slug, token, now);
  if (r.status !== "confirmed") throw new ApiError("invalid_state_transition", `Only a confirmed booking takes requests; this one is ${r.status}.`);
  const notes = [r.notes, `Requests: ${requests}`].filter(Boolean).join("\n");
  if (notes.length > 2000) throw new ApiError("parameter_invalid", "These requests are too long.", { param: "special_requests" });
  return updateReservation({ db, tenant, actor: engineActor, id: r.id, input: { notes } });
}

/**
 * The guest cancels: the desk's cancellation (server/reservations/transitions.ts: the nights given
 * back, the room charges dropped while cancelling is free and kept on the folio as its charge
 * otherwise, `reservation.cancelled`, the trail, the cancellation e-mail), by the booking engine.
 * `expectedFee` is the fee the guest was shown; if cancelling now costs something else (the
 * deadline passed meanwhile), nothing is cancelled and the guest sees the fee again.
 */
export async function cancelStay({ db, slug, token, expectedFee, now = new Date() }: { db: Db; slug: string; token: string; expectedFee: number; now?: Date }) {
  const loaded = await managed(db, slug, token, now);
  const { tenant, reservation: r } = loaded;
  if (r.status !== "confirmed") throw new ApiError("invalid_state_transition", `Only a confirmed booking can be cancelled; this one is ${r.status}.`);
  const fee = cancelFee(loaded, await planOf(db, loaded), now);
  if (fee.amount !== expectedFee) throw new ApiError("parameter_invalid", "The cancellation fee has changed; please look at it again.", { param: "fee" });
  return cancelReservation({ db, tenant, actor: engineActor, id: r.id, reason: "Cancelled by the guest on the booking engine" });
}

/** Why an action was refused, as one of the words the manage page has a sentence for. */
export function manageProblemOf(error: ApiError) {
  if (error.code === "too_many_requests") return "too_many_requests";
  if (error.code === "no_availability") return "no_availability";
  if (error.code === "restriction_violated") return "restricted";
  if (error.code === "invalid_state_transition") return "not_allowed";
  const param = error.param ?? "";
  if (param === "total") return "price_changed";
  if (param === "fee") return "fee_changed";
  if (param === "special_requests") return "requests";
  if (param === "adults" || param === "children") return "party";
  return "dates";
}
export type ManageProblem = ReturnType<typeof manageProblemOf>;
