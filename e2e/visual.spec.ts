import { expect, test, type Locator, type Page } from "./test";
import { createApiKey, createStaff, signIn } from "./helpers";
import { plusDays } from "./rooms-setup";

// Issue 23, point 6: the main pages compared with the screenshots committed beside this file
// (e2e/visual.spec.ts-snapshots/), at 1280 and 390 px, so a layout regression fails here instead
// of being looked at by nobody. What changes from run to run (moments, dates, e-mails made
// unique per run) is masked; the data is this spec's own, under fixed names. Update the
// baselines on purpose, after looking at the difference: `npx playwright test e2e/visual.spec.ts
// --update-snapshots=all` (plain `--update-snapshots` keeps images within the tolerance) (README, "Browser tests").

/** Anything showing a moment or a day: `<time>` elements and text naming a month or a weekday. */
const changing = (page: Page) => [
  page.locator("time"),
  page.getByText(/\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.? \d/),
  page.getByText(/\b\d{1,2}[\s\u00a0\u202f](Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\b/),
  page.getByText(/\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*\b,? /),
  page.locator("[data-visual-mask]"),
];

async function compare(page: Page, name: string, also: Locator[] = []) {
  await expect(page.locator("[data-loading]")).toHaveCount(0, { timeout: 20_000 });
  // Fonts loaded, nothing animating: the same pixels every time.
  await page.evaluate(() => document.fonts.ready);
  await expect(page).toHaveScreenshot(`${name}-${page.viewportSize()!.width}.png`, { fullPage: true, mask: [...changing(page), ...also] });
}

const widths = [1280, 390] as const;

test("sign-in", async ({ page }) => {
  for (const width of widths) {
    await page.setViewportSize({ width, height: 844 });
    await page.goto("/signin");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await compare(page, "signin");
  }
});

test("a guest, a reservation and a housekeeper's rooms", async ({ page, request, browser }) => {
  test.setTimeout(120_000);
  const headers = { authorization: `Bearer ${createApiKey()}` };
  const post = async (path: string, data: unknown, status = 201) => {
    const res = await request.post(path, { headers, data });
    expect(res.status(), await res.text()).toBe(status);
    return res.json();
  };
  const property = (await (await request.get("/v1/properties", { headers })).json()).data[0];
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: property.timezone }).format(new Date());
  // Fixed names: each browser run starts on a new database, and only this spec makes these.
  const type = await post("/v1/room_types", { property_id: property.id, code: "VIS", name: "Garden Twin", max_occupancy: 2 });
  const room = await post("/v1/rooms", { room_type_id: type.id, number: "V-101", floor: 1 });
  const plan = await post("/v1/rate_plans", { property_id: property.id, code: "VISBAR", name: "Visual rate", room_type_ids: [type.id], refundable: true, cancellation_deadline_hours: 24 });
  await post(`/v1/rate_plans/${plan.id}/rates`, { room_type_id: type.id, from: today, to: plusDays(today, 30), amount: 14_500 }, 200);
  const guest = await post("/v1/guests", { first_name: "Vera", last_name: "Visual", email: "vera.visual@e2e.example", phone: "+1 212 555 0142" });
  const stay = await post("/v1/reservations", {
    property_id: property.id,
    room_type_id: type.id,
    rate_plan_id: plan.id,
    check_in: plusDays(today, 7),
    check_out: plusDays(today, 9),
    adults: 2,
    guest: { first_name: "Vera", last_name: "Visual", email: "vera.visual@e2e.example" },
  });
  const housekeeper = createStaff("housekeeping");
  await post(`/v1/rooms/${room.id}/housekeeping`, { status: "dirty" }, 200);
  await post("/v1/housekeeping/assignments", { property_id: property.id, date: today, room_id: room.id, assignee: housekeeper.email, notes: "Extra pillows" });

  await signIn(page);
  for (const width of widths) {
    await page.setViewportSize({ width, height: 844 });
    await page.goto(`/guests/${guest.id}`);
    await expect(page.getByRole("heading", { level: 1, name: "Vera Visual" })).toBeVisible();
    await expect(page.getByTestId(`reservation-${stay.id}`).filter({ visible: true })).toHaveCount(1);
    await compare(page, "guest");
    await page.goto(`/reservations/${stay.id}`);
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Vera Visual");
    await compare(page, "reservation");
  }

  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const hk = await context.newPage();
  await signIn(hk, housekeeper);
  for (const width of widths) {
    await hk.setViewportSize({ width, height: 844 });
    await hk.goto("/");
    await expect(hk.getByTestId("my-room-V-101")).toBeVisible();
    // The housekeeper's e-mail is new each run.
    await compare(hk, "housekeeper-home", [hk.getByText(housekeeper.email)]);
  }
  await context.close();
});
