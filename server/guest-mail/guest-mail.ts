import { and, desc, eq } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { guests, mailOutbox, properties, ratePlans, reservations, rooms, roomTypes, type Address, type GuestMailKind } from "@/db/schema";
import { isGuestLocale } from "@/lib/guest-locale";
import { propertyLocale } from "@/lib/money";
import { findOwned, type Ctx, type Tenant } from "@/server/tenancy";
import { queueMail } from "@/server/events/mail-outbox";
import { cancellationTerms } from "@/server/rates/cancellation";
import { composeGuestMail, policyWords, type ComposedMail, type GuestMailFacts } from "./compose";

/** The address as lines: street lines, then "postal code city", region and country. */
const addressLines = (a: Address) =>
  [a.line1, a.line2, [a.postal_code, a.city].filter(Boolean).join(" "), a.region, a.country].filter((line): line is string => !!line);

type Loaded = {
  facts: GuestMailFacts;
  to: string | null;
  enabled: boolean;
  reservation: typeof reservations.$inferSelect;
  guest: typeof guests.$inferSelect;
  room: typeof rooms.$inferSelect | undefined;
};

/** The rows a stay's guest e-mail is written from. */
export type StayRows = {
  reservation: typeof reservations.$inferSelect;
  guest: typeof guests.$inferSelect;
  property: typeof properties.$inferSelect;
  roomType: typeof roomTypes.$inferSelect;
  plan: typeof ratePlans.$inferSelect;
  room?: typeof rooms.$inferSelect;
  /** The booking engine's link where the guest manages this booking, carried by its confirmation. */
  manageUrl?: string;
};

/** What a stay's guest e-mail (and its registration card) says, from the stay's rows. */
function stayFacts({ reservation: r, guest, property, roomType, plan, room, manageUrl }: StayRows): Loaded {
  const facts: GuestMailFacts = {
    locale: propertyLocale(property.address.country),
    hotel: { name: property.name, address: addressLines(property.address), checkInTime: property.checkInTime, checkOutTime: property.checkOutTime },
    guest: { firstName: guest.firstName, lastName: guest.lastName },
    stay: { checkIn: r.checkIn, checkOut: r.checkOut, adults: r.adults, children: r.children, roomType: roomType.name, ratePlan: plan.name },
    // The stay's price as its folio charges it: the rates with any tax added and the city tax.
    total: { amount: r.netAmount + r.taxAmount, currency: r.currency },
    tax: r.taxAmount,
    plan: { refundable: plan.refundable, cancellationDeadlineHours: plan.cancellationDeadlineHours, noShowFee: plan.noShowFee },
    // As the guest meets them now, on the hotel's business clock: a deadline already past is never promised.
    cancellation: cancellationTerms(plan, r.checkIn, property),
    // A booking made on the booking engine is mailed in the language the guest booked in.
    ...(isGuestLocale(r.guestLocale) && { language: r.guestLocale }),
    ...(manageUrl && { manageUrl }),
  };
  return { facts, to: guest.email, enabled: property.guestEmails && !guest.erasedAt, reservation: r, guest, room };
}

/**
 * Reads what a stay's guest e-mail (and its registration card) says, within the caller's
 * transaction, so a mail queued by a change sees the change.
 */
async function loadStayFacts(db: Executor, tenant: Tenant, reservationId: string): Promise<Loaded> {
  const reservation = await findOwned(db, reservations, tenant, reservationId, "reservation");
  const [[guest], [property], [roomType], [plan], [room]] = await Promise.all([
    db.select().from(guests).where(eq(guests.id, reservation.guestId)),
    db.select().from(properties).where(eq(properties.id, reservation.propertyId)),
    db.select().from(roomTypes).where(eq(roomTypes.id, reservation.roomTypeId)),
    db.select().from(ratePlans).where(eq(ratePlans.id, reservation.ratePlanId)),
    reservation.roomId ? db.select().from(rooms).where(eq(rooms.id, reservation.roomId)) : Promise.resolve([]),
  ]);
  return stayFacts({ reservation, guest, property, roomType, plan, room });
}

/**
 * Queues a reservation's guest e-mail in the change's own transaction (a rolled-back booking
 * mails nobody), through the outbox that sends and retries the platform's mail. None where the
 * property turned guest e-mails off or the guest has no address (a walk-in); a sandbox guest's
 * mail is kept and shown, never sent. A change that holds the stay's rows as they now are (a
 * booking just written) passes them instead of the reservation's id, and nothing is read again.
 */
export async function queueGuestMail(tx: Executor, tenant: Tenant, kind: GuestMailKind, stay: string | StayRows): Promise<string | null> {
  const { facts, to, enabled, reservation } = typeof stay === "string" ? await loadStayFacts(tx, tenant, stay) : stayFacts(stay);
  if (!enabled || !to) return null;
  return queueMail(tx, {
    accountId: tenant.accountId,
    livemode: tenant.livemode,
    to,
    ...composeGuestMail(kind, facts),
    kind,
    guestId: reservation.guestId,
    reservationId: reservation.id,
    hold: !tenant.livemode,
  });
}

/** Exactly what the guest e-mail of this kind would say now, for the dashboard's preview, with whom it would go to. */
export async function previewGuestMail({
  db,
  tenant,
  id,
  kind,
}: Ctx & { id: string; kind: GuestMailKind }): Promise<ComposedMail & { to: string | null; enabled: boolean }> {
  const { facts, to, enabled } = await loadStayFacts(db, tenant, id);
  return { ...composeGuestMail(kind, facts), to, enabled };
}

/** A reservation's guest e-mails, newest first. */
export async function listReservationMail({ db, tenant, id }: Ctx & { id: string }) {
  const r = await findOwned(db, reservations, tenant, id, "reservation");
  return db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.accountId, tenant.accountId), eq(mailOutbox.reservationId, r.id)))
    .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id));
}

/** What the registration card printed at check-in shows: the stay as the guest e-mails tell it, the room, and the guest's contact. */
export async function getRegistrationCard({ db, tenant, id }: Ctx & { id: string }) {
  const { facts, guest, room, reservation } = await loadStayFacts(db, tenant, id);
  return {
    ...facts,
    policy: policyWords(facts),
    nightly: reservation.nightly,
    room: room ? room.number : null,
    contact: { email: guest.email, phone: guest.phone },
    status: reservation.status,
  };
}
