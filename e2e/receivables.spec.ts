import { expect, test, type Page } from "./test";
import { addDays } from "./api";
import { expectNoSeriousAxe } from "./axe";
import { expectNoHorizontalScroll, signIn, toasts, uniqueEmail } from "./helpers";
import { hotelOfItsOwn } from "./own-hotel";

// Issue 35, point 6: the receivables page. A hotel of its own (so no other spec's stays show)
// with a prepaid stay cancelled free (a credit owed to the guest) and a late cancellation part
// paid (a charge due); the page shows both with the ageing totals, refunds the credit to its
// payment and takes what is due, at 1280 and 390 px, axe clean, compared with its screenshots.

// Two widths, axe and two actions: more than two minutes on a busy machine.
test.describe.configure({ timeout: 300_000 });

const widths = [1280, 390] as const;

/** Compared with the screenshots beside this file; the days (the header's business day too) and the staff member's unique e-mail masked. */
async function compare(page: Page, name: string) {
  await expect(page.locator("[data-loading]")).toHaveCount(0, { timeout: 20_000 });
  await page.evaluate(() => document.fonts.ready);
  await expect(page).toHaveScreenshot(`${name}-${page.viewportSize()!.width}.png`, { fullPage: true, mask: [page.locator("time"), page.getByTestId("business-date"), page.getByText(/@e2e\.example/)] });
}

test("open balances with their ageing; a credit refunded, a charge paid", async ({ page, request }) => {
  const hotel = await hotelOfItsOwn(request, {
    name: "Receivables Inn",
    role: "manager",
    timezone: "America/New_York",
    rooms: ["101", "102"],
    scopes: "reservations:read reservations:write rooms:read rooms:write payments:read payments:write",
  });
  const { api, property, today } = hotel;
  const stay = (first_name: string, last_name: string) =>
    api.post("/reservations", {
      property_id: property.id, room_type_id: hotel.roomType.id, rate_plan_id: hotel.plan.id, check_in: addDays(today, 5), check_out: addDays(today, 6), adults: 1,
      guest: { first_name, last_name, email: uniqueEmail(last_name.toLowerCase()) },
    });
  // A prepaid night (120.00) cancelled days ahead on the refundable plan: owed back to the guest.
  const credit = await stay("Clara", "Credit");
  await api.post("/payments", { reservation_id: credit.id, amount: 12_000, payment_method: { type: "cash" } });
  await api.post(`/reservations/${credit.id}/cancel`, {});
  // On a plan no longer refundable, 20.00 paid and cancelled: the night stays as the charge, 100.00 due.
  await api.patch(`/rate_plans/${hotel.plan.id}`, { refundable: false });
  const due = await stay("Dan", "Due");
  await api.post("/payments", { reservation_id: due.id, amount: 2_000, payment_method: { type: "cash" } });
  await api.post(`/reservations/${due.id}/cancel`, {});

  await signIn(page, hotel.staff);
  for (const width of widths) {
    await page.setViewportSize({ width, height: 844 });
    await page.goto("/receivables");
    await expect(page.getByRole("heading", { level: 1, name: "Receivables" })).toBeVisible();
    await expect(page.getByTestId(`receivable-${credit.id}`).filter({ visible: true })).toContainText("$120.00");
    await expect(page.getByTestId(`receivable-${due.id}`).filter({ visible: true })).toContainText("$100.00");
    await expect(page.getByTestId("bucket-days_0_30")).toContainText("$100.00");
    await expect(page.getByTestId("bucket-days_0_30")).toContainText("$120.00 to refund");
    await expect(page.getByText("In all:")).toContainText("$100.00 due from guests");
    await expectNoHorizontalScroll(page);
    await expectNoSeriousAxe(page);
    await compare(page, "receivables");
  }
  // The navigation leads here.
  await page.setViewportSize({ width: 1280, height: 844 });
  await page.goto("/");
  await page.getByRole("link", { name: "Receivables" }).first().click();
  await expect(page).toHaveURL(/\/receivables$/);

  // The credit goes back to its payment.
  await page.getByRole("button", { name: "Refund $120.00 to Clara Credit" }).filter({ visible: true }).click();
  await expect(page.getByRole("alertdialog")).toContainText("$120.00 goes back to Clara Credit");
  await expectNoSeriousAxe(page, "[role=alertdialog]");
  await page.getByRole("alertdialog").getByRole("button", { name: "Refund" }).click();
  await expect(toasts(page)).toContainText("Refunded $120.00");
  await expect(page.getByTestId(`receivable-${credit.id}`)).toHaveCount(0);

  // What is due: more than that is refused in words; the amount due is taken.
  await page.getByRole("button", { name: "Take payment of $100.00 from Dan Due" }).filter({ visible: true }).click();
  const dialog = page.getByRole("dialog", { name: "Take a payment" });
  await expect(dialog.getByLabel("Amount (USD)")).toHaveValue("100.00");
  await dialog.getByLabel("Method").selectOption("cash");
  await dialog.getByLabel("Amount (USD)").fill("150.00");
  await dialog.getByRole("button", { name: "Take payment" }).click();
  await expect(dialog.getByRole("alert")).toContainText("The invoice leaves $100.00 due; take at most that.");
  await dialog.getByLabel("Amount (USD)").fill("100.00");
  await dialog.getByRole("button", { name: "Take payment" }).click();
  await expect(toasts(page)).toContainText("Payment of $100.00 received");
  await expect(page.getByTestId("empty-state")).toContainText("Nothing is owed");
});
