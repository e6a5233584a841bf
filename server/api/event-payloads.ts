import { z } from "@hono/zod-openapi";
import { nightAuditSchema } from "@/server/night-audit/schemas";
import { groupSchema } from "@/server/groups/schemas";
import { creditNoteSchema, invoiceSchema } from "@/server/invoices/schemas";
import { taxSchema } from "@/server/taxes/schemas";
import { guestSchema, preferencesSchema } from "@/server/guests/schemas";
import { propertySchema } from "@/server/properties/schemas";
import { paymentSchema } from "@/server/payments/schemas";
import { rateCalendarSchema, ratePlanSchema } from "@/server/rates/schemas";
import { reservationSchema } from "@/server/reservations/schemas";
import { housekeepingStatuses } from "@/db/schema";
import { roomSchema, roomTypeSchema } from "@/server/rooms/schemas";
import { date, idOf, timestamp } from "@/server/schemas";
import { eventTypes, testEventType, type EventType } from "@/server/events/types";

/**
 * What `data.object` holds for each event type: the very schemas the API answers with, extended
 * where an event carries more (a refund's id, a room's previous status). Emitters present their
 * objects with the same `present…` functions, so the payload and the resource never differ.
 */
const inventoryRangeSchema = z
  .object({
    object: z.literal("inventory_range"),
    property_id: idOf("prop"),
    room_type_id: idOf("rt"),
    from: date,
    to: date.nullable().openapi({ description: "Exclusive; null: from `from` on, with no end." }),
  })
  .openapi("InventoryRange");

const rateCalendarChangeSchema = rateCalendarSchema
  .extend({
    room_type_id: idOf("rt"),
    days_of_week: z.array(z.number().int().min(0).max(6)).nullable().openapi({ description: "The weekdays the change applied to (0 = Sunday); null: every day." }),
  })
  .openapi("RateCalendarChange", { description: "Daily rates set over a range (`POST /rate_plans/{id}/rates`): the range as it now stands." });

const eventPayloads = {
  "reservation.created": reservationSchema,
  "reservation.updated": reservationSchema,
  "reservation.cancelled": reservationSchema,
  "reservation.checked_in": reservationSchema,
  "reservation.checked_out": reservationSchema,
  "payment.succeeded": paymentSchema,
  "payment.failed": paymentSchema,
  "payment.refunded": paymentSchema
    .extend({ refund_id: idOf("re").openapi({ description: "The refund that this event announces." }) })
    .openapi("RefundedPayment", { description: "The payment after the refund, with the refund's id." }),
  "guest.created": guestSchema,
  "housekeeping.status_changed": roomSchema
    .extend({ previous_status: z.enum(housekeepingStatuses) })
    .openapi("RoomStatusChange", { description: "The room after the change, with the status it left." }),
  "rate.updated": z
    .union([ratePlanSchema, rateCalendarChangeSchema])
    .openapi({ description: "A rate plan created or changed (`object: rate_plan`), or daily rates set over a range (`object: rate_calendar`)." }),
  "inventory.updated": inventoryRangeSchema,
  "night_audit.completed": nightAuditSchema,
  "guest.erased": guestSchema.openapi({ description: "The guest after erasure: anonymised names, no contact; the event carries no personal data." }),
  "group.created": groupSchema,
  "group.cancelled": groupSchema,
  "property.updated": propertySchema,
  "tax.created": taxSchema,
  "tax.updated": taxSchema,
  "invoice.created": invoiceSchema,
  "guest.updated": guestSchema,
  // Exactly as `GET /guests/{id}/preferences` answers after the change (the guest is `guest_id`).
  "guest.preferences_updated": preferencesSchema,
  // The hotel's setup: each object exactly as its `GET` answers it after the change.
  "property.created": propertySchema,
  "room_type.created": roomTypeSchema,
  "room_type.updated": roomTypeSchema,
  "room.created": roomSchema,
  "room.updated": roomSchema,
  "room.retired": roomSchema,
  "rate_plan.created": ratePlanSchema,
  "rate_plan.updated": ratePlanSchema,
  "credit_note.created": creditNoteSchema,
  // A cardholder's dispute at Stripe, on the payment as `GET /payments/{id}` answers it (its `dispute`).
  "payment.disputed": paymentSchema,
  "payment.dispute_closed": paymentSchema,
} satisfies Record<EventType, z.ZodType>;

const pingSchema = z
  .object({
    object: z.literal("ping"),
    endpoint_id: idOf("we"),
    message: z.string(),
  })
  .openapi("Ping", { description: "The dashboard's test event: sent to one endpoint, never listed under `/events`, never backfilled." });

const pascal = (type: string) => type.replace(/(^|[._])(\w)/g, (_, __, c: string) => c.toUpperCase());

/** The envelope of one event type, `data.object` typed. */
function envelope<T extends string>(type: T, object: z.ZodType) {
  return z
    .object({
      id: idOf("evt"),
      object: z.literal("event"),
      type: z.literal(type),
      created_at: timestamp,
      api_version: z.string().openapi({ example: "2025-09-01", description: "The API version the payload follows: the account's pinned version." }),
      livemode: z.boolean(),
      property_id: z.string().nullable(),
      data: z.object({ object }),
    })
    .openapi(`${pascal(type)}Event`);
}

/** One envelope per type, keyed by type: the event log's (the specification's 12, issue 27's and the setup's) and `ping`. */
export const eventEnvelopes = {
  ...(Object.fromEntries(eventTypes.map((type) => [type, envelope(type, eventPayloads[type])])) as Record<EventType, ReturnType<typeof envelope>>),
  [testEventType]: envelope(testEventType, pingSchema),
};

const logged = eventTypes.map((type) => eventEnvelopes[type]) as [ReturnType<typeof envelope>, ...ReturnType<typeof envelope>[]];

/** An event of the log (`GET /events`): a union discriminated by `type`. */
export const eventSchema = z.discriminatedUnion("type", logged).openapi("Event");
