import { expect, test, type Page } from "./test";
import { v1 } from "./api";
import { expectNoSeriousAxe } from "./axe";
import { createApiKey, createStaff, expectNoHorizontalScroll, signIn, snap, toasts, uniqueEmail } from "./helpers";
import { ownRoomType, plusDays } from "./rooms-setup";
import { scan } from "./words-scan";

// Issue 39, points 1, 5 and 6 as staff meet them: the erased guest, a free cancellation's folio, the
// rate plan's terms, loyalty points, the production chart, the mail outbox and its banner, and an
// out-of-order room and "Mark clean" on a housekeeper's phone. Each at 1280 and 390 px, with axe.

test.describe.configure({ timeout: 180_000 });

let key: string;
test.beforeAll(() => {
  key = createApiKey();
});

async function atBothWidths(page: Page, name: string, check: () => Promise<void>) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await check();
    await expectNoSeriousAxe(page);
    if (width === 390) await expectNoHorizontalScroll(page);
    expect(scan(await page.locator("main").innerText())).toEqual([]);
    await snap(page, `desk-${name}`);
  }
}

test("a free cancellation offers no invoice, the plan's terms are said once, and an erased guest reads as erased with nothing to edit", async ({ page, request }) => {
  const t = await ownRoomType(request, key, { rates: true });
  const api = v1(request, key);
  const nrf = await t.post("/v1/rate_plans", { property_id: t.propertyId, code: `N${t.code}`, name: "Non-refundable", room_type_ids: [t.roomTypeId], refundable: false, cancellation_deadline_hours: 0 });
  await t.post(`/v1/rate_plans/${nrf.id}/rates`, { room_type_id: t.roomTypeId, from: t.today, to: plusDays(t.today, 30), amount: 10_000 }, 200);
  const guest = { first_name: "Erin", last_name: "Erased", email: uniqueEmail("erin") };
  const stay = (ratePlan: string) => ({ property_id: t.propertyId, room_type_id: t.roomTypeId, rate_plan_id: ratePlan, check_in: plusDays(t.today, 5), check_out: plusDays(t.today, 6), adults: 1, guest });
  const cancelled = await api.post("/reservations", stay(t.ratePlanId!));
  await api.post(`/reservations/${cancelled.id}/cancel`, {});
  const strict = await api.post("/reservations", stay(nrf.id));

  await signIn(page);
  await page.goto(`/reservations/${cancelled.id}`);
  await atBothWidths(page, "free-cancellation", async () => {
    await expect(page.getByRole("heading", { name: "Folio" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Guest e-mails" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Issue invoice" })).toHaveCount(0);
  });
  await page.goto(`/reservations/${strict.id}`);
  await atBothWidths(page, "non-refundable", async () => {
    const plan = page.locator("dt", { hasText: "Rate plan" }).locator("xpath=following-sibling::dd[1]");
    await expect(plan).toHaveText("Non-refundable");
  });

  await api.post(`/guests/${cancelled.guest.id}/erase`, { confirm: true });
  await page.goto(`/guests/${cancelled.guest.id}`);
  await atBothWidths(page, "erased-guest", async () => {
    await expect(page.getByText("Erased on request").first()).toBeVisible();
    await expect(page.getByText("None given (walk-in)")).toHaveCount(0);
    await expect(page.getByTestId("preferences-erased")).toBeVisible();
    await expect(page.getByRole("button", { name: "Save preferences" })).toHaveCount(0);
  });
});

