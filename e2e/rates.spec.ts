import { expect, test } from "./test";
import { addDays, businessDayOf, v1 } from "./api";
import { createApiKey, createStaff, expectNoHorizontalScroll, signIn, snap } from "./helpers";

// Issue #9: the rates grid sets a stop-sell over a range on a room type and rate plan of this
// spec's own, the grid shows it, and /v1/availability refuses those nights with the reason.

// Several sign-ins and API round trips each: more than the default 30 s on a busy machine.
test.describe.configure({ timeout: 90_000 });

test("a stop-sell set for a range in the grid closes those nights on the API, the calendar and the new-reservation page", async ({ page, request }) => {
  const api = v1(request, createApiKey());
  const suffix = Date.now().toString(36).slice(-5).toUpperCase();
  const property = (await api.get("/properties")).data[0];
  const roomType = await api.post("/room_types", { property_id: property.id, code: `E2R${suffix}`, name: `Rates e2e ${suffix}`, max_occupancy: 2 });
  await api.post("/rooms", { room_type_id: roomType.id, number: `R${suffix}` });
  const plan = await api.post("/rate_plans", { property_id: property.id, code: `E2P${suffix}`, name: `Plan ${suffix}`, room_type_ids: [roomType.id] });
  const today = businessDayOf(property);
  await api.post(`/rate_plans/${plan.id}/rates`, { room_type_id: roomType.id, from: today, to: addDays(today, 60), amount: 15000 });

  await signIn(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Rates" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Rates" })).toBeVisible();
  await page.getByLabel("Rate plan").selectOption({ label: `E2P${suffix} · Plan ${suffix}` });
  const cell = (n: number) => page.locator(`button[data-room-type="E2R${suffix}"][data-date="${addDays(today, n)}"]`);
  await expect(cell(3)).toContainText("150");

  // Nights 3, 4 and 5 from today: click, then Shift-click.
  await cell(3).click();
  await cell(5).click({ modifiers: ["Shift"] });
  await expect(page.getByTestId("selection-summary")).toContainText("3 nights");
  await page.getByRole("button", { name: "Set rates for selection…" }).click();
  const form = page.getByRole("form", { name: "Set rates" });
  await expect(form.getByLabel("First night")).toHaveValue(addDays(today, 3));
  await expect(form.getByLabel("Last night")).toHaveValue(addDays(today, 5));
  await form.getByLabel("Stop-sell").selectOption("on");
  await form.getByRole("button", { name: "Apply" }).click();
  await expect(form).toBeHidden();

  for (const n of [3, 4, 5]) await expect(cell(n)).toHaveAttribute("data-stop-sell", "true");
  for (const n of [2, 6]) await expect(cell(n)).toHaveAttribute("data-stop-sell", "false");
  await expect(cell(4)).toContainText("Stop");
  await expect(page.getByTestId("audit-entry").first()).toContainText("Rates set by");
  await expect(page.getByTestId("audit-entry").first()).toContainText("Stop-sell from off to on");
  await snap(page, "rates");

  // The API agrees: not bookable, for the stop-sell; the night after still is.
  const quote = async (n: number) => {
    const q = `property_id=${property.id}&check_in=${addDays(today, n)}&check_out=${addDays(today, n + 1)}&adults=1&room_type_id=${roomType.id}`;
    const availability = await api.get(`/availability?${q}`);
    return availability.data[0].quotes.find((x: { rate_plan_id: string }) => x.rate_plan_id === plan.id);
  };
  expect(await quote(4)).toMatchObject({ bookable: false, reason: "stop_sell" });
  expect(await quote(6)).toMatchObject({ bookable: true });
  const rates = await api.get(`/rate_plans/${plan.id}/rates?room_type_id=${roomType.id}&from=${addDays(today, 2)}&to=${addDays(today, 7)}`);
  expect(rates.data.map((r: { stop_sell: boolean }) => r.stop_sell)).toEqual([false, true, true, true, false]);

  // The calendar shows the closed nights beside the rooms free, and the plan's restriction in the night's dialog.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Calendar" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Calendar" })).toBeVisible();
  const night = (n: number) => page.getByTestId(`cell-E2R${suffix}-${addDays(today, n)}`);
  for (const n of [3, 4, 5]) {
    await expect(night(n)).toHaveAccessibleName(new RegExp(`1 available of 1.*stop-sell on every rate plan \\(E2P${suffix}\\)`));
    await expect(night(n).getByTestId("cell-restrictions")).toHaveText("Stop-sell");
  }
  for (const n of [2, 6]) {
    await expect(night(n)).not.toHaveAccessibleName(/stop-sell/);
    await expect(night(n).getByTestId("cell-restrictions")).toHaveCount(0);
  }
  await night(4).scrollIntoViewIfNeeded();
  await snap(page, "calendar-stop-sell");
  await night(4).click();
  const plans = page.getByRole("dialog").getByRole("list", { name: "Rate plans this night" });
  await expect(plans).toContainText(`E2P${suffix}`);
  await expect(plans).toContainText("Restrictions: stop-sell");
  await page.keyboard.press("Escape");
  await night(6).click();
  await expect(plans).toContainText("Restrictions: none");
  await page.keyboard.press("Escape");

  // So does the front desk's new-reservation page: the plan is offered, not bookable, with the reason.
  await page.goto("/reservations/new");
  await page.getByLabel("Check-in").fill(addDays(today, 4));
  await page.getByLabel("Check-out").fill(addDays(today, 5));
  const offered = page.getByTestId(`quote-${roomType.code}-${plan.code}`);
  await expect(offered.getByTestId("unbookable-reason")).toContainText(/stop/i);
  await expect(offered.getByRole("button", { name: /^Select/ })).toHaveCount(0);
  await page.getByLabel("Check-in").fill(addDays(today, 6));
  await page.getByLabel("Check-out").fill(addDays(today, 7));
  await expect(offered.getByRole("button", { name: /^Select/ })).toBeVisible();
  await snap(page, "reservation-new-stop-sell");
});

test("the rates grid at 390 px scrolls inside its box, never the page", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page);
  await page.goto("/rates");
  await expect(page.getByRole("table", { name: "Rates by room type and night" })).toBeVisible();
  await expectNoHorizontalScroll(page);
  await snap(page, "rates");
  // The dialog fits too, and closes on Escape.
  await page.getByRole("button", { name: "Set rates…" }).click();
  await expect(page.getByRole("form", { name: "Set rates" })).toBeVisible();
  await expectNoHorizontalScroll(page);
  await snap(page, "rates-dialog");
  await page.keyboard.press("Escape");
  await expect(page.getByRole("form", { name: "Set rates" })).toBeHidden();
});

test("front desk does not see or reach the rates grid", async ({ page }) => {
  await signIn(page, createStaff("front_desk"));
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Rates" })).toHaveCount(0);
  await page.goto("/rates");
  await expect(page.getByText("This page is not available for your role.")).toBeVisible();
});
