import { expect, test } from "./test";
import { addDays, hourIn, todayIn, v1, zoneNearHour } from "./api";
import { expectNoSeriousAxe } from "./axe";
import { cli, expectNoHorizontalScroll, signIn, snap, uniqueEmail, waitForLive } from "./helpers";
import { hotelOfItsOwn } from "./own-hotel";
import { scan } from "./words-scan";

// Issue 27: a manager closes the business day by hand from the reports page's night-audit tab.
// The hotel (an account of its own, so its audit touches no other spec's data) keeps its audit at
// 6 a.m., in a zone chosen now so that it is between midnight and 5 a.m. there: yesterday is over,
// so it may be closed by hand, and the scheduler will not close it before 6 a.m.

test.describe.configure({ timeout: 180_000 });

/** A zone where it is the small hours now (about half past two). */
const smallHoursZone = () => {
  const zone = zoneNearHour(2.5);
  expect(hourIn(zone)).toBeGreaterThanOrEqual(1);
  expect(hourIn(zone)).toBeLessThanOrEqual(4);
  return zone;
};
const dayIn = (date: string, weekday: "long" | "short", month: "long" | "short") =>
  new Intl.DateTimeFormat("en-US", { weekday, day: "numeric", month, year: "numeric", timeZone: "UTC" }).format(new Date(`${date}T12:00:00Z`));
/** A date as the dashboard writes it for a US hotel: "Wed, Nov 25, 2026". */
const longDay = (date: string) => dayIn(date, "short", "short");

for (const width of [1280, 390]) {
  test(`at ${width} px: a manager runs the night audit by hand and sees the day's flash report`, async ({ page, request }) => {
    const account = cli<{ id: string }>("accounts", "create", "--name", `Hand audit hotels ${width} ${Date.now().toString(36)}`);
    const manager = { email: uniqueEmail("audit-manager"), password: "manager-password-1" };
    cli("users", "create", "--email", manager.email, "--password", manager.password, "--role", "manager", "--account", account.id);
    const key = cli<{ key: string }>("api-keys", "create", "--account", account.id, "--scopes", "reservations:read reservations:write rooms:read rooms:write").key;
    const timezone = smallHoursZone();
    await v1(request, key).post("/properties", {
      name: "Night Owl Hotel",
      timezone,
      currency: "USD",
      audit_hour: 6,
      address: { line1: "1 Quay Street", city: "Portland", country: "US" },
    });
    const today = todayIn(timezone);
    const yesterday = addDays(today, -1);

    await page.setViewportSize({ width, height: 844 });
    await signIn(page, manager);
    await page.goto("/reports");
    await page.getByRole("tab", { name: "Night audit" }).click();
    const panel = page.getByTestId("run-night-audit");
    await expect(panel).toContainText(`Open business day: ${longDay(yesterday)}.`);
    const run = panel.getByRole("button", { name: "Run the night audit now" });
    await expect(run).toBeEnabled();
    await expectNoSeriousAxe(page);
    await expectNoHorizontalScroll(page);

    // The confirmation says what it does, in words.
    await run.click();
    const dialog = page.getByRole("alertdialog");
    await expect(dialog.getByRole("heading", { name: `Close the business day of ${longDay(yesterday)}?` })).toBeVisible();
    await expect(dialog).toContainText(`the business date moves to ${longDay(today)}`);
    await expect(dialog).toContainText("no one will be marked a no-show");
    await expect(dialog).toContainText("No guest due out is still in house.");
    expect(scan(await dialog.innerText())).toEqual([]);
    await expectNoSeriousAxe(page, "[role=alertdialog]");
    await snap(page, `night-audit-by-hand-confirm-${width}`);
    await dialog.getByRole("button", { name: "Run the night audit" }).click();
    await expect(dialog).toBeHidden();

    // The flash report of the day closed, without a reload; today cannot be closed before it is over.
    await expect(page.getByTestId("flash-report")).toContainText(`Flash report of ${dayIn(yesterday, "long", "long")}, written by its night audit.`);
    await expect(panel).toContainText(`Open business day: ${longDay(today)}.`);
    await expect(page.getByTestId("audit-too-early")).toContainText(`The business day of ${longDay(today)} can be closed from`);
    await expect(run).toBeDisabled();
    await expect(page.getByTestId("business-date")).toHaveText(`Business day ${new Intl.DateTimeFormat("en-US", { weekday: "short", day: "numeric", month: "short", timeZone: "UTC" }).format(new Date(`${today}T12:00:00Z`))}`);
    expect(scan(await page.locator("main").innerText())).toEqual([]);
    await expectNoSeriousAxe(page);
    await expectNoHorizontalScroll(page);
    await snap(page, `night-audit-by-hand-${width}`);
  });
}