test("loyalty points take a whole number and say so; the production chart names its groups in words", async ({ page, request }) => {
  const t = await ownRoomType(request, key, { rates: true });
  // A walk-in arriving today: in the production report's default range, grouped by source.
  const booked = await t.post("/v1/reservations", {
    property_id: t.propertyId,
    room_type_id: t.roomTypeId,
    rate_plan_id: t.ratePlanId,
    check_in: t.today,
    check_out: plusDays(t.today, 1),
    adults: 1,
    source: "walk_in",
    guest: { first_name: "Pia", last_name: "Loyal", email: uniqueEmail("pia") },
  });
  await signIn(page);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/guests/${booked.guest.id}`);
  await page.getByLabel("Points", { exact: true }).fill("lots");
  await page.getByRole("button", { name: "Save preferences" }).click();
  await expect(page.getByText("Points are a whole number, such as 1200; leave empty for none.")).toBeVisible();
  expect(scan(await page.locator("main").innerText())).toEqual([]);
  await page.getByLabel("Points", { exact: true }).fill("1200");
  await page.getByRole("button", { name: "Save preferences" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved" })).toBeVisible();

  await page.goto("/reports");
  await page.getByRole("tab", { name: "Production" }).click();
  const ticks = page.locator("figure .recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value");
  await expect(ticks.first()).toBeVisible();
  const labels = await ticks.allTextContents();
  expect(labels).toContain("Walk-in");
  for (const label of labels) expect(label, label).not.toMatch(/^[a-z]+(?:_[a-z]+)*$/);
});

test("the outbox shows each mail in words with a preview and sends it again; the banner says mail is held without a mail server", async ({ page, request }) => {
  const t = await ownRoomType(request, key, { rates: true });
  const email = uniqueEmail("olive");
  await t.post("/v1/reservations", { property_id: t.propertyId, room_type_id: t.roomTypeId, rate_plan_id: t.ratePlanId, check_in: plusDays(t.today, 3), check_out: plusDays(t.today, 4), adults: 1, guest: { first_name: "Olive", last_name: "Outbox", email } });
  await signIn(page);
  await page.goto("/settings/property");
  await expect(page.getByTestId("mail-held")).toContainText("E-mail cannot be sent: no mail server is set up.");
  await page.goto("/developers/outbox");
  const mail = page.getByTestId("mail").filter({ hasText: email }).first();
  await atBothWidths(page, "outbox", async () => {
    await expect(page.getByTestId("mail-held")).toBeVisible();
    await expect(mail).toContainText("Confirmation e-mail to a guest");
    await expect(mail).toContainText("Held: no mail server");
  });
  await page.setViewportSize({ width: 1280, height: 900 });
  await mail.locator("summary").click();
  const preview = mail.frameLocator("iframe");
  await expect(preview.getByText("Dear Olive Outbox,")).toBeVisible();
  await expect(preview.getByText(/Free cancellation until/)).toBeVisible();
  const text = await mail.innerText();
  for (const raw of ["livemode", "kind", "attempts", "mail_", "<p>"]) expect(text).not.toContain(raw);
  await mail.getByRole("button", { name: "Send again" }).click();
  await expect(toasts(page).getByText(`Sent again to ${email}`)).toBeVisible();
  await expect(page.getByTestId("mail").filter({ hasText: email })).toHaveCount(2);
});

test("a housekeeper's phone: an out-of-order room says why and until when, is extended or returned to service; Mark clean completes the room", async ({ page, request }) => {
  const t = await ownRoomType(request, key, { rooms: 2 });
  const housekeeper = createStaff("housekeeping");
  const [broken, dirty] = t.rooms;
  await t.post(`/v1/rooms/${broken.id}/housekeeping`, { status: "out-of-order", reason: "Leaking shower", until: plusDays(t.today, 2) }, 200);
  // New rooms are clean (db/schema/rooms.ts): this one is made dirty, to be cleaned.
  await t.post(`/v1/rooms/${dirty.id}/housekeeping`, { status: "dirty" }, 200);
  for (const room of [dirty, broken]) await t.post("/v1/housekeeping/assignments", { property_id: t.propertyId, date: t.today, room_id: room.id, assignee: housekeeper.email });

  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, housekeeper);
  await page.goto("/");
  // The walking order: floor, then number (both on floor 4: 1 before 2), as the board lists them.
  const cards = page.locator('[data-testid^="my-room-"]');
  await expect(cards).toHaveCount(2);
  expect(await cards.evaluateAll((els) => els.map((e) => e.getAttribute("data-testid")))).toEqual([`my-room-${broken.number}`, `my-room-${dirty.number}`]);
  const blocked = page.getByTestId(`my-room-${broken.number}`);
  await expect(blocked.getByTestId("out-of-order")).toContainText("Out of order: Leaking shower · back in service");
  await expect(page.getByText(/2 of 2 to do/)).toBeVisible();
  await expectNoSeriousAxe(page);
  await expectNoHorizontalScroll(page);
  await snap(page, "desk-phone-out-of-order");

  await blocked.getByRole("button", { name: `Room ${broken.number}: extend out of order` }).click();
  const dialog = page.getByRole("dialog", { name: `Room ${broken.number} stays out of order` });
  await dialog.getByLabel("Back in service on").fill(plusDays(t.today, 4));
  await dialog.getByRole("button", { name: "Save the new date" }).click();
  await expect(dialog).toBeHidden();
  await expect(toasts(page).getByText(`Room ${broken.number} stays out of order until its new date.`)).toBeVisible();

  await page.getByRole("button", { name: `Room ${dirty.number}: mark clean` }).click();
  await expect(page.getByText(/1 of 2 to do/)).toBeVisible();
  await expect(page.getByTestId(`my-room-${dirty.number}`)).toContainText("Done");

  await blocked.getByRole("button", { name: `Room ${broken.number}: return to service` }).click();
  await expect(blocked.getByTestId("out-of-order")).toHaveCount(0);
  expect(scan(await page.locator("main").innerText())).toEqual([]);
});
