import { expect, test } from "./test";
import { addDays, hourIn, todayIn, v1, zoneNearHour } from "./api";
import { expectNoSeriousAxe } from "./axe";
import { cli, expectNoHorizontalScroll, signIn, snap, uniqueEmail } from "./helpers";
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
    expect(scan(await page.locator("main").innerText())).toEqual([]);
    await expectNoSeriousAxe(page);
    await expectNoHorizontalScroll(page);
    await snap(page, `night-audit-by-hand-${width}`);
  });
}
