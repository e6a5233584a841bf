import { and, eq, ne } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { apiKeys, auditLog, refunds } from "@/db/schema";
import { auditedFolioChange } from "@/server/folios/folio-change";
import { createRefund } from "@/server/payments/refunds";
import { createCaller } from "@/server/trpc/routers/_app";
import { addDays } from "@/lib/dates";
import { expectError } from "../support/assertions";
import { startHarness, type Harness } from "../support/harness";
import { bookingBody, buildRoomType, liveHotel, ok } from "../support/hotel";

// Issue 26, point 5: money moved through /v1 is on the audit trail like the dashboard's, written
// in the change's own transaction, by the API key (in words on the trail); a change that rolls
// back leaves no entry.

let h: Harness;
let reservationId: string;
beforeAll(async () => {
  h = await startHarness();
  await h.db.update(apiKeys).set({ name: "Channel sync" }).where(eq(apiKeys.id, h.main.keyId));
  const hotel = await liveHotel(h, h.main.account.id);
  const setup = { propertyId: hotel.propertyId, ...(await buildRoomType(h, { token: h.main.token }, hotel.propertyId, hotel.today, { amount: 10_000 })) };
  reservationId = ok(await h.post("/v1/reservations", bookingBody(setup, addDays(hotel.today, 2), addDays(hotel.today, 4))), 201).id;
});
afterAll(async () => h?.close());

/** The reservation's money entries (its booking is on the trail too: reservations-audit.test.ts). */
const trail = () =>
  h.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.accountId, h.main.account.id), eq(auditLog.objectId, reservationId), ne(auditLog.action, "reservation.created")))
    .orderBy(auditLog.createdAt);
const staff = () =>
  createCaller({
    db: h.db,
    session: { user: { id: "usr_audit", accountId: h.main.account.id, role: "owner", name: "Owner", email: "owner@audit.example" }, expires: new Date(Date.now() + 3_600_000).toISOString() },
    livemode: true,
  });

it("a payment and a refund made through /v1 are on the reservation's trail, by the API key in words", async () => {
  // Two nights at 100.00 = 20,000 owed; 15,000 paid in cash, then 4,000 of it refunded.
  const payment = ok(await h.post("/v1/payments", { reservation_id: reservationId, amount: 15_000, payment_method: { type: "cash" } }), 201);
  ok(await h.post("/v1/refunds", { payment_id: payment.id, amount: 4_000, reason: "Breakfast not served" }), 201);
  const entries = await trail();
  expect(entries.map((e) => e.action)).toEqual(["reservation.payment_taken", "reservation.refunded"]);
  expect(entries[0]).toMatchObject({ actorType: "api_key", actorId: h.main.keyId, actorName: "Channel sync", actorEmail: null });
  expect(entries[0].before).toEqual({ balance: { amount: 20_000, currency: "USD" } });
  expect(entries[0].after).toMatchObject({ balance: { amount: 5_000, currency: "USD" } });
  expect(entries[1].before).toEqual({ balance: { amount: 5_000, currency: "USD" } });
  expect(entries[1].after).toMatchObject({ balance: { amount: 9_000, currency: "USD" }, refund: { amount: { amount: 4_000, currency: "USD" }, reason: "Breakfast not served" } });
  // The trail on the dashboard names the key in words.
  const shown = await staff().audit.list({ object_type: "reservation", object_id: reservationId });
  expect(JSON.stringify(shown)).toContain("the API key “Channel sync”");
});

it("a refused refund leaves no entry; a change rolled back after its service ran leaves none either", async () => {
  const before = (await trail()).length;
  const payment = ok(await h.post("/v1/payments", { reservation_id: reservationId, amount: 1_000, payment_method: { type: "cash" } }), 201);
  expect((await trail()).length).toBe(before + 1);
  expectError(await h.post("/v1/refunds", { payment_id: payment.id, amount: 5_000 }), 422, "amount_exceeds_refundable", "amount");
  expect((await trail()).length).toBe(before + 1);
  // The refund is made and its entry written, then the transaction fails: neither stays.
  await expect(
    auditedFolioChange({
      db: h.db,
      tenant: { accountId: h.main.account.id, livemode: true, propertyIds: null },
      actor: { id: "usr_audit", email: "owner@audit.example" },
      reservationId,
      action: "reservation.refunded",
      run: async (tx) => {
        await createRefund({ db: tx, tenant: { accountId: h.main.account.id, livemode: true, propertyIds: null }, input: { payment_id: payment.id, amount: 500 } });
        return null;
      },
      describe: () => {
        throw new Error("fails after the refund");
      },
    }),
  ).rejects.toThrow("fails after the refund");
  expect((await trail()).length).toBe(before + 1);
  expect(await h.db.select().from(refunds).where(eq(refunds.paymentId, payment.id))).toEqual([]);
});

it("the dashboard's payment is written with the same entry, by the staff member", async () => {
  await staff().payments.create({ reservation_id: reservationId, amount: 700, payment_method: { type: "cash" } });
  const last = (await trail()).at(-1)!;
  expect(last).toMatchObject({ action: "reservation.payment_taken", actorType: "staff", actorId: "usr_audit", actorEmail: "owner@audit.example" });
});
