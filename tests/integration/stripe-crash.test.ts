import { randomBytes } from "node:crypto";
import type { ChildProcess } from "node:child_process";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { events, payments } from "@/db/schema";
import { addDays } from "@/lib/dates";
import { reconcileCharges } from "@/server/payments/reconcile";
import { onPostgres } from "../support/database";
import { startAppScript } from "../support/child-processes";
import { startHarness, type Harness } from "../support/harness";
import { bookingBody, buildRoomType, liveHotel, ok } from "../support/hotel";
import { stripeRequests } from "../support/stripe-states";

// Issue 37, point 6: a card charge whose answer from Stripe is lost. The child
// (tests/support/crash-after-charge.ts) runs the real /v1 app on this test's PostgreSQL database
// and SIGKILLs itself after Stripe charged the card and the payment was written, as its
// transaction commits: Stripe holds a charge Innkeep knows nothing of. The reconciliation pass
// finds it at Stripe by the ids it carries and records it once; the client's retry with the same
// Idempotency-Key is that payment, and Stripe is not asked to charge again.

let h: Harness;
let child: ChildProcess | undefined;
const stripeKey = `sk_test_${randomBytes(18).toString("hex")}`;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  if (child?.exitCode === null) child.kill("SIGKILL");
  await h?.close();
});


it.skipIf(!onPostgres)("a charge whose answer died with the process is found at Stripe and settled exactly once; the retry is that payment", { timeout: 120_000 }, async () => {
  const live = { token: h.main.token };
  const hotel = await liveHotel(h, h.main.account.id);
  const std = await buildRoomType(h, live, hotel.propertyId, hotel.today, { rooms: 2, amount: 10_000, days: 30 });
  ok(await h.post("/v1/payment_processors", { type: "stripe", secret_key: stripeKey }, live), 201);
  const from = addDays(hotel.today, 3);
  const stay = ok(await h.post("/v1/reservations", bookingBody({ propertyId: hotel.propertyId, roomTypeId: std.roomTypeId, ratePlanId: std.ratePlanId }, from, addDays(from, 1)), live), 201);
  const body = { reservation_id: stay.id, amount: 10_000, payment_method: { type: "card", processor_payment_method: "pm_card_visa" } };
  const headers = { authorization: `Bearer ${h.main.token}`, "content-type": "application/json", "idempotency-key": `power-cut-${stay.id}` };
  const recorded = () => h.db.select().from(payments).where(eq(payments.reservationId, stay.id));
  const charges = async () => (await stripeRequests(stripeKey)).filter((r) => r.method === "POST" && r.path === "/v1/payment_intents");

  const started = await startAppScript("tests/support/crash-after-charge.ts", h.databaseUrl!);
  child = started.process;
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child!.once("exit", (_code, signal) => resolve(signal)));
  const cut = await fetch(`http://127.0.0.1:${started.port}/v1/payments`, { method: "POST", headers, body: JSON.stringify(body) }).then(
    (res) => `answered ${res.status}`,
    () => "no answer",
  );
  expect(cut).toBe("no answer");
  expect(await exited).toBe("SIGKILL");

  // Stripe charged the card once; Innkeep holds nothing of it.
  const [charge] = await charges();
  expect(await charges()).toHaveLength(1);
  expect(charge.status).toBe(200);
  expect(await recorded()).toEqual([]);
  expect(ok(await h.get(`/v1/reservations/${stay.id}/folio`, live)).balance.amount).toBe(10_000);

  // The reconciliation finds it at Stripe and records it, with its card, on the business date.
  const settled = await reconcileCharges({ db: h.db, olderThanMs: 0 });
  expect(settled).toHaveLength(1);
  const [payment] = await recorded();
  expect(payment).toMatchObject({ status: "succeeded", amount: 10_000, processor: "stripe", cardLast4: "4242", businessDate: hotel.today });
  expect(settled[0].paymentId).toBe(payment.id);
  expect(ok(await h.get(`/v1/reservations/${stay.id}/folio`, live)).balance.amount).toBe(0);
  const told = await h.db.select().from(events).where(and(eq(events.type, "payment.succeeded"), eq(events.accountId, h.main.account.id)));
  expect(told.filter((e) => (e.object as { id: string }).id === payment.id)).toHaveLength(1);

  // A second pass, and the next, change nothing.
  expect(await reconcileCharges({ db: h.db, olderThanMs: 0 })).toEqual([]);
  expect(await recorded()).toHaveLength(1);

  // The client retries the request it got no answer to: the same payment, and Stripe replays its first answer.
  const retry = ok(await h.post("/v1/payments", body, { headers: { "idempotency-key": headers["idempotency-key"] } }), 201);
  expect(retry).toMatchObject({ id: payment.id, status: "succeeded", processor: { payment_id: payment.processorPaymentId } });
  const sent = await charges();
  expect(sent.map((r) => [r.status, r.replayed])).toEqual([
    [200, false],
    [200, true],
  ]);
  expect(await recorded()).toHaveLength(1);
  expect(ok(await h.get(`/v1/reservations/${stay.id}/folio`, live)).balance.amount).toBe(0);
});
