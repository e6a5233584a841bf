import type { Db, Executor } from "@/db/client";
import { folios } from "@/db/schema";
import { getReservationFolio } from "./folios";
import { findOwned, type Tenant } from "@/server/tenancy";
import { inTransaction } from "@/db/transactions";
import { recordAudit, type AuditActor } from "@/server/audit/audit";

type Change<T> = {
  db: Db;
  tenant: Tenant;
  actor: AuditActor | null;
  /** Whose trail: the reservation, or the one whose folio `folioId` is (looked up in the change's transaction). */
  reservationId?: string;
  folioId?: string;
  /** `reservation.<verb>`: what the trail's headline says was done. */
  action: string;
  run: (tx: Executor) => Promise<T>;
  describe: (result: T) => Record<string, unknown>;
  /** A failure that leaves a record of its own (a declined card): what the trail says of it. */
  onFailure?: (error: unknown) => { action: string; after: Record<string, unknown> } | null;
};

/**
 * Runs a change of a reservation's folio (a charge, a payment, a refund) and records it on the
 * reservation's trail, where the clerk looks, in the change's own transaction: the balance
 * before and after (money as the API writes it; the trail's sentences format it) and what was
 * done. Rolled back, it leaves no entry; committed, never none. Called alike by the dashboard
 * (a staff member) and by `/v1` (an API key or an app). A failure that leaves a record of its own
 * (a declined card's failed payment) commits with its entry, then is rethrown.
 */
export async function auditedFolioChange<T>({ db, tenant, actor, folioId, action, run, describe, onFailure, ...change }: Change<T>): Promise<T> {
  // Nobody to name (a step of a larger change): the change alone.
  if (!actor) return inTransaction(db, (tx) => run(tx));
  const outcome = await inTransaction(db, async (tx) => {
    const scoped: Executor = tx;
    const reservationId = change.reservationId ?? (folioId ? (await findOwned(tx, folios, tenant, folioId, "folio").catch(() => null))?.reservationId : undefined);
    // No folio to read (a wrong id): the service itself says what is wrong.
    if (!reservationId) return { result: await run(scoped) };
    const folio = () => getReservationFolio({ db: scoped, tenant, reservationId });
    const current = await folio().catch(() => null);
    if (!current) return { result: await run(scoped) };
    const before = { balance: current.balance };
    let result: T;
    try {
      result = await run(scoped);
    } catch (error) {
      const failed = onFailure?.(error);
      if (!failed) throw error;
      const after = { balance: (await folio()).balance, ...failed.after };
      await recordAudit({ db: tx, tenant, actor, entry: { action: failed.action, objectType: "reservation", objectId: reservationId, before, after } });
      return { failure: error };
    }
    const after = { balance: (await folio()).balance, ...describe(result) };
    await recordAudit({ db: tx, tenant, actor, entry: { action, objectType: "reservation", objectId: reservationId, before, after } });
    return { result };
  });
  if ("failure" in outcome) throw outcome.failure;
  return outcome.result;
}
