import { getReservationFolio } from "@/server/folios/folios";
import { audit } from "../audit";

type StaffCtx = Parameters<typeof audit>[0];
type Money = { amount: number; currency: string };

/** Money as a clerk reads it in the trail: "141.00 USD". */
export function moneyText({ amount, currency }: Money): string {
  const digits = new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
  return `${(amount / 10 ** digits).toFixed(digits)} ${currency}`;
}

/**
 * Runs a change of a reservation's folio (a charge, a payment, a refund) and records it on the
 * reservation's trail, where the clerk looks: the balance before and after, and what was done.
 * A change that fails with a record of its own (a declined card) is recorded too, then rethrown.
 */
export async function recordFolioChange<T>(
  ctx: StaffCtx,
  reservationId: string,
  action: string,
  run: () => Promise<T>,
  describe: (result: T) => Record<string, string>,
  onFailure?: (error: unknown) => { action: string; after: Record<string, string> } | null,
): Promise<T> {
  const folio = () => getReservationFolio({ db: ctx.db, tenant: ctx.tenant, reservationId });
  const current = await folio().catch(() => null);
  // No folio to read (a wrong reservation id): the service itself says what is wrong.
  if (!current) return run();
  const before = { balance: moneyText(current.balance) };
  let result: T;
  try {
    result = await run();
  } catch (error) {
    const failed = onFailure?.(error);
    if (failed) {
      const after = { balance: moneyText((await folio()).balance), ...failed.after };
      await audit(ctx, { action: failed.action, objectType: "reservation", objectId: reservationId, before, after });
    }
    throw error;
  }
  const after = { balance: moneyText((await folio()).balance), ...describe(result) };
  await audit(ctx, { action, objectType: "reservation", objectId: reservationId, before, after });
  return result;
}
