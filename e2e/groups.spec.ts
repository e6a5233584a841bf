import { expect, test, type APIRequestContext, type Page } from "./test";
import { expectNoSeriousAxe } from "./axe";
import { createApiKey, createStaff, expectNoHorizontalScroll, signIn, snap, uniqueEmail } from "./helpers";

// Issue 27, item 2, at the desk: a booking of two rooms on one master folio, one room checked in
// on its own, and a stay upgraded free of charge after its price was shown. Everything happens in
// the sandbox hotel, on room types the test makes through /v1.

const tz = "America/New_York";
/** The sandbox hotel's business date (read with its room types), `days` from it: the desk's today, not the calendar's. */
let businessDay: string | undefined;
const todayAt = (days = 0) => {
  const today = businessDay ?? new Intl.DateTimeFormat("en-CA", { timeZone: tz, year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date());
  return new Date(Date.parse(`${today}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
};

let key: string;

async function v1<T = Record<string, any>>(request: APIRequestContext, method: "GET" | "POST", path: string, body?: unknown): Promise<T> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const headers = { authorization: `Bearer ${key}`, "service-environment": "sandbox", ...(body ? { "content-type": "application/json" } : {}) };
  const res = await request.fetch(`/v1${path}`, { method, headers, data: body ? JSON.stringify(body) : undefined });
  expect(res.ok(), `${method} ${path}: ${await res.text()}`).toBeTruthy();
  return (await res.json()) as T;
}

/** A room type of its own with `rooms` clean rooms and a refundable plan at 100.00 a night. */
async function roomType(request: APIRequestContext, rooms: number, label: string) {
  const property = (await v1<{ data: { id: string; name: string; business_date: string | null }[] }>(request, "GET", "/properties")).data.find((p) => p.name === "Sandbox Harbor Hotel")!;
  businessDay = property.business_date ?? undefined;
  const code = `${label}${Date.now().toString(36).slice(-4)}${Math.random().toString(36).slice(2, 4)}`.toUpperCase();
  const type = await v1(request, "POST", "/room_types", { property_id: property.id, code, name: `${label} ${code}`, max_occupancy: 2 });
  for (let i = 0; i < rooms; i++) await v1(request, "POST", "/rooms", { room_type_id: type.id, number: `${code}-${i + 1}`, floor: 8 });
  const plan = await v1(request, "POST", "/rate_plans", { property_id: property.id, code: `P${code}`, name: `Flex ${code}`, room_type_ids: [type.id], refundable: true, cancellation_deadline_hours: 24 });
  await v1(request, "POST", `/rate_plans/${plan.id}/rates`, { room_type_id: type.id, from: todayAt(-1), to: todayAt(30), amount: 10_000 });
  return { propertyId: property.id as string, typeId: type.id as string, code, name: type.name as string, planId: plan.id as string, planCode: `P${code}` };
}

async function deskInSandbox(page: Page) {
  await signIn(page, createStaff("front_desk"));
  await page.getByRole("radio", { name: "Sandbox" }).click();
  await expect(page.getByTestId("sandbox-banner")).toBeVisible();
}

test.beforeAll(() => {
  key = createApiKey();
});

test("books a group of two rooms on one master folio, checks one room in, and upgrades a stay free of charge after seeing the price", async ({ page, request }) => {
  test.setTimeout(120_000);
  const standard = await roomType(request, 2, "Std");
  const deluxe = await roomType(request, 3, "Dlx");
  await deskInSandbox(page);

  // Several rooms: one of each type, one guest, one master folio.
  await page.goto("/reservations/new");
  await expect(page.getByRole("heading", { level: 1, name: "New reservation" })).toBeVisible();
  await page.getByRole("button", { name: "Several rooms" }).click();
  await page.getByTestId(`quote-${standard.code}-${standard.planCode}`).getByRole("button", { name: /^Add room/ }).click();
  await page.getByTestId(`quote-${deluxe.code}-${deluxe.planCode}`).getByRole("button", { name: /^Add room/ }).click();
  const chosen = page.getByRole("list", { name: "Rooms chosen" });
  await expect(chosen.getByRole("listitem")).toHaveCount(2);
  const form = page.getByRole("form", { name: "Guest and booking" });
  await form.getByLabel("First name").fill("Greta");
  await form.getByLabel("Last name").fill("Grouper");
  await form.getByLabel("E-mail").fill(uniqueEmail("group"));
  await expect(form.getByLabel("Folios")).toHaveValue("master");
  await snap(page, "reservation-new-group");
  await form.getByRole("button", { name: "Book 2 rooms for $200.00" }).click();

  // The group page: two rooms, the master folio owes both.
  await expect(page).toHaveURL(/\/groups\/grp_/);
  await expect(page.getByRole("heading", { level: 1, name: "Grouper group" })).toBeVisible();
  const rooms = page.getByTestId("group-room");
  await expect(rooms).toHaveCount(2);
  await expect(page.getByTestId("master-balance")).toHaveText("$200.00");
  await snap(page, "group");
  await page.getByRole("button", { name: `Check in Room 1, ${standard.name}` }).click();
  await expect(rooms.nth(0)).toContainText("In house");
  await expect(rooms.nth(1)).toContainText("Confirmed");
  await expect(page.getByRole("button", { name: `Check in Room 2, ${deluxe.name}` })).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalScroll(page);
  await page.setViewportSize({ width: 1280, height: 900 });

  // An upgrade: Standard → Deluxe, free; the price change is shown before it is confirmed.
  const stay = await v1(request, "POST", "/reservations", {
    property_id: standard.propertyId, room_type_id: standard.typeId, rate_plan_id: standard.planId, check_in: todayAt(1), check_out: todayAt(3), adults: 1,
    guest: { first_name: "Uma", last_name: "Upgrade", email: uniqueEmail("upgrade") },
  });
  await page.goto(`/reservations/${stay.id}`);
  await expect(page.getByRole("heading", { level: 1, name: "Uma Upgrade" })).toBeVisible();
  await page.getByRole("button", { name: "Upgrade" }).click();
  const dialog = page.getByRole("dialog", { name: "Upgrade the stay" });
  await dialog.getByLabel("New room type", { exact: true }).selectOption({ label: deluxe.name });
  await dialog.getByLabel("Free of charge").check();
  await dialog.getByRole("button", { name: "Price it" }).click();
  await expect(dialog.getByTestId("upgrade-quote")).toContainText("New total $200.00 (was $200.00), no change in price");
  await snap(page, "reservation-upgrade");
  await dialog.getByRole("button", { name: "Confirm upgrade" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(deluxe.name).first()).toBeVisible();
  await expect(page.getByText(/complimentary upgrade from/).first()).toBeVisible();
});

for (const [width, height] of [[1280, 900], [390, 844]] as const) {
  test(`at ${width} px: books a group with a guest for each room, one found on file, and sees each guest on the group page`, async ({ page, request }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width, height });
    const standard = await roomType(request, 2, "Gst");
    // A guest already on file, to be found by the search.
    const onFile = { first_name: "Filippa", last_name: `Onfile${Date.now().toString(36)}`, email: uniqueEmail("onfile") };
    await v1(request, "POST", "/guests", onFile);
    await deskInSandbox(page);

    await page.goto("/reservations/new");
    await expect(page.getByRole("heading", { level: 1, name: "New reservation" })).toBeVisible();
    await page.getByRole("button", { name: "Several rooms" }).click();
    const add = page.getByTestId(`quote-${standard.code}-${standard.planCode}`).getByRole("button", { name: /^Add room/ });
    await add.click();
    await add.click();
    await expect(page.getByRole("list", { name: "Rooms chosen" }).getByRole("listitem")).toHaveCount(2);
    const form = page.getByRole("form", { name: "Guest and booking" });
    await expect(form.getByRole("button", { name: "One guest for all rooms" })).toHaveAttribute("aria-pressed", "true");
    await form.getByRole("button", { name: "A guest for each room" }).click();
    const roomGuests = form.getByTestId("room-guest");
    await expect(roomGuests).toHaveCount(2);

    // Room 1: a new guest, first with an e-mail the server refuses; room 2: the guest on file.
    await roomGuests.nth(0).getByLabel("First name").fill("Rosa");
    await roomGuests.nth(0).getByLabel("Last name").fill("Roomone");
    await roomGuests.nth(0).getByLabel("E-mail").fill("not-an-email");
    await form.getByLabel("Find room 2's guest on file").fill(onFile.last_name);
    await roomGuests.nth(1).getByRole("button", { name: new RegExp(`Filippa ${onFile.last_name}`) }).click();
    await expect(roomGuests.nth(1).getByLabel("E-mail")).toHaveValue(onFile.email);
    await expectNoHorizontalScroll(page);
    await expectNoSeriousAxe(page);
    await snap(page, `reservation-new-group-guests-${width}`);
    await form.getByRole("button", { name: "Book 2 rooms for $200.00" }).click();
    // The refusal is shown at room 1's e-mail, and nothing was booked.
    await expect(roomGuests.nth(0).getByLabel("E-mail")).toHaveAttribute("aria-invalid", "true");
    const emailError = roomGuests.nth(0).locator('[data-field-error="rooms.0.guest.email"]');
    await expect(emailError).toBeVisible();
    await expect(emailError).not.toContainText(/rooms\.|guest\.|parameter/);
    await expect(page).toHaveURL(/\/reservations\/new/);
    await roomGuests.nth(0).getByLabel("E-mail").fill(uniqueEmail("roomone"));
    await form.getByRole("button", { name: "Book 2 rooms for $200.00" }).click();

    // The group page: each room with its own guest; the first names the group.
    await expect(page).toHaveURL(/\/groups\/grp_/);
    await expect(page.getByRole("heading", { level: 1, name: "Roomone group" })).toBeVisible();
    const rooms = page.getByTestId("group-room");
    await expect(rooms).toHaveCount(2);
    await expect(rooms.nth(0).getByTestId("room-guest")).toHaveText("Rosa Roomone");
    await expect(rooms.nth(1).getByTestId("room-guest")).toHaveText(`Filippa ${onFile.last_name}`);
    await expectNoHorizontalScroll(page);
    await expectNoSeriousAxe(page);
  });
}
