import { guestOperations } from "@/server/guests/operations";
import { propertyOperations } from "@/server/properties/operations";
import type { AnyOperation } from "./operation";

/** Every `/v1` operation, in the order the OpenAPI document lists them. */
export const operations: AnyOperation[] = [...propertyOperations, ...guestOperations];
