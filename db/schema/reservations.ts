import { sql } from "drizzle-orm";
import { date, index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { tenantColumns, timestamps, ts } from "./columns";
import type { LineTax } from "./taxes";

export const reservationStatuses = ["confirmed", "checked_in", "checked_out", "cancelled", "no_show"] as const;
export type ReservationStatus = (typeof reservationStatuses)[number];
/**
 * One night of a stay at its price. `room_type_id` only on a night sold in another type than the
 * stay's: one slept before the guest was upgraded in house (migration 0023 reads it).
 */
export type NightlyRate = { date: string; amount: number; room_type_id?: string };

/**
 * A card on file as a stay's guarantee: saved at the property's processor for charges without the
 * guest (a no-show fee, a pre-authorisation at check-in). Never the card's number: the processor's
 * customer and payment method, and what a clerk may see of the card.
 */
export type CardGuarantee = {
  processorId: string;
  customer: string;
  paymentMethod: string;
  setup: string | null;
  /** active: chargeable; requires_action: the guest must still authenticate it (3-D Secure). */
  status: "active" | "requires_action";
  card: { brand: string; last4: string; expMonth: number | null; expYear: number | null } | null;
  /** While `requires_action`: what Stripe.js completes the setup with. */
  clientSecret: string | null;
  createdAt: string;
  /** The payment the night audit charged a no-show or cancellation fee with (or tried to; null: nothing was owed): charged once. */
  feePaymentId?: string | null;
};

export const reservations = pgTable(
  "reservations",
  {
    id: text("id").primaryKey(),
    ...tenantColumns(),
    propertyId: text("property_id").notNull(),
    guestId: text("guest_id").notNull(),
    roomTypeId: text("room_type_id").notNull(),
    ratePlanId: text("rate_plan_id").notNull(),
    roomId: text("room_id"),
    folioId: text("folio_id").notNull(),
    /** The group (several rooms in one booking) the stay belongs to, if any. */
    groupId: text("group_id"),
    status: text("status", { enum: reservationStatuses }).notNull(),
    checkIn: date("check_in").notNull(),
    checkOut: date("check_out").notNull(),
    adults: integer("adults").notNull(),
    children: integer("children").notNull().default(0),
    totalAmount: integer("total_amount").notNull(),
    /** The stay's price as its folio charges it: net and tax of its room nights and per-night taxes (db/migrations/0019). */
    netAmount: integer("net_amount").notNull(),
    taxAmount: integer("tax_amount").notNull().default(0),
    taxes: jsonb("taxes").$type<LineTax[]>().notNull().default([]),
    currency: text("currency").notNull(),
    nightly: jsonb("nightly").$type<NightlyRate[]>().notNull(),
    source: text("source").notNull(),
    channel: text("channel"),
    notes: text("notes"),
    /**
     * The language the guest booked in on the booking engine (en, pt, es, fr, de): their e-mails
     * are written in it. Null for a booking made by staff or through the API (English mails).
     */
    guestLocale: text("guest_locale"),
    metadata: jsonb("metadata").$type<Record<string, string>>().notNull().default({}),
    cancelledAt: ts("cancelled_at"),
    cancellationReason: text("cancellation_reason"),
    checkedInAt: ts("checked_in_at"),
    checkedOutAt: ts("checked_out_at"),
    /** When the stay's late check-out was granted (once per stay). */
    lateCheckOutAt: ts("late_check_out_at"),
    /** The hour the late check-out runs to ("14:00", the hotel's wall clock); null when none was said (db/migrations/0040). */
    lateCheckOutUntil: text("late_check_out_until"),
    /** When check-in was refused for want of a ready room (the hotel's shortfall): the night audit then charges no no-show fee. */
    checkInRefusedAt: ts("check_in_refused_at"),
    /** The card on file, if one was given (db/migrations/0033). */
    guarantee: jsonb("guarantee").$type<CardGuarantee>(),
    /** What the rate plan asked as a deposit at booking, in minor units (null: none); db/migrations/0042. */
    depositAmount: integer("deposit_amount"),
    ...timestamps(),
  },
  (t) => [
    index("reservations_list_idx").on(t.accountId, t.livemode, t.createdAt, t.id),
    index("reservations_property_dates_idx").on(t.propertyId, t.checkIn),
    index("reservations_guest_idx").on(t.guestId),
    index("reservations_stay_idx").on(t.accountId, t.livemode, t.checkIn, t.id),
    index("reservations_id_search_idx").using("gin", sql`${t.id} gin_trgm_ops`),
    index("reservations_group_idx").on(t.groupId),
  ],
);

export const groupBillings = ["master", "individual"] as const;
export type GroupBilling = (typeof groupBillings)[number];

/** Several rooms booked together; `master` billing routes every room to one master folio. */
export const groups = pgTable(
  "groups",
  {
    id: text("id").primaryKey(),
    ...tenantColumns(),
    propertyId: text("property_id").notNull(),
    name: text("name").notNull(),
    billing: text("billing", { enum: groupBillings }).notNull(),
    masterFolioId: text("master_folio_id"),
    notes: text("notes"),
    ...timestamps(),
  },
  (t) => [index("groups_list_idx").on(t.accountId, t.livemode, t.createdAt, t.id)],
);

/**
 * Kinds of folio lines: room nights, extras staff add, the rate plan's fees, and the property's
 * per-night taxes (city tax), posted beside each room night.
 */
export const chargeKinds = ["room_night", "extra", "early_departure_fee", "no_show_fee", "late_check_out_fee", "tax"] as const;
export type ChargeKind = (typeof chargeKinds)[number];

export const folios = pgTable("folios", {
  id: text("id").primaryKey(),
  ...tenantColumns(),
  propertyId: text("property_id").notNull(),
  reservationId: text("reservation_id").notNull(),
  status: text("status", { enum: ["open", "closed"] }).notNull().default("open"),
  currency: text("currency").notNull(),
  closedAt: ts("closed_at"),
  ...timestamps(),
});

export const folioCharges = pgTable(
  "folio_charges",
  {
    id: text("id").primaryKey(),
    ...tenantColumns(),
    folioId: text("folio_id").notNull(),
    /** The stay a room night or fee is for (a master folio holds several); null for extras. */
    reservationId: text("reservation_id"),
    kind: text("kind", { enum: chargeKinds }).notNull(),
    description: text("description").notNull(),
    /** The night a room charge is for; null for extras. */
    date: date("date"),
    /** What the guest pays for the line (gross), tax included. */
    amount: integer("amount").notNull(),
    /** The tax in `amount`; the line's net is `amount - taxAmount`. */
    taxAmount: integer("tax_amount").notNull().default(0),
    taxes: jsonb("taxes").$type<LineTax[]>().notNull().default([]),
    /** The property's business date the line was posted on, set by the database (migration 0027): an extra counts in that day; a room night in its night. */
    postedOn: date("posted_on"),
    /** The credit note this negative line belongs to (migration 0029); null for every other line. */
    creditNoteId: text("credit_note_id"),
    /** The invoice that bills this line (migration 0032): the folio's invoice, or a supplementary invoice of a line posted after it; null until invoiced and on credit note lines. */
    invoiceId: text("invoice_id"),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("folio_charges_folio_idx").on(t.folioId)],
);

/** A guest in house moved from one room to another (the stay's room history). */
export const roomMoves = pgTable(
  "room_moves",
  {
    id: text("id").primaryKey(),
    ...tenantColumns(),
    propertyId: text("property_id").notNull(),
    reservationId: text("reservation_id").notNull(),
    fromRoomId: text("from_room_id").notNull(),
    toRoomId: text("to_room_id").notNull(),
    reason: text("reason"),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("room_moves_reservation_idx").on(t.reservationId, t.createdAt), index("room_moves_list_idx").on(t.accountId, t.livemode, t.createdAt, t.id)],
);
