import { readFileSync } from "node:fs";
import { expect, test, type Page } from "./test";
import { addDays, businessDayOf, v1 } from "./api";
import { createApiKey, createStaff, expectNoHorizontalScroll, signIn, snap, uniqueEmail } from "./helpers";

// Issue #9: reports as charts and tables for a range, and a CSV download of the table on screen
// (same rows, same columns; each cell carries the report's raw value, the CSV writes it for a
// spreadsheet: headers and groups in words, money in major units with a Currency column).

/** The visible table's cells as the CSV has them: a header of column names, then the raw values. */
async function tableOnScreen(page: Page, name: string, rowCount?: number) {
  const table = page.getByRole("table", { name });
  await expect(table).toBeVisible();
  // Wait for the report the inputs ask for, not the previous one kept on screen while it loads.
  await expect(page.locator("[aria-busy]")).toHaveCount(0);
  if (rowCount !== undefined) await expect(table.locator("tbody tr")).toHaveCount(rowCount);
  const rows = table.locator("tbody tr");
  const header = await rows
    .first()
    .locator("[data-col]")
    .evaluateAll((cells) => cells.map((c) => c.getAttribute("data-col")!));
  const body = await rows.evaluateAll((trs) =>
    trs.map((tr) => [...tr.querySelectorAll("[data-col]")].map((c) => c.getAttribute("data-value") ?? "")),
  );
  return [header, ...body];
}

async function downloadedCsv(page: Page) {
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download CSV" }).click()]);
  const text = readFileSync((await download.path())!, "utf8");
  return {
    name: download.suggestedFilename(),
    rows: text
      .trimEnd()
      .split("\r\n")
      .map((line) => line.split(",")),
  };
}

const major = (cents: string) => (Number(cents) / 100).toFixed(2);
const percent = (ratio: string) => String(Math.round(Number(ratio) * 10_000) / 100);
/** The property's name as its CSV files start: "Sandbox Harbor Hotel" → "sandbox-harbor-hotel". */
const slug = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

// Several sign-ins and API round trips each: more than the default 30 s on a busy machine.
test.describe.configure({ timeout: 90_000 });

