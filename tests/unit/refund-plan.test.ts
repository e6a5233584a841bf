import { describe, expect, it } from "vitest";
import { creditRefundPlan } from "@/lib/refund-plan";

// The one rule of how a credit balance goes back: to the folio's captured payments, the latest
// captured first, each up to what it can still refund (issue 35, point 8; the desk previews it and
// the server makes it).
const payment = (id: string, amount: number, refunded: number, captured_at: string | null, status = refunded ? "partially_refunded" : "succeeded") => ({
  id,
  status,
  amount: { amount },
  amount_refunded: { amount: refunded },
  captured_at,
});

describe("creditRefundPlan", () => {
  it("takes the latest captured payment first, whatever the order it is given in, each up to what is left of it", () => {
    const cash = payment("pay_a", 10_000, 0, "2026-11-20T10:00:00.000Z");
    const card = payment("pay_b", 5_000, 4_000, "2026-11-21T09:00:00.000Z");
    expect(creditRefundPlan([card, cash], 3_000)).toEqual({ parts: [{ payment: card, amount: 1_000 }, { payment: cash, amount: 2_000 }], short: 0 });
    expect(creditRefundPlan([cash, card], 500)).toEqual({ parts: [{ payment: card, amount: 500 }], short: 0 });
  });
  it("skips what moved no money (an authorization, a failed or fully refunded payment) and says what it cannot cover", () => {
    const held = payment("pay_c", 9_000, 0, null, "authorized");
    const failed = payment("pay_d", 9_000, 0, null, "failed");
    const gone = payment("pay_e", 2_000, 2_000, "2026-11-22T09:00:00.000Z", "refunded");
    const cash = payment("pay_f", 1_000, 0, "2026-11-20T10:00:00.000Z");
    expect(creditRefundPlan([held, failed, gone, cash], 2_500)).toEqual({ parts: [{ payment: cash, amount: 1_000 }], short: 1_500 });
    expect(creditRefundPlan([], 100)).toEqual({ parts: [], short: 100 });
  });
});
