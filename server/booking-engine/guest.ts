import { createHash, randomBytes } from "node:crypto";
import { and, eq, isNotNull, isNull, lt } from "drizzle-orm";
import type { Db, Executor } from "@/db/client";
import { bookingEngines, bookingSessions, guests, inventoryHolds, properties, ratePlans, reservations, roomTypes, type PlanFee } from "@/db/schema";
import { inTransaction } from "@/db/transactions";
import { daysBetween, type IsoDate } from "@/lib/dates";
import type { Money } from "@/lib/money";
import type { AuditActor } from "@/server/audit/audit";
import { ApiError } from "@/server/errors";
import { parseOrThrow } from "@/server/http/validation";
import { newId } from "@/server/ids";
import { getAvailability } from "@/server/inventory/availability";
import { holdRooms, unholdRooms } from "@/server/inventory/inventory";
import { feeAmount } from "@/server/rates/fees";
import { assertBookable, bookStay } from "@/server/reservations/create-reservation";
import { reservationCreateSchema } from "@/server/reservations/schemas";
import { isGuestLocale } from "@/lib/guest-locale";
import { ownedBy, tenantValues, type Tenant } from "@/server/tenancy";
import { managePath, manageTokenOf } from "./link";
import { slugSchema, type EngineBooking, type EngineChoice, type EngineSearch } from "./schemas";

/** Who books on the engine, on the trail: a guest on the public page, never a staff member. */
export const engineActor: AuditActor = { type: "booking_engine", id: "booking_engine", name: null };

/** How long a chosen room is held while the guest fills the form. */
export const holdMinutes = 15;

type Property = typeof properties.$inferSelect;
type Plan = typeof ratePlans.$inferSelect;

const noEngine = () => new ApiError("resource_missing", "There is no booking page at this address.", { param: "slug", location: "path" });

/**
 * The engine at `/book/<slug>` and its property, switched on, or 404: a slug that is not even
 * well-formed, one no hotel has, and one whose hotel switched its engine off all look alike. The
 * tenant it answers is confined to that one property.
 */
export async function engineBySlug(db: Executor, slug: string) {
  if (!slugSchema.safeParse(slug).success) throw noEngine();
  const [found] = await db
    .select({ engine: bookingEngines, property: properties })
    .from(bookingEngines)
    .innerJoin(properties, eq(properties.id, bookingEngines.propertyId))
    .where(and(eq(bookingEngines.slug, slug), eq(bookingEngines.enabled, true)));
  if (!found) throw noEngine();
  const tenant: Tenant = { accountId: found.property.accountId, livemode: found.property.livemode, propertyIds: [found.property.id] };
  return { ...found, tenant };
}

/** What the property tells guests about itself: its name, address, clock and money. */
export const presentHotel = (p: Property) => ({
  name: p.name,
  address: p.address,
  currency: p.currency,
  timezone: p.timezone,
  check_in_time: p.checkInTime,
  check_out_time: p.checkOutTime,
});

/**
 * A rate plan's terms as data for the guest's language: refundable or not, until when a
 * cancellation is free (the hotel's wall clock: the deadline counts back from the start of the
 * arrival day, as server/reservations/transitions.ts does), and what a no-show costs.
 */
export function policyOf(plan: Plan, checkIn: IsoDate, nightly: { date: string; amount: number }[], currency: string) {
  const deadline = new Date(Date.parse(`${checkIn}T00:00:00Z`) - plan.cancellationDeadlineHours * 3_600_000).toISOString().slice(0, 16);
  const wholeStay = nightly.reduce((sum, n) => sum + n.amount, 0);
  const noShow: number = plan.noShowFee ? feeAmount(plan.noShowFee as PlanFee, nightly) : plan.refundable ? 0 : wholeStay;
  return {
    refundable: plan.refundable,
    free_cancellation_until: plan.refundable ? deadline : null,
    no_show_fee: noShow ? ({ amount: noShow, currency } satisfies Money) : null,
  };
}

