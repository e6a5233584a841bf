import { expect, test } from "./test";
import { createApiKey, expectNoHorizontalScroll, signIn, snap, uniqueEmail, waitForLive } from "./helpers";
import { ownRoomType, plusDays } from "./rooms-setup";

let key: string;
test.beforeAll(() => {
  key = createApiKey("rooms:read rooms:write reservations:read reservations:write");
});

test("the calendar shows a sale, a hold and a room out of order on its own room type, and the night's bookings", async ({ page, request }) => {
  const setup = await ownRoomType(request, key, { rooms: 3, rates: true });
  const { today, code, post } = setup;
  const email = uniqueEmail("cal");
  await post("/v1/reservations", {
    property_id: setup.propertyId,
    guest: { first_name: "Calla", last_name: "Lily", email },
    check_in: plusDays(today, 1),
    check_out: plusDays(today, 3),
    room_type_id: setup.roomTypeId,
    rate_plan_id: setup.ratePlanId,
    adults: 2,
  });
  await post("/v1/inventory/holds", { property_id: setup.propertyId, room_type_id: setup.roomTypeId, from: plusDays(today, 2), to: plusDays(today, 4), rooms: 1 });
  await post(`/v1/rooms/${setup.rooms[0].id}/housekeeping`, { status: "out-of-order", reason: "Repainting", until: plusDays(today, 3) }, 200);

  await signIn(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Calendar" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Calendar" })).toBeVisible();
  const cell = (n: number) => page.getByTestId(`cell-${code}-${plusDays(today, n)}`);
  await expect(cell(0)).toHaveAccessibleName(/2 available of 3, 0 sold, 0 held, 1 out of order/);
  await expect(cell(1)).toHaveAccessibleName(/1 available of 3, 1 sold, 0 held, 1 out of order/);
  await expect(cell(2)).toHaveAccessibleName(/0 available of 3, 1 sold, 1 held, 1 out of order/);
  await expect(cell(3)).toHaveAccessibleName(/2 available of 3, 0 sold, 1 held, 0 out of order/);
  await expect(cell(29)).toBeVisible();
  await expect(cell(30)).toHaveCount(0);
  await snap(page, "calendar");

  // A cell opens that night's bookings (keyboard: focus and Enter).
  await cell(2).focus();
  await page.keyboard.press("Enter");
  const night = page.getByRole("dialog");
  await expect(night.getByRole("list", { name: "Bookings this night" })).toContainText("Calla Lily");
  await snap(page, "calendar-night");
  await page.keyboard.press("Escape");
  await cell(3).click();
  await expect(night.getByText("No bookings this night")).toBeVisible();
  await page.keyboard.press("Escape");

  // Navigable: the next 30 nights, and back to today.
  await page.getByRole("button", { name: "Next 30 days" }).click();
  await expect(page.getByTestId(`cell-${code}-${plusDays(today, 30)}`)).toBeVisible();
  await expect(cell(0)).toHaveCount(0);
  await page.getByRole("button", { name: "Today" }).click();
  await expect(cell(0)).toBeVisible();

  // A booking made elsewhere shows without a reload.
  await waitForLive(page);
  await post("/v1/reservations", {
    property_id: setup.propertyId,
    guest: { first_name: "Late", last_name: "Booker", email: uniqueEmail("late") },
    check_in: plusDays(today, 5),
    check_out: plusDays(today, 6),
    room_type_id: setup.roomTypeId,
    rate_plan_id: setup.ratePlanId,
    adults: 1,
  });
  await expect(cell(5)).toHaveAccessibleName(/1 sold/, { timeout: 15_000 });
});

test("the calendar at 390 px scrolls inside its grid, not the page", async ({ page, request }) => {
  const { code, today } = await ownRoomType(request, key, { rooms: 1 });
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page);
  await page.goto("/calendar");
  await expect(page.getByTestId(`cell-${code}-${today}`)).toBeAttached();
  await expectNoHorizontalScroll(page);
  const grid = page.getByTestId("calendar-grid");
  expect(await grid.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  await snap(page, "calendar");
  await page.getByTestId(`cell-${code}-${today}`).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await expectNoHorizontalScroll(page);
  await snap(page, "calendar-night");
});
