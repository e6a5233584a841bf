/**
 * How a credit balance goes back to the guest: to the folio's own captured payments, the latest
 * captured first, each up to what it can still refund. One rule for the server, which makes the
 * refunds (server/receivables/refund-credit.ts), and the desk, which shows them before they are
 * made (the check-out dialog). Payments as the API presents them.
 */
export type RefundablePayment = {
  id: string;
  status: string;
  amount: { amount: number };
  amount_refunded: { amount: number };
  captured_at: string | null;
};

export function creditRefundPlan<P extends RefundablePayment>(payments: readonly P[], owed: number): { parts: { payment: P; amount: number }[]; short: number } {
  const latestFirst = payments
    .filter((p) => p.captured_at !== null && (p.status === "succeeded" || p.status === "partially_refunded"))
    .sort((a, b) => b.captured_at!.localeCompare(a.captured_at!) || b.id.localeCompare(a.id));
  const parts: { payment: P; amount: number }[] = [];
  let left = owed;
  for (const payment of latestFirst) {
    if (left <= 0) break;
    const amount = Math.min(left, payment.amount.amount - payment.amount_refunded.amount);
    if (amount <= 0) continue;
    parts.push({ payment, amount });
    left -= amount;
  }
  return { parts, short: Math.max(0, left) };
}