async function detailsOf(db: Executor, tenant: Tenant, propertyId: string) {
  const [types, plans] = await Promise.all([
    db.select().from(roomTypes).where(ownedBy(roomTypes, tenant, eq(roomTypes.propertyId, propertyId))),
    db.select().from(ratePlans).where(ownedBy(ratePlans, tenant, eq(ratePlans.propertyId, propertyId))),
  ]);
  return { types: new Map(types.map((t) => [t.id, t])), plans: new Map(plans.map((p) => [p.id, p])) };
}

/**
 * A guest's search: the room types free on every night of the stay and, under each, the rate
 * plans the engine sells that the stay can be booked on, priced as the folio would charge them
 * (the availability quotes of GET /v1/availability, nothing priced twice). A quote the inventory
 * or the rate restrictions refuse is left out; `notice` says why nothing is left, if so.
 */
export async function searchStays({ db, slug, query, now = new Date() }: { db: Db; slug: string; query: EngineSearch; now?: Date }) {
  const { engine, property, tenant } = await engineBySlug(db, slug);
  await sweepAbandoned(db, property.id, now);
  const [availability, details] = await Promise.all([
    getAvailability({ db, tenant, query: { property_id: property.id, ...query } }),
    detailsOf(db, tenant, property.id),
  ]);
  const sold = new Set(engine.ratePlanIds);
  const guests = query.adults + query.children;
  const rooms = availability.data
    .map((type) => {
      const row = details.types.get(type.room_type_id)!;
      const offers = type.quotes
        .filter((q) => q.bookable && sold.has(q.rate_plan_id))
        .map((q) => {
          const plan = details.plans.get(q.rate_plan_id)!;
          return {
            rate_plan_id: plan.id,
            name: plan.name,
            meal_plan: plan.mealPlan,
            price: q.price,
            nightly: q.nightly,
            policy: policyOf(plan, query.check_in, q.nightly, property.currency),
          };
        })
        .sort((a, b) => a.price.gross.amount - b.price.gross.amount);
      return { room_type_id: type.room_type_id, name: row.name, description: row.description, beds: row.beds, max_occupancy: row.maxOccupancy, amenities: row.amenities, available: type.available, offers };
    })
    .filter((room) => room.offers.length)
    .sort((a, b) => a.offers[0].price.gross.amount - b.offers[0].price.gross.amount);
  const fits = availability.data.some((t) => t.max_occupancy >= guests);
  return {
    object: "booking_search" as const,
    hotel: presentHotel(property),
    stay: { check_in: query.check_in, check_out: query.check_out, nights: availability.nights, adults: query.adults, children: query.children },
    rooms,
    notice: rooms.length ? null : fits ? ("unavailable" as const) : ("party_too_large" as const),
  };
}

const tokenHash = (token: string) => createHash("sha256").update(token).digest("hex");

/**
 * A guest chose a room and a rate: checked as a booking would be (the engine sells that plan,
 * the stay is bookable on it), then one room of the type is held for `holdMinutes` while they
 * fill the form (409 `no_availability` when the last one went a moment before). Answers the
 * form's token, shown to no one but that guest's browser.
 */
