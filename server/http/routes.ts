import { eventOperations } from "@/server/events/operations";
import { guestOperations } from "@/server/guests/operations";
import { inventoryOperations } from "@/server/inventory/operations";
import { propertyOperations } from "@/server/properties/operations";
import { rateOperations } from "@/server/rates/operations";
import { reservationOperations } from "@/server/reservations/operations";
import { roomOperations } from "@/server/rooms/operations";
import { sandboxOperations } from "@/server/sandbox/operations";
import type { AnyOperation } from "./operation";

/** Every `/v1` operation, in the order the OpenAPI document lists them. */
export const operations: AnyOperation[] = [
  ...propertyOperations,
  ...roomOperations,
  ...rateOperations,
  ...inventoryOperations,
  ...reservationOperations,
  ...guestOperations,
  ...eventOperations,
  ...sandboxOperations,
];
