import { getReservationFolio } from "@/server/folios/folios";
import { audit } from "../audit";

type StaffCtx = Parameters<typeof audit>[0];

/**
 * Runs a change of a reservation's folio (a charge, a payment, a refund) and records it on the
 * reservation's trail, where the clerk looks: the balance before and after (money as the API
 * writes it; the trail's sentences format it), and what was done.
 * A change that fails with a record of its own (a declined card) is recorded too, then rethrown.
 */
export async function recordFolioChange<T>(
  ctx: StaffCtx,
  reservationId: string,
  action: string,
  run: () => Promise<T>,
  describe: (result: T) => Record<string, unknown>,
  onFailure?: (error: unknown) => { action: string; after: Record<string, unknown> } | null,
): Promise<T> {
  const folio = () => getReservationFolio({ db: ctx.db, tenant: ctx.tenant, reservationId });
  const current = await folio().catch(() => null);
  // No folio to read (a wrong reservation id): the service itself says what is wrong.
  if (!current) return run();
  const before = { balance: current.balance };
  let result: T;
  try {
    result = await run();
  } catch (error) {
    const failed = onFailure?.(error);
    if (failed) {
      const after = { balance: (await folio()).balance, ...failed.after };
      await audit(ctx, { action: failed.action, objectType: "reservation", objectId: reservationId, before, after });
    }
    throw error;
  }
  const after = { balance: (await folio()).balance, ...describe(result) };
  await audit(ctx, { action, objectType: "reservation", objectId: reservationId, before, after });
  return result;
}
