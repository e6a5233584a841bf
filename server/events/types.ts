/** The 12 event types (specification, Events). */
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
] as const;

export type EventType = (typeof eventTypes)[number];
