import { readFile } from "node:fs/promises";
import { expect, test, type Page } from "./test";
import { PDFParse } from "pdf-parse";
import { addDays, hourIn, v1, zoneNearHour } from "./api";
import { expectNoSeriousAxe } from "./axe";
import { expectNoHorizontalScroll, signIn, waitForLive } from "./helpers";
import { hotelOfItsOwn } from "./own-hotel";
import { scan } from "./words-scan";

// Issue 27, "Tests that must exist": a day at the front desk, in the dashboard alone. A guest
// leaves a night early (the folio loses the unused night, the calendar sells it again), a guest
// in house moves room (the old room goes dirty on the board, the history says so), the night
// audit closes the day and records the unarrived booking as a no-show with the plan's fee, and
// the early leaver's invoice downloads as a PDF. The hotel is set up through /v1 beforehand, in
// an account of its own, so its audit touches no other spec's bookings.
//
// The audit is run the way a hotel runs it: at the hour a manager sets on /settings/property,
// by the server's embedded scheduler (it looks once a minute). The hotel's time zone is chosen
// so that it is afternoon there now: moving the audit to an evening hour already past makes
// today's audit due at once. (Running it by hand from the reports page is
// e2e/night-audit-by-hand.spec.ts; the sandbox's POST /v1/sandbox/advance_day is for integrators.)

test.describe.configure({ timeout: 240_000 });

/** A zone where it is mid-afternoon now: hours from noon on pass for an evening audit, and midnight is far. */
const afternoonZone = () => {
  const zone = zoneNearHour(15.5);
  expect(hourIn(zone)).toBeGreaterThanOrEqual(13);
  expect(hourIn(zone)).toBeLessThanOrEqual(18);
  return zone;
};

/** A hotel of its own: 4 Double rooms at $120.00 a night, a no-show costing the first night; three stays. */
async function hotel(request: Parameters<typeof v1>[0]) {
  const timezone = afternoonZone();
  const { staff: owner, api, today, rooms, book } = await hotelOfItsOwn(request, {
    name: "Harbor Day Hotel",
    role: "owner",
    timezone,
    property: { audit_hour: 3, address: { line1: "2 Quay Street", city: "Portland", country: "US" } },
    plan: { no_show_fee: { type: "nights", nights: 1 } },
    rooms: ["101", "102", "103", "104"],
  });
  // Ada arrived today for two nights (room 101) and leaves after one; Ben is in 102 for three;
  // Cleo was due today and has not come.
  const ada = await book("Ada", "Early", 2);
  await api.post(`/reservations/${ada.id}/check_in`, { room_id: rooms[0].id });
  const ben = await book("Ben", "Mover", 3);
  await api.post(`/reservations/${ben.id}/check_in`, { room_id: rooms[1].id });
  const cleo = await book("Cleo", "Absent", 2);
  return { owner, timezone, today, ada, ben, cleo, hour: hourIn(timezone) };
}

/** The visible text of the page once loaded: no id, code, JSON or minor-unit amount in it. */
async function expectStaffWords(page: Page) {
  await expect(page.locator("[data-loading]")).toHaveCount(0, { timeout: 20_000 });
  expect(scan(await page.locator("main").innerText())).toEqual([]);
}