test("occupancy, revenue and production for a range; each CSV equals its table", async ({ page, request }) => {
  // One stay of this spec's own inside the range, so production has a row to show.
  const api = v1(request, createApiKey());
  const property = (await api.get("/properties")).data[0];
  // The seeded double rooms and their BAR plan: other specs add room types of their own.
  const roomType = (await api.get(`/room_types?property_id=${property.id}&limit=100`)).data.find((t: { code: string }) => t.code === "DBL");
  const plan = (await api.get(`/rate_plans?property_id=${property.id}&limit=100`)).data.find((p: { code: string }) => p.code === "BAR");
  const today = businessDayOf(property);
  const checkIn = addDays(today, 2 + Math.floor(Math.random() * 10));
  await api.post("/reservations", {
    property_id: property.id,
    room_type_id: roomType.id,
    rate_plan_id: plan.id,
    check_in: checkIn,
    check_out: addDays(checkIn, 2),
    adults: 1,
    guest: { first_name: "Report", last_name: "Guest", email: uniqueEmail("report") },
    source: "phone",
  });

  await signIn(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Reports" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Reports" })).toBeVisible();
  await page.getByLabel("First night").fill(today);
  await page.getByLabel("Last night").fill(addDays(today, 20));

  // Occupancy: 21 nights, chart and table; the CSV is the table.
  await expect(page.getByRole("figure", { name: "Occupancy per night (%)" })).toBeVisible();
  const occupancy = await tableOnScreen(page, "Occupancy by night", 21);
  expect(occupancy).toHaveLength(22);
  expect(occupancy[1][0]).toBe(today);
  const occupancyCsv = await downloadedCsv(page);
  expect(occupancyCsv.name).toBe(`${slug(property.name)}-occupancy-${today}-to-${addDays(today, 20)}.csv`);
  expect(occupancyCsv.rows).toEqual([
    ["Night", "Rooms available", "Rooms sold", "Occupancy (%)"],
    ...occupancy.slice(1).map((r) => [r[0], r[1], r[2], percent(r[3])]),
  ]);
  const sold = occupancy.slice(1).find((r) => r[0] === checkIn)!;
  expect(Number(sold[2])).toBeGreaterThanOrEqual(1);
  await snap(page, "reports");

  // Revenue.
  await page.getByRole("tab", { name: "Revenue" }).click();
  await expect(page.getByRole("figure", { name: /Room revenue, ADR and RevPAR/ })).toBeVisible();
  const revenue = await tableOnScreen(page, "Revenue by night", 21);
  expect(revenue[0]).toEqual(["date", "room_revenue", "net", "tax", "gross", "other_net", "other_tax", "other_gross", "adr", "revpar", "payments", "refunds"]);
  expect((await downloadedCsv(page)).rows).toEqual([
    ["Night", "Room revenue", "Charged net", "Charged tax", "Charged gross", "Other revenue net", "Other revenue tax", "Other revenue gross", "ADR", "RevPAR", "Payments", "Refunds", "Currency"],
    ...revenue.slice(1).map((r) => [r[0], ...r.slice(1).map(major), property.currency]),
  ]);
  await snap(page, "reports-revenue");

  // Production grouped by room type, then by source.
  await page.getByRole("tab", { name: "Production" }).click();
  await page.getByLabel("Group by").selectOption("room_type");
  const byType = await tableOnScreen(page, "Production by room type");
  expect(byType[0]).toEqual(["group", "group_name", "reservations", "room_nights", "room_revenue", "net", "tax", "gross", "other_net", "other_tax", "other_gross", "cancellations", "no_shows"]);
  expect(byType.slice(1).map((r) => r[0])).toContain(roomType.id);
  // On screen and in the CSV the group is the room type's name, never its id.
  await expect(page.getByRole("table", { name: "Production by room type" })).toContainText(roomType.name);
  const label = async (group: string) => (await page.locator(`[data-col="group"][data-value="${group}"]`).first().innerText()).trim();
  const byTypeCsv = await downloadedCsv(page);
  const productionRows = async (rows: string[][]) =>
    Promise.all(
      rows.slice(1).map(async (r) => [await label(r[0]), r[2], r[3], ...r.slice(4, 11).map(major), r[11], r[12], property.currency]),
    );
  expect(byTypeCsv.rows).toEqual([
    ["Room type", "Reservations", "Room nights", "Room revenue", "Charged net", "Charged tax", "Charged gross", "Other revenue net", "Other revenue tax", "Other revenue gross", "Cancellations", "No-shows", "Currency"],
    ...(await productionRows(byType)),
  ]);
  await page.getByLabel("Group by").selectOption("source");
  const bySource = await tableOnScreen(page, "Production by source");
  expect(bySource.slice(1).map((r) => r[0])).toContain("phone");
  expect(await label("phone")).toBe("Phone");
  // Source rows have no code column: line them up with the room types' (group, code, counts…).
  const bySourceRows = [bySource[0], ...bySource.slice(1).map((r) => [r[0], "", ...r.slice(1)])];
  expect((await downloadedCsv(page)).rows).toEqual([
    ["Source", "Reservations", "Room nights", "Room revenue", "Charged net", "Charged tax", "Charged gross", "Other revenue net", "Other revenue tax", "Other revenue gross", "Cancellations", "No-shows", "Currency"],
    ...(await productionRows(bySourceRows)),
  ]);
  await snap(page, "reports-production");

  // A backwards range is refused on the page, before any request.
  await page.getByLabel("Last night").fill(addDays(today, -3));
  await expect(page.getByRole("alert").filter({ hasText: "must not be before" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Download CSV" })).toHaveCount(0);
});

test("reports at 390 px: no horizontal scrolling, tables become lists", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page);
  await page.goto("/reports");
  await expect(page.getByRole("figure", { name: "Occupancy per night (%)" })).toBeVisible();
  await expect(page.getByRole("list", { name: "Occupancy by night" })).toBeVisible();
  await expectNoHorizontalScroll(page);
  await snap(page, "reports");
  await page.getByRole("tab", { name: "Revenue" }).click();
  await expect(page.getByRole("list", { name: "Revenue by night" })).toBeVisible();
  await expectNoHorizontalScroll(page);
});

test("front desk cannot reach reports or their CSV", async ({ page }) => {
  await signIn(page, createStaff("front_desk"));
  await page.goto("/reports");
  await expect(page.getByText("This page is not available for your role.")).toBeVisible();
  const res = await page.request.get("/reports/export?type=occupancy&property_id=prop_x&from=2026-01-01&to=2026-01-02");
  expect(res.status()).toBe(403);
});
