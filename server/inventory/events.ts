import type { Executor } from "@/db/client";
import { emitEvent } from "@/server/events/emit";
import type { IsoDate } from "@/lib/dates";
import type { Tenant } from "@/server/tenancy";

/** The range whose availability changed; `to` is exclusive, null for "from then on". */
export type InventoryRange = { propertyId: string; roomTypeId: string; from: IsoDate; to: IsoDate | null };

export const presentInventoryRange = (r: InventoryRange) => ({
  object: "inventory_range",
  property_id: r.propertyId,
  room_type_id: r.roomTypeId,
  from: r.from,
  to: r.to,
});

/** One `inventory.updated` per change of availability (contract §6). */
export function emitInventoryUpdated(tx: Executor, tenant: Tenant, range: InventoryRange) {
  return emitEvent(tx, tenant, { type: "inventory.updated", propertyId: range.propertyId, object: presentInventoryRange(range) });
}
