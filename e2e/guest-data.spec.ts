import { expect, test } from "./test";
import { createApiKey, createStaff, expectNoHorizontalScroll, signIn, snap, uniqueEmail } from "./helpers";
import { ownRoomType, plusDays } from "./rooms-setup";

// Issue 27, points 5 and 6: the guest's confirmation e-mail previewed on the reservation page, the
// registration card printed at check-in, and a guest erased on request by an owner.

// Several pages and a build under load: more than the default 30 s.
test.describe.configure({ timeout: 120_000 });

let key: string;
let owner: { email: string; password: string };
/** Letters only, so the name is a name: a fresh surname per run. */
const surname = `Wrenly${Array.from({ length: 6 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join("")}`;
let reservationId = "";
let guestId = "";
let hotel = "";

test.beforeAll(async ({ request }) => {
  test.setTimeout(180_000); // two CLI commands and a room type set up, under load
  key = createApiKey();
  owner = createStaff("owner");
  const t = await ownRoomType(request, key, { rooms: 1, rates: true });
  const property = await (await request.get(`/v1/properties/${t.propertyId}`, { headers: { authorization: `Bearer ${key}` } })).json();
  hotel = property.name;
  const booking = await t.post("/v1/reservations", {
    property_id: t.propertyId,
    room_type_id: t.roomTypeId,
    rate_plan_id: t.ratePlanId,
    check_in: plusDays(t.today, 3),
    check_out: plusDays(t.today, 5),
    adults: 2,
    guest: { first_name: "Ottilie", last_name: surname, email: uniqueEmail("ottilie"), phone: "+1 617 555 0142" },
  });
  reservationId = booking.id;
  guestId = booking.guest.id;
});

for (const width of [1280, 390]) {
  test(`previews the confirmation e-mail and prints the registration card, at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await signIn(page, owner);
    await page.goto(`/reservations/${reservationId}`);
    await expect(page.getByRole("heading", { level: 1, name: `Ottilie ${surname}` })).toBeVisible();

    // The mail the booking queued, in words: held, as the outbox says, for the browser tests' server has no mail server.
    const sent = page.getByRole("list", { name: "E-mails to the guest" });
    await expect(sent.getByText("Confirmation")).toBeVisible();
    await expect(sent.getByText("Held: no mail server")).toBeVisible();

    await page.getByRole("button", { name: "Preview confirmation e-mail" }).click();
    const dialog = page.getByRole("dialog", { name: "Preview confirmation e-mail" });
    await expect(dialog.getByTestId("mail-subject")).toHaveText(`Your booking at ${hotel} is confirmed`);
    const mail = dialog.frameLocator("iframe");
    await expect(mail.getByText(`Dear Ottilie ${surname},`)).toBeVisible();
    await expect(mail.getByRole("row", { name: /Nights\s+2/ })).toBeVisible();
    await dialog.getByRole("button", { name: "Plain text" }).click();
    await expect(dialog.getByTestId("mail-text")).toContainText("Cancellation policy");
    await expectNoHorizontalScroll(page);
    await snap(page, "guest-mail-preview");
    await page.keyboard.press("Escape");

    // The registration card, as paper gets it: no dashboard around it, no Print button on the page.
    const [card] = await Promise.all([page.context().waitForEvent("page"), page.getByRole("link", { name: "Print registration card" }).click()]);
    await card.setViewportSize({ width, height: 900 });
    await expect(card.getByRole("heading", { name: hotel })).toBeVisible();
    await expect(card.getByText("Registration card")).toBeVisible();
    await expect(card.getByText(`Ottilie ${surname}`)).toBeVisible();
    await expect(card.getByText("Guest's signature")).toBeVisible();
    await expect(card.getByRole("button", { name: "Print" })).toBeVisible();
    await expect(card.getByRole("navigation")).toHaveCount(0);
    await expectNoHorizontalScroll(card);
    await snap(card, "registration-card");
    await card.emulateMedia({ media: "print" });
    await expect(card.getByRole("button", { name: "Print" })).toBeHidden();
    await expect(card.getByText("Guest's signature")).toBeVisible();
    await card.close();
  });
}

test("an owner erases a guest on request, after a dialog that says what happens", async ({ page }) => {
  await signIn(page, owner);
  await page.goto(`/guests/${guestId}`);
  await expect(page.getByRole("heading", { level: 1, name: `Ottilie ${surname}` })).toBeVisible();
  await page.getByRole("button", { name: "Erase guest…" }).click();
  const dialog = page.getByRole("alertdialog", { name: `Erase Ottilie ${surname}?` });
  await expect(dialog).toContainText("This cannot be undone");
  await expect(dialog).toContainText("stays, folios, payments and refunds stay");
  await dialog.getByRole("button", { name: "Erase for good" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("heading", { level: 1, name: "Erased guest" })).toBeVisible();
  await expect(page.getByText("personal data was erased on request")).toBeVisible();
  await snap(page, "guest-erased");

  // Nowhere to be found afterwards: not by search, and the stay shows the anonymised guest.
  await page.goto(`/reservations/${reservationId}`);
  await expect(page.getByRole("heading", { level: 1, name: "Erased guest" })).toBeVisible();
  await expect(page.getByText(surname)).toHaveCount(0);
});
