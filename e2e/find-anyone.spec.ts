import { expect, test, type Page } from "./test";
import { createApiKey, createStaff, expectNoHorizontalScroll, signIn, snap, uniqueEmail } from "./helpers";
import { ownRoomType, plusDays } from "./rooms-setup";

// Issue 23, item 2: the front desk finds a guest or a stay by part of a name as it types, and the
// reservation page (and its check-in dialog) shows the guest's phone, allergies, preferences and loyalty.

let key: string;
let clerk: { email: string; password: string };
/** Letters only, so the name is a name: a fresh surname per run. */
const surname = `Quix${Array.from({ length: 6 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join("")}`;
let reservationId = "";

test.beforeAll(async ({ request }) => {
  key = createApiKey();
  clerk = createStaff("front_desk");
  const t = await ownRoomType(request, key, { rooms: 2, rates: true });
  const booking = await t.post("/v1/reservations", {
    property_id: t.propertyId,
    room_type_id: t.roomTypeId,
    rate_plan_id: t.ratePlanId,
    check_in: t.today,
    check_out: plusDays(t.today, 2),
    adults: 1,
    guest: { first_name: "Wilhelmina", last_name: surname, email: uniqueEmail("wilhelmina"), phone: "+1 617 555 0188" },
  });
  reservationId = booking.id;
  const prefs = await request.put(`/v1/guests/${booking.guest.id}/preferences`, {
    headers: { authorization: `Bearer ${key}` },
    data: { allergies: ["Peanuts", "Shellfish"], room: { floor: "high", quiet: true }, loyalty: { program: "Innkeep Rewards", tier: "Gold", number: "IR-204", points: 1200 } },
  });
  expect(prefs.status(), await prefs.text()).toBe(200);
});

async function typeSlowly(page: Page, box: ReturnType<Page["getByRole"]>, text: string) {
  await box.click();
  await box.pressSequentially(text, { delay: 40 });
}

for (const width of [1280, 390]) {
  test(`finds a guest and a stay by part of the name as it is typed, at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await signIn(page, clerk);

    await page.goto("/guests");
    await expect(page.getByRole("heading", { level: 1, name: "Guests" })).toBeVisible();
    // The middle of the surname, lower case, and no Enter: the list follows the typing.
    await typeSlowly(page, page.getByRole("searchbox", { name: "Find a guest" }), surname.slice(2).toLowerCase());
    await expect(page.getByRole("link", { name: `Wilhelmina ${surname}` })).toBeVisible();
    await expect(page.locator("tbody tr")).toHaveCount(1);
    await expectNoHorizontalScroll(page);
    await snap(page, "find-anyone-guests");

    await page.goto("/reservations");
    await page.getByRole("tab", { name: "Search all" }).click();
    await typeSlowly(page, page.getByPlaceholder("Guest name, e-mail, phone or reservation id"), `wilh ${surname.slice(0, 6)}`);
    // One row: a table row from 768 px, a card below.
    await expect(page.getByTestId(`reservation-${reservationId}`).filter({ visible: true })).toHaveCount(1);
    await expectNoHorizontalScroll(page);
    await snap(page, "find-anyone-reservations");
  });

  test(`the reservation page and the check-in dialog show allergies, preferences, loyalty and phone, at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await signIn(page, clerk);
    await page.goto(`/reservations/${reservationId}`);
    const panel = page.getByTestId("guest-panel").first();
    await expect(panel.getByTestId("guest-allergies")).toContainText("Peanuts");
    await expect(panel.getByTestId("guest-allergies")).toContainText("Shellfish");
    await expect(panel.getByTestId("guest-preferences")).toContainText("High floor");
    await expect(panel.getByTestId("guest-preferences")).toContainText("Quiet room");
    await expect(panel.getByTestId("guest-loyalty")).toContainText("Innkeep Rewards · Gold");
    await expect(panel).toContainText("+1 617 555 0188");
    await expectNoHorizontalScroll(page);
    await snap(page, "find-anyone-reservation-guest");

    await page.getByRole("button", { name: "Check in" }).first().click();
    const dialog = page.getByRole("dialog", { name: "Check in" });
    await expect(dialog.getByTestId("guest-allergies")).toContainText("Peanuts");
    await expect(dialog.getByTestId("guest-preferences")).toContainText("High floor");
    await snap(page, "find-anyone-check-in-dialog");
    await dialog.getByRole("button", { name: "Cancel" }).click();
  });
}
