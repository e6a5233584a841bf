import { eventOperations } from "./event-operations";
import { bookingOperations } from "@/server/bookings/operations";
import { bookingEngineOperations } from "@/server/booking-engine/operations";
import { groupOperations } from "@/server/groups/operations";
import { guestDataOperations } from "@/server/guest-data/operations";
import { guestOperations, guestPreferenceOperations } from "@/server/guests/operations";
import { housekeepingOperations } from "@/server/housekeeping/operations";
import { inventoryOperations } from "@/server/inventory/operations";
import { nightAuditOperations } from "@/server/night-audit/operations";
import { paymentOperations } from "@/server/payments/operations";
import { processorOperations } from "@/server/processors/operations";
import { propertyOperations } from "@/server/properties/operations";
import { rateOperations } from "@/server/rates/operations";
import { reportOperations } from "@/server/reports/operations";
import { reservationOperations } from "@/server/reservations/operations";
import { roomOperations } from "@/server/rooms/operations";
import { sandboxOperations } from "@/server/sandbox/operations";
import { invoiceOperations } from "@/server/invoices/operations";
import { receivableOperations } from "@/server/receivables/operations";
import { taxOperations } from "@/server/taxes/operations";
import { webhookOperations } from "@/server/webhook-endpoints/operations";
import type { AnyOperation } from "@/server/http/operation";

/** Every `/v1` operation, in the order the OpenAPI document lists them. */
export const operations: AnyOperation[] = [
  ...propertyOperations,
  ...bookingEngineOperations,
  ...roomOperations,
  ...rateOperations,
  ...inventoryOperations,
  ...reservationOperations,
  ...bookingOperations,
  ...groupOperations,
  ...guestOperations,
  ...guestDataOperations,
  ...guestPreferenceOperations,
  ...paymentOperations,
  ...processorOperations,
  ...housekeepingOperations,
  ...taxOperations,
  ...invoiceOperations,
  ...receivableOperations,
  ...reportOperations,
  ...nightAuditOperations,
  ...eventOperations,
  ...webhookOperations,
  ...sandboxOperations,
];
