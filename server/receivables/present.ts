import type { Receivable } from "./receivables";

/** An open balance in the API's shape. */
export const presentReceivable = (r: Receivable) => ({
  object: "receivable" as const,
  livemode: r.livemode,
  folio_id: r.id,
  property_id: r.propertyId,
  kind: r.kind,
  amount: { amount: r.balance, currency: r.currency },
  guest: r.guest,
  group: r.group,
  stay: { reservation_id: r.stay.reservationId, status: r.stay.status, check_in: r.stay.checkIn, check_out: r.stay.checkOut },
  invoice_id: r.invoiceId,
  due_date: r.dueDate,
  age_days: r.ageDays,
  bucket: r.bucket,
});

export type PresentedReceivable = ReturnType<typeof presentReceivable>;
