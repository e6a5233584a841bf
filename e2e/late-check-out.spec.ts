import { expect, test } from "@playwright/test";
import { addDays, todayIn, v1 } from "./api";
import { expectNoSeriousAxe } from "./axe";
import { cli, expectNoHorizontalScroll, signIn, uniqueEmail, waitForLive } from "./helpers";

// Issue 27, item 2: a late check-out granted from the reservation page. A guest in house on the
// departure day is offered "Late check-out"; its dialog states the rate plan's fee in money
// before anything is posted, the fee then shows on the folio, and the action is not offered
// again. A second grant (another desk got there first) is refused in words. The hotel is a
// sandbox property of an account of its own, so `POST /v1/sandbox/advance_day` can make today its
// guests' departure day without touching another spec's hotel.

test.describe.configure({ timeout: 180_000 });

/** An account with a front-desk clerk, and in its sandbox a hotel whose plan charges $35.00 for a late check-out; two guests in house, leaving today. */
async function departureDay(request: Parameters<typeof v1>[0], width: number) {
  const account = cli<{ id: string }>("accounts", "create", "--name", `Late hotels ${width} ${Date.now().toString(36)}`);
  const clerk = { email: uniqueEmail("late-desk"), password: "desk-password-1" };
  cli("users", "create", "--email", clerk.email, "--password", clerk.password, "--role", "front_desk", "--account", account.id);
  const key = cli<{ key: string }>("api-keys", "create", "--account", account.id, "--scopes", "reservations:read reservations:write rooms:read rooms:write").key;
  const api = v1(request, key, true);
  const timezone = "America/New_York";
  const today = todayIn(timezone);
  const property = await api.post("/properties", { name: "Late Harbor Inn", timezone, currency: "USD" });
  const type = await api.post("/room_types", { property_id: property.id, code: "DBL", name: "Double", max_occupancy: 2 });
  const plan = await api.post("/rate_plans", {
    property_id: property.id,
    code: "BAR",
    name: "Best available",
    room_type_ids: [type.id],
    refundable: true,
    cancellation_deadline_hours: 24,
    late_check_out_fee: { type: "fixed", amount: 3_500 },
  });
  await api.post(`/rate_plans/${plan.id}/rates`, { room_type_id: type.id, from: today, to: addDays(today, 5), amount: 12_000 });
  const stay = async (number: string, last: string) => {
    const room = await api.post("/rooms", { room_type_id: type.id, number, floor: 1 });
    const r = await api.post("/reservations", {
      property_id: property.id,
      room_type_id: type.id,
      rate_plan_id: plan.id,
      check_in: today,
      check_out: addDays(today, 1),
      adults: 1,
      guest: { first_name: "Lena", last_name: last, email: uniqueEmail(last.toLowerCase()) },
    });
    await api.post(`/reservations/${r.id}/check_in`, { room_id: room.id });
    return r as { id: string };
  };
  const first = await stay("101", "Late");
  const second = await stay("102", "Later");
  // The night closes: the hotel's today is now their departure day.
  await api.post("/sandbox/advance_day", { property_id: property.id });
  return { clerk, api, first, second };
}

for (const width of [1280, 390]) {
  test(`at ${width} px the front desk grants a late check-out, its fee stated first and posted once`, async ({ page, request }) => {
    await page.setViewportSize({ width, height: 844 });
    const hotel = await departureDay(request, width);
    await signIn(page, hotel.clerk);
    await page.getByRole("radio", { name: "Sandbox" }).click();
    await expect(page.getByTestId("sandbox-banner")).toBeVisible();
    await page.goto(`/reservations/${hotel.first.id}`);
    await expect(page.getByRole("heading", { level: 1, name: "Lena Late" })).toBeVisible();
    await waitForLive(page);

    // The dialog says what it costs before anything is posted.
    await page.getByRole("group", { name: "Reservation actions" }).getByRole("button", { name: "Late check-out" }).click();
    const dialog = page.getByRole("alertdialog", { name: "Grant a late check-out?" });
    await expect(dialog.getByTestId("late-check-out-quote")).toHaveText(
      "The guest keeps the room past check-out time today. Best available's late check-out fee of $35.00 is posted to the folio, which then owes $155.00.",
    );
    const charges = page.getByLabel("Charges", { exact: true });
    await expect(charges).toContainText("night of");
    await expect(charges).not.toContainText("Late check-out fee");
    await expectNoSeriousAxe(page, "[role=alertdialog]");
    if (width < 1024) await expectNoHorizontalScroll(page);
    await dialog.getByRole("button", { name: "Grant late check-out" }).click();
    await expect(page.getByText("Late check-out granted")).toBeVisible();
    await expect(dialog).toHaveCount(0);

    // The folio has the fee as its own line; the action is not offered again.
    await expect(charges.getByRole("listitem").filter({ hasText: "Late check-out fee" })).toContainText("$35.00");
    await expect(page.getByTestId("folio-balance")).toHaveText("$155.00");
    await expect(page.getByRole("group", { name: "Reservation actions" }).getByRole("button", { name: "Late check-out" })).toHaveCount(0);

    // Another desk grants the second guest's while this one has the dialog open: refused in words, nothing posted twice.
    await page.goto(`/reservations/${hotel.second.id}`);
    await expect(page.getByRole("heading", { level: 1, name: "Lena Later" })).toBeVisible();
    await page.getByRole("group", { name: "Reservation actions" }).getByRole("button", { name: "Late check-out" }).click();
    await expect(dialog.getByTestId("late-check-out-quote")).toContainText("$35.00");
    await hotel.api.post(`/reservations/${hotel.second.id}/late_check_out`, {});
    await dialog.getByRole("button", { name: "Grant late check-out" }).click();
    await expect(dialog.getByRole("alert")).toHaveText("A late check-out was already granted for this stay.");
    await expectNoSeriousAxe(page, "[role=alertdialog]");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(charges.getByRole("listitem").filter({ hasText: "Late check-out fee" })).toHaveCount(1);
    if (width < 1024) await expectNoHorizontalScroll(page);
  });
}
