import { sql } from "drizzle-orm";
import type { Executor } from "@/db/client";
import { accounts, events } from "@/db/schema";
import { newId } from "@/server/ids";
import { insertRows } from "@/db/prepared";
import type { Tenant } from "@/server/tenancy";
import type { EventType } from "./types";

type Emit = { type: EventType; propertyId: string | null; object: Record<string, unknown> };

/**
 * Writes events into the outbox. Call it with the transaction that makes the change, so a
 * rolled-back change leaves no event and a committed one never lacks its event.
 * Payloads follow the account's pinned API version.
 */
export async function emitEvents(tx: Executor, tenant: Tenant, list: Emit[]): Promise<void> {
  if (!list.length) return;
  const now = Date.now();
  await insertRows(
    tx,
    "events_insert",
    events,
    list.map((e, i) => ({
      id: newId("event"),
      accountId: tenant.accountId,
      livemode: tenant.livemode,
      propertyId: e.propertyId,
      type: e.type,
      object: e.object,
      // Distinct, ordered timestamps keep events of one change in the order they were emitted.
      createdAt: new Date(now + i),
    })),
    { sqlValues: (p) => ({ apiVersion: pinnedVersion(p("account")) }), values: { account: tenant.accountId } },
  );
}

/** The account's pinned version, read by the insert itself: one round trip per change, not two. */
const pinnedVersion = (account: unknown) => sql<string>`(select ${accounts.apiVersion} from ${accounts} where ${accounts.id} = ${account})`;

export const emitEvent = (tx: Executor, tenant: Tenant, e: Emit) => emitEvents(tx, tenant, [e]);