export async function openSession({ db, slug, choice, now = new Date() }: { db: Db; slug: string; choice: EngineChoice; now?: Date }) {
  const { engine, property, tenant } = await engineBySlug(db, slug);
  if (!engine.ratePlanIds.includes(choice.rate_plan_id)) {
    throw new ApiError("parameter_invalid", "This rate is not offered here.", { param: "rate_plan_id" });
  }
  await sweepAbandoned(db, property.id, now);
  const stay = { check_in: choice.check_in, check_out: choice.check_out, adults: choice.adults, children: choice.children };
  const availability = await getAvailability({ db, tenant, query: { property_id: property.id, ...stay, room_type_id: choice.room_type_id } });
  const quote = availability.data[0]?.quotes.find((q) => q.rate_plan_id === choice.rate_plan_id);
  if (!quote) throw new ApiError("parameter_invalid", "This rate is not offered for this room.", { param: "rate_plan_id" });
  if (quote.reason === "max_occupancy") throw new ApiError("parameter_invalid", "This room does not sleep so many guests.", { param: "adults" });
  if (quote.reason === "no_availability") throw new ApiError("no_availability", "No room of this type is free for every night of the stay.", { param: "room_type_id" });
  if (quote.reason) throw new ApiError("restriction_violated", "This rate cannot be booked for these dates.", { param: "rate_plan_id" });
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + holdMinutes * 60_000);
  await inTransaction(db, async (tx) => {
    const hold = await holdRooms(tx, { tenant, actor: engineActor }, { propertyId: property.id, roomTypeId: choice.room_type_id, from: choice.check_in, to: choice.check_out, rooms: 1 }).catch(
      (error: unknown) => {
        // The last room went to another guest between the quote and the hold: the same answer as the quote's.
        if (error instanceof ApiError && error.code === "no_availability") throw new ApiError("no_availability", "No room of this type is free for every night of the stay.", { param: "room_type_id" });
        throw error;
      },
    );
    await tx.insert(bookingSessions).values({
      id: newId("bookingSession"),
      ...tenantValues(tenant),
      propertyId: property.id,
      roomTypeId: choice.room_type_id,
      ratePlanId: choice.rate_plan_id,
      checkIn: choice.check_in,
      checkOut: choice.check_out,
      adults: choice.adults,
      children: choice.children,
      tokenHash: tokenHash(token),
      // The pages' language when the room was chosen: the booking's e-mails speak it.
      locale: isGuestLocale(choice.lang) ? choice.lang : "en",
      holdId: hold.id,
      createdAt: now,
      expiresAt,
    });
  });
  return { token, expires_at: expiresAt.toISOString() };
}

/** Gives a session's held room back, inside the caller's transaction (the session locked by it). */
async function releaseHeld(tx: Executor, tenant: Tenant, session: typeof bookingSessions.$inferSelect) {
  if (!session.holdId) return;
  const [hold] = await tx.select().from(inventoryHolds).where(eq(inventoryHolds.id, session.holdId)).for("update");
  if (hold && !hold.releasedAt) await unholdRooms(tx, { tenant, actor: engineActor }, hold);
  await tx.update(bookingSessions).set({ holdId: null }).where(eq(bookingSessions.id, session.id));
}

/** The guest left the form (or changed their mind): the held room goes back on sale at once. Answers whether a hold was released. */
export async function releaseSession({ db, token }: { db: Db; token: string }) {
  return inTransaction(db, async (tx) => {
    const [session] = await tx.select().from(bookingSessions).where(eq(bookingSessions.tokenHash, tokenHash(token))).for("update");
    if (!session || !session.holdId || session.reservationId) return { released: false };
    await releaseHeld(tx, { accountId: session.accountId, livemode: session.livemode, propertyIds: [session.propertyId] }, session);
    return { released: true };
  });
}

/** Sessions whose hold's time ran out unbooked, oldest first: of one property, or of every property (the timed sweep). */
const overdue = (db: Db, now: Date, limit: number, propertyId?: string) =>
  db
    .select({ id: bookingSessions.id, accountId: bookingSessions.accountId, livemode: bookingSessions.livemode, propertyId: bookingSessions.propertyId })
    .from(bookingSessions)
    .where(
      and(
        propertyId ? eq(bookingSessions.propertyId, propertyId) : undefined,
        isNotNull(bookingSessions.holdId),
        isNull(bookingSessions.reservationId),
        lt(bookingSessions.expiresAt, now),
      ),
    )
    .orderBy(bookingSessions.expiresAt)
    .limit(limit);

/** Gives one overdue session's room back, unless another request holds the session (it is finishing it) or booked it meanwhile. */
async function releaseOverdue(db: Db, due: { id: string; accountId: string; livemode: boolean; propertyId: string }) {
  const tenant: Tenant = { accountId: due.accountId, livemode: due.livemode, propertyIds: [due.propertyId] };
  return inTransaction(db, async (tx) => {
    const [session] = await tx.select().from(bookingSessions).where(and(eq(bookingSessions.id, due.id), isNotNull(bookingSessions.holdId))).for("update", { skipLocked: true });
    if (!session || session.reservationId) return false;
    await releaseHeld(tx, tenant, session);
    return true;
  });
}

