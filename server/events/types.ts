/**
 * The 12 event types of the specification (Events), issue 27's (the night audit's, a guest's
 * erasure, groups', a property's settings, taxes' and invoices', and the hotel's setup: a
 * property created, room types, rooms and rate plans created or changed), `guest.updated` (a
 * guest's details changed) and `guest.preferences_updated` (their allergies, room wishes or
 * loyalty data changed) and `credit_note.created` (an issued invoice corrected, issue 35), `payment.disputed` and `payment.dispute_closed` (a cardholder's dispute at Stripe opened and ended, issue 37), so that webhooks and open dashboards learn of every change
 * (docs/decisions.md, "Every change an event").
 */
export const eventTypes = [
  "reservation.created",
  "reservation.updated",
  "reservation.cancelled",
  "reservation.checked_in",
  "reservation.checked_out",
  "payment.succeeded",
  "payment.failed",
  "payment.refunded",
  "guest.created",
  "housekeeping.status_changed",
  "rate.updated",
  "inventory.updated",
  "night_audit.completed",
  "guest.erased",
  "group.created",
  "group.cancelled",
  "property.updated",
  "tax.created",
  "tax.updated",
  "invoice.created",
  "guest.updated",
  "guest.preferences_updated",
  "property.created",
  "room_type.created",
  "room_type.updated",
  "room.created",
  "room.updated",
  "room.retired",
  "rate_plan.created",
  "rate_plan.updated",
  "credit_note.created",
  "payment.disputed",
  "payment.dispute_closed",
] as const;

export type EventType = (typeof eventTypes)[number];

/**
 * The test event the dashboard sends to one endpoint ("Send test event"): signed and recorded
 * like any delivery, but not one of the event types above: never fanned out, listed or backfilled.
 */
export const testEventType = "ping";