// Issue 35, item 7: once an audit closed the day (here the sandbox's advance_day), the business
// date is ahead of the calendar, and every page says and uses it: the header, the home page's
// "tonight", housekeeping's "today", the new-reservation form's dates, and the night-audit tab,
// which follows an audit run elsewhere without a reload.
for (const width of [1280, 390]) {
  test(`at ${width} px: with the business date ahead of the calendar, every page uses it`, async ({ page, request }) => {
    const { staff: manager, api, property, rooms, book, today } = await hotelOfItsOwn(request, {
      name: "Ahead Inn",
      role: "manager",
      timezone: "America/New_York",
      sandbox: true,
      property: { address: { line1: "3 Quay Street", city: "Portland", country: "US" } },
      rooms: ["101", "102"],
    });
    const ada = await book("Ada", "Leaving", 1);
    await api.post(`/reservations/${ada.id}/check_in`, { room_id: rooms[0].id });
    await book("Ben", "Arriving", 1, 1);
    // The audit closes today: the business date is tomorrow, while the calendar still says today.
    await api.post("/sandbox/advance_day", { property_id: property.id });
    const business = addDays(today, 1);
    const weekdayMonth = (date: string, weekday: "long" | "short", month: "long" | "short") =>
      new Intl.DateTimeFormat("en-US", { weekday, day: "numeric", month, timeZone: "UTC" }).format(new Date(`${date}T12:00:00Z`));

    await page.setViewportSize({ width, height: 844 });
    await signIn(page, manager);
    await page.getByRole("radio", { name: "Sandbox" }).click();
    await expect(page.getByTestId("sandbox-banner")).toBeVisible();
    const header = page.getByTestId("business-date");
    await expect(header).toHaveText(`Business day ${weekdayMonth(business, "short", "short")}`);

    // Home: tonight is the business date's night, and the desk's lists are that day's.
    await page.goto("/");
    await expect(page.getByRole("main")).toContainText(`Tonight at Ahead Inn · ${weekdayMonth(business, "long", "long")}`);
    await expect(page.getByTestId("owner-desk-today")).toContainText("1 arriving (1 still to come), 1 in house, 1 leaving");
    await expectNoSeriousAxe(page);
    if (width < 1024) await expectNoHorizontalScroll(page);
    await snap(page, "business-date-home");

    // Housekeeping: today is the business date; Ada is due out today.
    await page.goto("/housekeeping");
    await expect(page.getByRole("main")).toContainText(`today ${weekdayMonth(business, "long", "long")}`);
    await expect(page.getByTestId("room-101")).toContainText("Due out today");
    await expectNoSeriousAxe(page);
    await snap(page, "business-date-housekeeping");

    // The new-reservation form opens on the business date and cannot go before it.
    await page.goto("/reservations/new");
    await expect(page.getByLabel("Check-in")).toHaveValue(business);
    await expect(page.getByLabel("Check-in")).toHaveAttribute("min", business);

    // The night-audit tab: the open day is the business date; an audit run elsewhere moves it, and the header, without a reload.
    await page.goto("/reports");
    await page.getByRole("tab", { name: "Night audit" }).click();
    const panel = page.getByTestId("run-night-audit");
    await expect(panel).toContainText(`Open business day: ${longDay(business)}.`);
    await waitForLive(page);
    await api.post("/sandbox/advance_day", { property_id: property.id });
    await expect(panel).toContainText(`Open business day: ${longDay(addDays(today, 2))}.`);
    await expect(header).toHaveText(`Business day ${weekdayMonth(addDays(today, 2), "short", "short")}`);
    expect(scan(await page.locator("main").innerText())).toEqual([]);
    await expectNoSeriousAxe(page);
    if (width < 1024) await expectNoHorizontalScroll(page);
    await snap(page, "business-date-night-audit");
  });
}
