import { readFile } from "node:fs/promises";
import { expect, test } from "./test";
import { PDFParse } from "pdf-parse";
import { addDays, todayIn, v1 } from "./api";
import { cli, expectNoHorizontalScroll, signIn, snap, uniqueEmail } from "./helpers";

// Issue 27, items 4 and 5: an owner sets the hotel's taxes on /settings/taxes; a stay booked
// afterwards carries them on its folio, and its invoice downloads from the reservation's page as a
// PDF whose text says the hotel, the guest, the number and the totals. The account is its own
// (made through the CLI), so its taxes touch no other spec's hotel.

test.describe.configure({ timeout: 240_000 });

test("taxes set up in the browser reach the folio, and the invoice downloads as a PDF", async ({ page, request }) => {
  const account = cli<{ id: string }>("accounts", "create", "--name", `Tax hotels ${Date.now().toString(36)}`);
  const owner = { email: uniqueEmail("tax-owner"), password: "owner-password-1" };
  cli("users", "create", "--email", owner.email, "--password", owner.password, "--role", "owner", "--account", account.id);
  const key = cli<{ key: string }>("api-keys", "create", "--account", account.id, "--scopes", "reservations:read reservations:write rooms:read rooms:write payments:read payments:write").key;
  const api = v1(request, key);
  const property = await api.post("/properties", { name: "Harbor Tax Hotel", timezone: "America/New_York", currency: "USD", address: { line1: "1 Pier Road", city: "Boston", country: "US" } });
  const today = todayIn("America/New_York");
  const type = await api.post("/room_types", { property_id: property.id, code: "DBL", name: "Double", max_occupancy: 3 });
  await api.post("/rooms", { room_type_id: type.id, number: "101" }); // a new room is clean
  await api.post("/rooms", { room_type_id: type.id, number: "102" });
  const plan = await api.post("/rate_plans", { property_id: property.id, code: "BAR", name: "Best available", room_type_ids: [type.id], refundable: true, cancellation_deadline_hours: 24 });
  await api.post(`/rate_plans/${plan.id}/rates`, { room_type_id: type.id, from: today, to: addDays(today, 5), amount: 10_000 });

  // The taxes, in the browser.
  await signIn(page, owner);
  await page.goto("/settings/taxes");
  await expect(page.getByRole("heading", { level: 1, name: "Taxes" })).toBeVisible();
  await expect(page.getByText("No taxes yet")).toBeVisible();
  await snap(page, "taxes-empty");
  await page.getByRole("button", { name: "Add tax" }).first().click();
  let form = page.getByRole("form", { name: "Tax" });
  await form.getByLabel("Name").fill("Sales tax");
  await form.getByLabel("Rate (%)").fill("0");
  await form.getByRole("button", { name: "Add tax" }).click();
  await expect(form.getByText("A percentage above 0 and at most 100, such as 7.5.")).toBeVisible();
  await form.getByLabel("Rate (%)").fill("10");
  await form.getByRole("button", { name: "Add tax" }).click();
  await expect(page.getByText("Sales tax added.")).toBeVisible();
  await expect(page.getByTestId("tax-Sales tax").filter({ visible: true })).toContainText("10 %, added to the price");

  await page.getByRole("button", { name: "Add tax" }).first().click();
  form = page.getByRole("form", { name: "Tax" });
  await form.getByLabel("Name").fill("City tax");
  await form.getByLabel("Kind").selectOption("per_person_per_night");
  await form.getByLabel("Amount (USD)").fill("2.50");
  await form.getByRole("button", { name: "Add tax" }).click();
  await expect(page.getByText("City tax added.")).toBeVisible();
  await expect(page.getByTestId("tax-City tax").filter({ visible: true })).toContainText("$2.50 per guest per night");
  await snap(page, "taxes");

  // The booking dialog quotes a stay with its taxes, as the folio will charge them: one night for
  // one guest, 100.00 + 10 % = 110.00 and city tax 2.50: 112.50, of which 12.50 taxes.
  const breakdown = "Net $100.00 · taxes $12.50 (Sales tax $10.00, City tax $2.50)";
  await page.goto("/reservations/new");
  const quote = page.getByTestId("quote-DBL-BAR");
  await expect(quote).toContainText("$112.50");
  await expect(quote.getByTestId("stay-price")).toHaveText(breakdown);
  await quote.getByRole("button", { name: /^Select/ }).click();
  const booking = page.getByRole("form", { name: "Guest and booking" });
  await booking.getByLabel("First name").fill("Grace");
  await booking.getByLabel("Last name").fill("Hopper");
  await booking.getByLabel("E-mail").fill(uniqueEmail("grace"));
  await booking.getByRole("button", { name: "Book for $112.50" }).click();
  await expect(page).toHaveURL(/\/reservations\/res_/);
  const price = page.getByTestId("reservation-price");
  await expect(price).toContainText("$112.50");
  await expect(price.getByTestId("stay-price")).toHaveText(breakdown);
  await expect(page.getByTestId("folio-totals")).toContainText("$112.50");

  // A stay of one night for two: 100.00 + 10 % = 110.00, and city tax 2 × 2.50 = 5.00; 115.00 in all.
  const stay = await api.post("/reservations", {
    property_id: property.id,
    room_type_id: type.id,
    rate_plan_id: plan.id,
    check_in: today,
    check_out: addDays(today, 1),
    adults: 2,
    guest: { first_name: "Ada", last_name: "Lovelace", email: uniqueEmail("ada") },
  });
  // The guest's postal address, entered on the guest's page, is what the invoice is made out to.
  await page.goto(`/guests/${stay.guest.id}`);
  await page.getByRole("button", { name: "Edit", exact: true }).first().click();
  const contact = page.getByRole("form", { name: "Contact details" });
  await contact.getByLabel("Street and number").fill("12 Analytical Row");
  await contact.getByLabel("Postal code").fill("W1J 7NT");
  await contact.getByLabel("City", { exact: true }).fill("London");
  await contact.getByLabel("Country code (e.g. PT)").fill("gb");
  await contact.getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("guest-address")).toHaveText("12 Analytical Row, W1J 7NT London, GB");
  await api.post(`/reservations/${stay.id}/check_in`, {});
  await api.post("/payments", { reservation_id: stay.id, payment_method: { type: "cash" } });
  await api.post(`/reservations/${stay.id}/check_out`, {});

  await page.goto(`/reservations/${stay.id}`);
  const totals = page.getByTestId("folio-totals");
  await expect(totals).toContainText("$100.00");
  await expect(totals).toContainText("$15.00");
  await expect(totals).toContainText("$115.00");
  await expect(page.getByText("Sales tax $10.00", { exact: true })).toBeVisible();
  const downloading = page.waitForEvent("download");
  await page.getByTestId("download-invoice").click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe("Harbor Tax Hotel invoice 1.pdf");
  const bytes = await readFile((await download.path())!);
  expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  const parser = new PDFParse({ data: new Uint8Array(bytes) });
  const text = (await parser.getText()).text;
  await parser.destroy();
  for (const words of ["Harbor Tax Hotel", "Invoice 1", "Ada Lovelace", "12 Analytical Row, W1J 7NT London, GB", "$100.00", "$15.00", "$115.00", "Sales tax", "City tax", "Balance due"]) expect(text, words).toContain(words);
  await snap(page, "reservation-invoice");

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/settings/taxes");
  await expect(page.getByTestId("tax-City tax").filter({ visible: true })).toContainText("$2.50 per guest per night");
  await expectNoHorizontalScroll(page);
  await page.goto(`/reservations/${stay.id}`);
  await expect(page.getByTestId("download-invoice")).toBeVisible();
  await expectNoHorizontalScroll(page);
});