/**
 * Forms abandoned past their time give their rooms back: run before each search and choice of the
 * property, so a room left held by a closed tab is on sale again for the next guest who looks.
 * Sessions another request is finishing are skipped, not waited for.
 */
export async function sweepAbandoned(db: Db, propertyId: string, now = new Date()) {
  const due = await overdue(db, now, 20, propertyId);
  for (const row of due) await releaseOverdue(db, row);
  return due.length;
}

/**
 * The timed sweep (server/booking-engine/sweeper.ts): abandoned forms of every property, a
 * property nobody searches included, up to `limit` a round. Answers how many rooms went back.
 */
export async function sweepAllAbandoned(db: Db, now = new Date(), limit = 200) {
  let released = 0;
  for (const row of await overdue(db, now, limit)) if (await releaseOverdue(db, row)) released++;
  return released;
}

async function sessionOf(db: Executor, propertyId: string, token: string, lock = false) {
  const query = db
    .select()
    .from(bookingSessions)
    .where(and(eq(bookingSessions.tokenHash, tokenHash(token)), eq(bookingSessions.propertyId, propertyId)));
  const [session] = await (lock ? query.for("update") : query);
  if (!session) throw new ApiError("resource_missing", "This booking form is unknown or has expired; choose your room again.", { param: "token" });
  return session;
}

/** What the guest chose, as the details page shows it: the room, the rate, the price, the terms, and until when the room is held. */
export async function getSession({ db, slug, token, now = new Date() }: { db: Db; slug: string; token: string; now?: Date }) {
  const { property, tenant } = await engineBySlug(db, slug);
  const session = await sessionOf(db, property.id, token);
  const [availability, details] = await Promise.all([
    getAvailability({
      db,
      tenant,
      query: { property_id: property.id, check_in: session.checkIn, check_out: session.checkOut, adults: session.adults, children: session.children, room_type_id: session.roomTypeId },
    }).catch(() => null),
    detailsOf(db, tenant, property.id),
  ]);
  const quote = availability?.data[0]?.quotes.find((q) => q.rate_plan_id === session.ratePlanId);
  const type = details.types.get(session.roomTypeId)!;
  const plan = details.plans.get(session.ratePlanId)!;
  return {
    hotel: presentHotel(property),
    stay: { check_in: session.checkIn, check_out: session.checkOut, nights: daysBetween(session.checkIn, session.checkOut), adults: session.adults, children: session.children },
    room: { name: type.name, description: type.description },
    rate: { name: plan.name, meal_plan: plan.mealPlan },
    price: quote?.price ?? null,
    policy: quote ? policyOf(plan, session.checkIn, quote.nightly, property.currency) : null,
    held_until: session.holdId ? session.expiresAt.toISOString() : null,
    /** Whole minutes the room is still held for (at least 1 while held); null once released. */
    held_minutes: session.holdId && session.expiresAt > now ? Math.max(1, Math.ceil((session.expiresAt.getTime() - now.getTime()) / 60_000)) : null,
    booked: !!session.reservationId,
  };
}

/** Notes for the desk from what the guest added: their arrival time and requests, in the staff's words. */
const deskNotes = (input: EngineBooking) =>
  [input.arrival_time ? `Expected arrival: ${input.arrival_time}` : null, input.special_requests ? `Requests: ${input.special_requests}` : null].filter(Boolean).join("\n") || null;

/**
 * Books the stay of a guest's form: the honeypot empty and the form not sent faster than a person
 * fills it (`minFillMs` after the room was chosen); then, in one transaction with the session
 * locked, the held room given back and the stay booked by the reservations service (the same
 * checks, events, folio and confirmation e-mail as POST /v1/reservations), `source`
 * `booking_engine` and no channel. A second submit of the same form answers the same booking
 * (`replayed`), however close behind the first it comes.
 */
