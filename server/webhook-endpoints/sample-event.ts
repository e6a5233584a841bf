import { and, desc, eq, isNotNull, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Executor } from "@/db/client";
import { creditNotes, groups, guestPreferences, guests, invoices, nightAudits, payments, properties, ratePlans, refunds, reservations, rooms, roomTypes, taxes } from "@/db/schema";
import { addDays, todayIn } from "@/lib/dates";
import type { EventType } from "@/server/events/types";
import { loadGroup } from "@/server/groups/groups";
import { presentGroup } from "@/server/groups/present";
import { anonymisedGuest, presentGuest, presentPreferences } from "@/server/guests/present";
import { getProperty } from "@/server/properties/properties";
import { presentProperty } from "@/server/properties/present";
import { presentInventoryRange } from "@/server/inventory/events";
import { presentNightAudit } from "@/server/night-audit/present";
import { presentPayment } from "@/server/folios/payment-present";
import { presentRatePlan } from "@/server/rates/present";
import { presentReservation } from "@/server/reservations/present";
import { presentRoom, presentRoomType } from "@/server/rooms/present";
import { getRoomType } from "@/server/rooms/room-types";
import { presentCreditNote, presentInvoice } from "@/server/invoices/present";
import { presentTax } from "@/server/taxes/present";
import { ownedBy, type Tenant } from "@/server/tenancy";

type Sample = { propertyId: string | null; object: Record<string, unknown> };
type Table = PgTable & { accountId: PgColumn; livemode: PgColumn; id: PgColumn; createdAt: PgColumn };

/** The tenant's newest row of a table, within its granted properties. */
async function newest<T extends Table>(db: Executor, table: T, tenant: Tenant, where?: SQL): Promise<T["$inferSelect"] | undefined> {
  const [row] = await db
    .select()
    .from(table as PgTable)
    .where(ownedBy(table, tenant, where))
    .orderBy(desc(table.createdAt), desc(table.id))
    .limit(1);
  return row as T["$inferSelect"] | undefined;
}

/** What each event type is about, in words, for the answer when there is nothing to sample. */
export const sampleSource: Record<EventType, string> = {
  "reservation.created": "reservation",
  "reservation.updated": "reservation",
  "reservation.cancelled": "reservation",
  "reservation.checked_in": "reservation",
  "reservation.checked_out": "reservation",
  "payment.succeeded": "payment",
  "payment.failed": "payment",
  "payment.refunded": "refund",
  "guest.created": "guest",
  "housekeeping.status_changed": "room",
  "rate.updated": "rate plan",
  "inventory.updated": "room type",
  "night_audit.completed": "night audit",
  "guest.erased": "guest",
  "group.created": "group",
  "group.cancelled": "group",
  "property.updated": "property",
  "tax.created": "tax",
  "tax.updated": "tax",
  "invoice.created": "invoice",
  "guest.updated": "guest",
  "guest.preferences_updated": "guest",
  "property.created": "property",
  "room_type.created": "room type",
  "room_type.updated": "room type",
  "room.created": "room",
  "room.updated": "room",
  "room.retired": "room",
  "rate_plan.created": "rate plan",
  "rate_plan.updated": "rate plan",
  "credit_note.created": "credit note",
  "payment.disputed": "payment",
  "payment.dispute_closed": "payment",
};

/**
 * A sample `data.object` for an event type, built from the environment's own newest object of
 * that kind and presented exactly as a real event of the type presents it, so a receiver sees
 * the shape it will get. Undefined when the environment has no such object yet.
 */
