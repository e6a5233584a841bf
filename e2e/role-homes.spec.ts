import { expect, test } from "./test";
import { createApiKey, createStaff, expectNoHorizontalScroll, signIn, snap, uniqueEmail } from "./helpers";
import { ownRoomType, plusDays } from "./rooms-setup";

// Issue 23, item 3: each role lands on its own home: the front desk's day with one-click
// check-in, a housekeeper's rooms on a phone, the owner's figures and week ahead.

let key: string;

test.beforeAll(() => {
  key = createApiKey();
});

test("the front desk lands on today's lists and checks a guest in with one click", async ({ page, request }) => {
  const t = await ownRoomType(request, key, { rooms: 1, rates: true });
  const booking = await t.post("/v1/reservations", {
    property_id: t.propertyId,
    room_type_id: t.roomTypeId,
    rate_plan_id: t.ratePlanId,
    check_in: t.today,
    check_out: plusDays(t.today, 1),
    adults: 1,
    guest: { first_name: "Oneclick", last_name: "Arrival", email: uniqueEmail("oneclick") },
  });
  await signIn(page, createStaff("front_desk"));
  await expect(page.getByText(/Front desk at/)).toBeVisible();
  for (const tile of ["count-arrivals", "count-in-house", "count-departures", "occupancy-tonight"]) await expect(page.getByTestId(tile)).toBeVisible();
  const row = page.getByTestId(`reservation-${booking.id}`).first();
  await expect(row).toBeVisible();
  await snap(page, "home-front-desk");
  await row.getByRole("button", { name: "Check in Oneclick Arrival" }).click();
  await expect(page.getByText("Oneclick Arrival is checked in")).toBeVisible();
  const after = await request.get(`/v1/reservations/${booking.id}`, { headers: { authorization: `Bearer ${key}` } });
  expect(await after.json()).toMatchObject({ status: "checked_in", room_id: t.rooms[0].id });
  // The guest moves to the in-house list, where check-out is one click away.
  await page.getByRole("tab", { name: /In house/ }).click();
  await expect(page.getByTestId(`reservation-${booking.id}`).first().getByRole("button", { name: "Check out Oneclick Arrival" })).toBeVisible();

  await page.setViewportSize({ width: 390, height: 900 });
  await page.reload();
  await expect(page.getByTestId("count-arrivals")).toBeVisible();
  await expectNoHorizontalScroll(page);
  await snap(page, "home-front-desk");
});

test("a housekeeper at 390 px lands on their rooms and marks one clean with one tap", async ({ page, request }) => {
  const housekeeper = createStaff("housekeeping");
  const t = await ownRoomType(request, key, { rooms: 2 });
  const [first, second] = t.rooms;
  for (const room of t.rooms) await t.post(`/v1/rooms/${room.id}/housekeeping`, { status: "dirty" }, 200);
  // Assigned out of order: the home lists them by floor and number.
  await t.post("/v1/housekeeping/assignments", { property_id: t.propertyId, date: t.today, room_id: second.id, assignee: housekeeper.email });
  await t.post("/v1/housekeeping/assignments", { property_id: t.propertyId, date: t.today, room_id: first.id, assignee: housekeeper.email, notes: "VIP arriving at noon" });

  await page.setViewportSize({ width: 390, height: 900 });
  await signIn(page, housekeeper);
  await expect(page.getByText(/Your rooms at/)).toBeVisible();
  const cards = page.getByRole("list", { name: "My rooms today" }).getByRole("listitem");
  await expect(cards).toHaveCount(2);
  await expect(cards.nth(0)).toContainText(`Room ${first.number}`);
  await expect(cards.nth(1)).toContainText(`Room ${second.number}`);
  await expect(cards.nth(0)).toContainText("VIP arriving at noon");
  const button = cards.nth(0).getByRole("button", { name: `Room ${first.number}: mark clean` });
  // A big touch target: at least 44 px tall.
  expect((await button.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  await expectNoHorizontalScroll(page);
  await snap(page, "home-housekeeping");
  await button.click();
  await expect(cards.nth(0)).toContainText("Clean");
  await expect(cards.nth(0).getByRole("button", { name: `Room ${first.number}: mark inspected` })).toBeVisible();
  const room = await request.get(`/v1/rooms/${first.id}`, { headers: { authorization: `Bearer ${key}` } });
  expect((await room.json()).housekeeping_status).toBe("clean");
  await page.setViewportSize({ width: 1280, height: 900 });
  await snap(page, "home-housekeeping");
});

for (const width of [1280, 390]) {
  test(`the owner lands on tonight's figures and the week ahead, at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await signIn(page);
    await expect(page.getByText(/Tonight at/)).toBeVisible();
    for (const figure of ["flash-occupancy", "flash-adr", "flash-revpar", "flash-revenue", "flash-payments"]) await expect(page.getByTestId(figure)).toBeVisible();
    await expect(page.getByTestId("flash-occupancy")).toContainText("%");
    await expect(page.getByTestId("week-ahead").locator("tbody tr")).toHaveCount(7);
    await expectNoHorizontalScroll(page);
    await snap(page, "home-owner");
  });
}