for (const width of [1280, 390]) {
  test(`at ${width} px: an early departure, a room move, a no-show from the night audit and an invoice downloaded`, async ({ page, request }) => {
    const day = await hotel(request);
    const night = (n: number) => addDays(day.today, n);
    const calendarCell = (n: number) => page.getByTestId(`cell-DBL-${night(n)}`);
    await page.setViewportSize({ width, height: 844 });
    await signIn(page, day.owner);

    // Tomorrow night is sold three times: Ada, Ben and Cleo.
    await page.goto("/calendar");
    await expect(calendarCell(1)).toHaveAccessibleName(/1 available of 4, 3 sold/);

    // 1. Ada leaves a night early. The check-out says what leaving today does before it does it,
    //    the desk takes the one night's payment, and she is checked out.
    await page.goto(`/reservations/${day.ada.id}`);
    await expect(page.getByRole("heading", { level: 1, name: "Ada Early" })).toBeVisible();
    await expect(page.getByTestId("folio-balance")).toHaveText("$240.00");
    await page.getByRole("group", { name: "Reservation actions" }).getByRole("button", { name: "Check out" }).click();
    let dialog = page.getByRole("alertdialog", { name: "Check out early" });
    await expect(dialog.getByTestId("checkout-departure")).toContainText("Leaving early");
    await expect(dialog.getByTestId("checkout-departure")).toContainText("1 night, price $120.00 (was $240.00)");
    await expect(dialog.getByTestId("checkout-balance")).toContainText("The balance after that is $120.00");
    await dialog.getByRole("button", { name: "Take payment of $120.00" }).click();
    const pay = page.getByRole("dialog", { name: "Take a payment" });
    await expect(pay.getByLabel("Method")).toHaveValue("cash");
    await pay.getByRole("button", { name: "Take payment" }).click();
    await expect(page.getByText("Payment of $120.00 received")).toBeVisible();
    // Shortened before the payment, so the check-out it comes back to finds the folio settled.
    dialog = page.getByRole("alertdialog", { name: "Check out?" });
    await expect(dialog.getByTestId("checkout-balance")).toContainText("The folio is then settled");
    await dialog.getByRole("button", { name: "Check out" }).click();
    await expect(page.getByText("Checked out; the room is now dirty")).toBeVisible();
    await expect(page.getByRole("main").getByText("Checked out", { exact: true }).first()).toBeVisible();
    // The folio keeps one night: the unused one is gone, and it is settled.
    const adaCharges = page.getByRole("region", { name: "Charges" });
    await expect(adaCharges.getByRole("listitem")).toHaveCount(1);
    await expect(adaCharges).toContainText("$120.00");
    await expect(page.getByTestId("folio-balance")).toHaveText("$0.00");
    await expect(page.getByRole("main")).toContainText(`· 1 night`);
    await expectStaffWords(page);

    // The calendar sells tomorrow night again.
    await page.goto("/calendar");
    await expect(calendarCell(1)).toHaveAccessibleName(/2 available of 4, 2 sold/);

    // 2. Ben moves from 102 to 103: the history says so, and 102 waits dirty on the board.
    await page.goto(`/reservations/${day.ben.id}`);
    await expect(page.getByTestId("room-number")).toContainText("Room 102");
    await page.getByRole("group", { name: "Reservation actions" }).getByRole("button", { name: "Move room" }).click();
    dialog = page.getByRole("dialog", { name: "Move to another room" });
    const newRoom = dialog.getByLabel("New room");
    await newRoom.selectOption({ label: (await newRoom.locator("option", { hasText: "Room 103" }).textContent())! });
    await dialog.getByLabel("Reason (optional)").fill("Noisy air conditioning");
    await dialog.getByRole("button", { name: "Move guest" }).click();
    await expect(page.getByText("Moved; room 102 is now dirty")).toBeVisible();
    await expect(page.getByTestId("room-number")).toContainText("Room 103");
    await expect(page.getByTestId("audit-entry").filter({ hasText: "Moved from room 102 to room 103" })).toHaveCount(1);
    await expectStaffWords(page);
    await page.goto("/housekeeping");
    await expect(page.getByTestId("column-dirty").getByTestId("room-102")).toBeVisible();
    await expect(page.getByTestId("column-dirty").getByTestId("room-101")).toBeVisible();
    if (width === 390) await expectNoHorizontalScroll(page);

    // 3. The night audit. Cleo is still expected. The owner sets the audit to this afternoon's
    //    hour, already past, so the embedded scheduler closes today within a minute: Cleo, who
    //    never came, becomes a no-show, which her page, open at the desk, shows as it happens.
    const cleoRow = async () => {
      await page.goto("/reservations?tab=search");
      await page.getByRole("searchbox").fill("Absent");
      return page.getByTestId(`reservation-${day.cleo.id}`).filter({ visible: true });
    };
    await expect(await cleoRow()).toContainText("Confirmed");
    await page.goto("/settings/property");
    const form = page.getByRole("form", { name: "Property" });
    await form.getByLabel("Night audit at").selectOption(`${day.hour}`);
    await form.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText("Harbor Day Hotel saved.")).toBeVisible();
    await page.goto(`/reservations/${day.cleo.id}`);
    await expect(page.getByRole("heading", { level: 1, name: "Cleo Absent" })).toBeVisible();
    await waitForLive(page);
    // The scheduler looks once a minute: at most a minute and the live stream's second. The
    // plan's no-show fee (the first night) replaces the room charges.
    const charges = page.getByRole("region", { name: "Charges" });
    await expect(charges).toContainText(/No-show fee.*\$120\.00/s, { timeout: 90_000 });
    await expect(charges.getByRole("listitem")).toHaveCount(1);
    await expect(page.getByRole("group", { name: "Reservation actions" }).getByRole("button")).toHaveCount(0);
    await expect(page.getByRole("main").getByText("No-show", { exact: true })).toBeVisible();
    await expect(page.getByTestId("folio-balance")).toHaveText("$120.00");
    await expectStaffWords(page);
    // The day's flash report counts it.
    await page.goto("/reports");
    await page.getByRole("tab", { name: "Night audit" }).click();
    await expect(page.getByTestId("flash-report")).toContainText(/No-shows\s*1/);
    // The night Cleo held is back on sale: only Ben sleeps here tomorrow.
    await page.goto("/calendar");
    await expect(calendarCell(1)).toHaveAccessibleName(/3 available of 4, 1 sold/);

    // 4. Ada's invoice, downloaded from her reservation: a PDF, named for the hotel, with her name.
    await page.goto(`/reservations/${day.ada.id}`);
    const link = page.getByRole("link", { name: "Download invoice" }).first();
    const downloading = page.waitForEvent("download");
    await link.click();
    const download = await downloading;
    // What the link answers, with this browser's session: Playwright sees neither the headers of
    // a download (no response event, no route) nor its content type, so the link is asked again.
    const answer = await page.request.get((await link.getAttribute("href"))!);
    expect(answer.status()).toBe(200);
    expect(answer.headers()["content-type"]).toBe("application/pdf");
    expect(answer.headers()["content-disposition"]).toMatch(/^attachment;/);
    expect(download.suggestedFilename()).toMatch(/^Harbor Day Hotel invoice \d+\.pdf$/);
    const bytes = await readFile((await download.path())!);
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const parser = new PDFParse({ data: new Uint8Array(bytes) });
    const text = (await parser.getText()).text;
    await parser.destroy();
    for (const words of ["Harbor Day Hotel", "Ada Early", "$120.00"]) expect(text, words).toContain(words);
    expect(text).not.toContain("$240.00");
    if (width === 390) await expectNoHorizontalScroll(page);
    await expectNoSeriousAxe(page);
  });
}