export async function sampleObject(db: Executor, tenant: Tenant, type: EventType): Promise<Sample | undefined> {
  switch (type) {
    case "reservation.created":
    case "reservation.updated":
    case "reservation.cancelled":
    case "reservation.checked_in":
    case "reservation.checked_out": {
      const reservation = await newest(db, reservations, tenant);
      if (!reservation) return undefined;
      const [guest] = await db.select().from(guests).where(eq(guests.id, reservation.guestId)).limit(1);
      return { propertyId: reservation.propertyId, object: presentReservation({ reservation, guest }) };
    }
    case "payment.succeeded":
    case "payment.failed": {
      const payment = await newest(db, payments, tenant);
      return payment && { propertyId: payment.propertyId, object: presentPayment(payment) };
    }
    case "payment.disputed":
    case "payment.dispute_closed": {
      // The newest disputed payment; else the newest payment, to show the event's shape.
      const payment = (await newest(db, payments, tenant, isNotNull(payments.disputeId))) ?? (await newest(db, payments, tenant));
      return payment && { propertyId: payment.propertyId, object: presentPayment(payment) };
    }
    case "payment.refunded": {
      const refund = await newest(db, refunds, tenant);
      if (!refund) return undefined;
      const [payment] = await db.select().from(payments).where(and(eq(payments.id, refund.paymentId), ownedBy(payments, tenant))).limit(1);
      return payment && { propertyId: payment.propertyId, object: { ...presentPayment(payment), refund_id: refund.id } };
    }
    case "guest.created":
    case "guest.updated": {
      const guest = await newest(db, guests, tenant);
      return guest && { propertyId: null, object: presentGuest(guest) };
    }
    case "guest.preferences_updated": {
      // The preferences set most recently, as GET answers them; else the newest guest's (none set yet).
      const [set] = await db
        .select({ guest: guests, prefs: guestPreferences })
        .from(guestPreferences)
        .innerJoin(guests, eq(guests.id, guestPreferences.guestId))
        .where(ownedBy(guests, tenant))
        .orderBy(desc(guestPreferences.updatedAt), desc(guestPreferences.guestId))
        .limit(1);
      if (set) return { propertyId: null, object: presentPreferences(set.guest, set.prefs) };
      const guest = await newest(db, guests, tenant);
      return guest && { propertyId: null, object: presentPreferences(guest, undefined) };
    }
    case "housekeeping.status_changed": {
      const room = await newest(db, rooms, tenant);
      return room && { propertyId: room.propertyId, object: { ...presentRoom(room), previous_status: room.housekeepingStatus } };
    }
    case "room.created":
    case "room.updated": {
      const room = await newest(db, rooms, tenant);
      return room && { propertyId: room.propertyId, object: presentRoom(room) };
    }
    case "room.retired": {
      // The newest retired room; else the newest room as its retirement would leave it (retired_at
      // now), so that a hotel that never retired one still gets the event's shape.
      const room = (await newest(db, rooms, tenant, isNotNull(rooms.retiredAt))) ?? (await newest(db, rooms, tenant));
      return room && { propertyId: room.propertyId, object: presentRoom({ ...room, retiredAt: room.retiredAt ?? new Date() }) };
    }
    case "room_type.created":
    case "room_type.updated": {
      const roomType = await newest(db, roomTypes, tenant);
      return roomType && { propertyId: roomType.propertyId, object: presentRoomType(await getRoomType({ db, tenant, id: roomType.id })) };
    }
    case "rate_plan.created":
    case "rate_plan.updated":
    case "rate.updated": {
      const plan = await newest(db, ratePlans, tenant);
      return plan && { propertyId: plan.propertyId, object: presentRatePlan(plan) };
    }
    case "inventory.updated": {
      const roomType = await newest(db, roomTypes, tenant);
      if (!roomType) return undefined;
      const [property] = await db.select({ timezone: properties.timezone }).from(properties).where(eq(properties.id, roomType.propertyId)).limit(1);
      const from = todayIn(property.timezone);
      return { propertyId: roomType.propertyId, object: presentInventoryRange({ propertyId: roomType.propertyId, roomTypeId: roomType.id, from, to: addDays(from, 1) }) };
    }
    case "guest.erased": {
      // Shaped like the real event: the guest as erasure leaves them, with nothing personal.
      const guest = await newest(db, guests, tenant);
      return guest && { propertyId: null, object: presentGuest(anonymisedGuest(guest)) };
    }
    case "night_audit.completed": {
      const audit = await newest(db, nightAudits, tenant);
      return audit && { propertyId: audit.propertyId, object: presentNightAudit(audit) };
    }
    case "group.created":
    case "group.cancelled": {
      const group = await newest(db, groups, tenant);
      return group && { propertyId: group.propertyId, object: presentGroup(await loadGroup(db, tenant, group.id)) };
    }
    case "property.created":
    case "property.updated": {
      const property = await newest(db, properties, tenant);
      return property && { propertyId: property.id, object: presentProperty(await getProperty({ db, tenant, id: property.id })) };
    }
    case "tax.created":
    case "tax.updated": {
      const tax = await newest(db, taxes, tenant);
      if (!tax) return undefined;
      const [property] = await db.select({ currency: properties.currency }).from(properties).where(eq(properties.id, tax.propertyId)).limit(1);
      return { propertyId: tax.propertyId, object: presentTax(tax, property.currency) };
    }
    case "invoice.created": {
      const invoice = await newest(db, invoices, tenant);
      return invoice && { propertyId: invoice.propertyId, object: presentInvoice(invoice) };
    }
    case "credit_note.created": {
      const note = await newest(db, creditNotes, tenant);
      return note && { propertyId: note.propertyId, object: presentCreditNote(note) };
    }
  }
}
