import { and, eq, inArray } from "drizzle-orm";
import { audit, type ChangeCtx } from "@/server/audit/audit";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import {
  dailyRates,
  folioCharges,
  folios,
  groups,
  guestPreferences,
  guests,
  housekeepingAssignments,
  inventoryHolds,
  inventoryNights,
  nightAudits,
  roomMoves,
  properties,
  payments,
  ratePlans,
  refunds,
  reservations,
  roomTypes,
  rooms,
  invoiceCounters,
  invoices,
  taxes,
} from "@/db/schema";
import { ApiError } from "@/server/errors";

import { inTransaction } from "@/db/transactions";
import { seedSandbox } from "./seed-sandbox";

type TenantTable = PgTable & { accountId: PgColumn; livemode: PgColumn };

/**
 * The hotel's data, which a reset wipes. Webhook endpoints and the event log are the
 * developer's own setup and history, and survive a reset.
 */
const sandboxDataTables: TenantTable[] = [
  invoices,
  taxes,
  nightAudits,
  roomMoves,
  refunds,
  payments,
  housekeepingAssignments,
  folioCharges,
  folios,
  reservations,
  groups,
  inventoryHolds,
  inventoryNights,
  dailyRates,
  ratePlans,
  rooms,
  roomTypes,
  guestPreferences,
  guests,
  properties,
  // Not idempotencyKeys: the reset's own key is in flight while it runs, and deleting it made a
  // retried reset run again (wiping what was done since) instead of replaying its answer.
];

/** POST /v1/sandbox/reset: the sandbox returns to the seeded hotel of contract §8. */
export async function resetSandbox({ db, tenant, actor }: ChangeCtx) {
  if (tenant.livemode) {
    throw new ApiError("invalid_environment", "Only the sandbox can be reset; send 'Service-Environment: sandbox'.", { param: "Service-Environment" });
  }
  return inTransaction(db, async (tx) => {
    // The invoice counters of the hotels about to go (keyed by property; the new hotel counts from 1).
    const hotels = tx.select({ id: properties.id }).from(properties).where(and(eq(properties.accountId, tenant.accountId), eq(properties.livemode, false)));
    await tx.delete(invoiceCounters).where(inArray(invoiceCounters.propertyId, hotels));
    for (const table of sandboxDataTables) {
      await tx.delete(table).where(and(eq(table.accountId, tenant.accountId), eq(table.livemode, false)));
    }
    const hotel = await seedSandbox({ db: tx, accountId: tenant.accountId });
    // One entry for the whole reset (on the account's trail, in the sandbox), not one per seeded row.
    await audit(tx, { tenant, actor }, { action: "account.sandbox_reset", objectType: "account", objectId: tenant.accountId, after: { property_id: hotel.property.id } });
    return { object: "sandbox_reset" as const, livemode: false, property_id: hotel.property.id, reset_at: new Date().toISOString() };
  });
}