export async function bookSession({ db, slug, input, now = new Date(), minFillMs, origin }: { db: Db; slug: string; input: EngineBooking; now?: Date; minFillMs: number; origin: string }) {
  const { property, tenant } = await engineBySlug(db, slug);
  if (input.website) throw new ApiError("parameter_invalid", "This form could not be sent. Please try again.", { param: "website" });
  return inTransaction(db, async (tx) => {
    const session = await sessionOf(tx, property.id, input.token, true);
    if (session.reservationId) return { reservationId: session.reservationId, replayed: true };
    if (now.getTime() - session.createdAt.getTime() < minFillMs) {
      throw new ApiError("parameter_invalid", "The form was sent too quickly. Please check your details and send it again.", { param: "token" });
    }
    const booking = parseOrThrow(
      reservationCreateSchema,
      {
        property_id: property.id,
        guest: input.guest,
        check_in: session.checkIn,
        check_out: session.checkOut,
        room_type_id: session.roomTypeId,
        rate_plan_id: session.ratePlanId,
        adults: session.adults,
        children: session.children,
        source: "booking_engine",
        channel: null,
        notes: deskNotes(input),
      },
      "body",
    );
    await assertBookable(tx, tenant, booking);
    await releaseHeld(tx, tenant, session);
    // The link where the guest manages the booking, carried by the confirmation e-mail (in the guest's language).
    const manageToken = manageTokenOf(input.token);
    const manageUrl = `${origin}${managePath(slug, manageToken, session.locale)}`;
    const { reservation } = await bookStay(tx, { tenant, actor: engineActor }, booking, undefined, null, undefined, { guestLocale: session.locale, manageUrl });
    await tx.update(bookingSessions).set({ reservationId: reservation.id, manageTokenHash: tokenHash(manageToken) }).where(eq(bookingSessions.id, session.id));
    return { reservationId: reservation.id, replayed: false };
  });
}

/** The booking a guest's form became, as the confirmation page shows it; 404 before it is booked. */
export async function getConfirmation({ db, slug, token }: { db: Db; slug: string; token: string }) {
  const { property, tenant } = await engineBySlug(db, slug);
  const session = await sessionOf(db, property.id, token);
  if (!session.reservationId) throw new ApiError("resource_missing", "This booking is not confirmed yet.", { param: "token" });
  const [[reservation], details] = await Promise.all([
    db.select().from(reservations).where(ownedBy(reservations, tenant, eq(reservations.id, session.reservationId))),
    detailsOf(db, tenant, property.id),
  ]);
  const [guest] = await db.select({ firstName: guests.firstName }).from(guests).where(eq(guests.id, reservation.guestId));
  const type = details.types.get(reservation.roomTypeId)!;
  const plan = details.plans.get(reservation.ratePlanId)!;
  return {
    hotel: presentHotel(property),
    /** The booking's reference: the reservation id's own part, which the desk finds a booking by. */
    reference: referenceOf(reservation.id),
    status: reservation.status,
    guest_first_name: guest?.firstName ?? "",
    stay: { check_in: reservation.checkIn, check_out: reservation.checkOut, nights: daysBetween(reservation.checkIn, reservation.checkOut), adults: reservation.adults, children: reservation.children },
    room: { name: type.name },
    rate: { name: plan.name, meal_plan: plan.mealPlan },
    total: { amount: reservation.netAmount + reservation.taxAmount, currency: reservation.currency } satisfies Money,
    tax: { amount: reservation.taxAmount, currency: reservation.currency } satisfies Money,
    policy: policyOf(plan, reservation.checkIn, reservation.nightly, reservation.currency),
    /** The manage page's address (the confirmation e-mail carries the same link). */
    manage_path: managePath(slug, manageTokenOf(token), session.locale),
  };
}

export const referenceOf = (reservationId: string) => reservationId.replace(/^res_/, "").toUpperCase().slice(-10);
