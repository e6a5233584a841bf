import { readFile } from "node:fs/promises";
import { PDFParse } from "pdf-parse";
import { expect, test } from "./test";
import { addDays, todayIn, v1 } from "./api";
import { expectNoSeriousAxe } from "./axe";
import { cli, expectNoHorizontalScroll, signIn, snap, uniqueEmail } from "./helpers";

// Issue 35, point 5: after check-out, a clerk credits the stay's invoice from the reservation's
// folio: the form refuses a blank amount and more than was invoiced in words, the credit note is
// listed by its number with its PDF (which names the invoice it corrects), and refunding what the
// folio then owes the guest settles it without a second note. The account is its own.

test.describe.configure({ timeout: 240_000 });

test("a clerk issues a credit note on a checked-out stay's invoice and downloads it", async ({ page, request }) => {
  const account = cli<{ id: string }>("accounts", "create", "--name", `Credit hotels ${Date.now().toString(36)}`);
  const clerk = { email: uniqueEmail("credit-desk"), password: "desk-password-1" };
  cli("users", "create", "--email", clerk.email, "--password", clerk.password, "--role", "front_desk", "--account", account.id);
  const key = cli<{ key: string }>("api-keys", "create", "--account", account.id, "--scopes", "reservations:read reservations:write rooms:read rooms:write payments:read payments:write").key;
  const api = v1(request, key);
  const property = await api.post("/properties", { name: "Harbor Credit Hotel", timezone: "America/New_York", currency: "USD", address: { line1: "1 Pier Road", city: "Boston", country: "US" } });
  const today = todayIn("America/New_York");
  const type = await api.post("/room_types", { property_id: property.id, code: "DBL", name: "Double", max_occupancy: 2 });
  await api.post("/rooms", { room_type_id: type.id, number: "101" });
  const plan = await api.post("/rate_plans", { property_id: property.id, code: "BAR", name: "Best available", room_type_ids: [type.id], refundable: true, cancellation_deadline_hours: 24 });
  await api.post(`/rate_plans/${plan.id}/rates`, { room_type_id: type.id, from: today, to: addDays(today, 5), amount: 10_000 });
  const stay = await api.post("/reservations", {
    property_id: property.id,
    room_type_id: type.id,
    rate_plan_id: plan.id,
    check_in: today,
    check_out: addDays(today, 1),
    adults: 1,
    guest: { first_name: "Ada", last_name: "Lovelace", email: uniqueEmail("ada-credit") },
  });
  await api.post(`/reservations/${stay.id}/check_in`, {});
  await api.post("/payments", { reservation_id: stay.id, payment_method: { type: "cash" } });
  await api.post(`/reservations/${stay.id}/check_out`, {});

  await signIn(page, clerk);
  await page.goto(`/reservations/${stay.id}`);
  await expect(page.getByTestId("download-invoice")).toBeVisible();
  await expect(page.getByTestId("folio-balance")).toHaveText("$0.00");

  await page.getByRole("button", { name: "Issue credit note" }).click();
  const form = page.getByRole("form", { name: "Issue a credit note" });
  await form.getByRole("button", { name: "Issue credit note" }).click();
  await expect(form.getByText("Enter the amount to credit, such as 129.00.")).toBeVisible();
  await expect(form.getByText("Say why: it is printed on the credit note.")).toBeVisible();
  // More than the invoice's 100.00: the server's refusal, beside the amount, in words.
  await form.getByLabel("Amount (USD)").fill("250.00");
  await form.getByLabel("Reason").fill("Air conditioning out of order");
  await form.getByRole("button", { name: "Issue credit note" }).click();
  await expect(form.getByText("At most $100.00 of invoice 1 can still be credited.")).toBeVisible();
  await expectNoSeriousAxe(page, "[role=dialog]");
  await snap(page, "credit-note-form");
  await form.getByLabel("Amount (USD)").fill("20.00");
  await form.getByRole("button", { name: "Issue credit note" }).click();
  await expect(page.getByText("Credit note 1 issued: $20.00 credited.")).toBeVisible();

  // Listed with its number; the folio now owes the guest 20.00.
  await expect(page.getByTestId("credit-note")).toHaveText(/Credit note 1/);
  // The hotel now owes the guest 20.00: the folio says so in words, the amount without a sign.
  await expect(page.getByTestId("folio-balance-label")).toHaveText("Owed to guest");
  await expect(page.getByTestId("folio-balance")).toHaveText("$20.00");
  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download credit note 1" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe("Harbor Credit Hotel credit note 1.pdf");
  const bytes = await readFile((await download.path())!);
  const parser = new PDFParse({ data: new Uint8Array(bytes) });
  const text = (await parser.getText()).text;
  await parser.destroy();
  for (const words of ["Harbor Credit Hotel", "Credit note 1", "Corrects invoice 1", "Air conditioning out of order", "Ada Lovelace", "-$20.00"]) expect(text, words).toContain(words);

  // Refunding what the folio owes settles it: no second credit note.
  await page.getByRole("button", { name: "Refund the payment of $100.00" }).click();
  const refund = page.getByRole("form", { name: "Refund a payment" });
  await refund.getByLabel("Amount (USD)").fill("20.00");
  await refund.getByRole("button", { name: "Refund" }).click();
  await expect(page.getByText("Refunded $20.00")).toBeVisible();
  await expect(page.getByTestId("folio-balance")).toHaveText("$0.00");
  await expect(page.getByTestId("credit-note")).toHaveCount(1);
  await expectNoSeriousAxe(page);
  await snap(page, "reservation-credit-note");

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/reservations/${stay.id}`);
  await expect(page.getByTestId("credit-note")).toBeVisible();
  await expectNoHorizontalScroll(page);
  await snap(page, "reservation-credit-note");
  await page.getByRole("button", { name: "Issue credit note" }).click();
  await expect(page.getByRole("form", { name: "Issue a credit note" })).toBeVisible();
  await expectNoHorizontalScroll(page);
  await snap(page, "credit-note-form");
});
