import { expect, test, type APIRequestContext, type Page } from "./test";
import { expectNoSeriousAxe } from "./axe";
import { createApiKey, createStaff, expectNoHorizontalScroll, signIn, snap, toasts, uniqueEmail, waitForLive } from "./helpers";
import { scan } from "./words-scan";

// The front desk in the browser (issue #9): everything happens in the sandbox, where the test
// cards work, on room types each test makes for itself through /v1.

const tz = "America/New_York";
/** The sandbox hotel's business date (read with its room types), `days` from it: the desk's today, not the calendar's. */
let businessDay: string | undefined;
const todayAt = (days = 0) => {
  const today = businessDay ?? new Intl.DateTimeFormat("en-CA", { timeZone: tz, year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date());
  return new Date(Date.parse(`${today}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
};

let key: string;
const sandbox = () => ({ authorization: `Bearer ${key}`, "service-environment": "sandbox" });

async function v1<T = Record<string, any>>(request: APIRequestContext, method: "GET" | "POST", path: string, body?: unknown): Promise<T> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const res = await request.fetch(`/v1${path}`, { method, headers: { ...sandbox(), ...(body ? { "content-type": "application/json" } : {}) }, data: body ? JSON.stringify(body) : undefined });
  expect(res.ok(), `${method} ${path}: ${await res.text()}`).toBeTruthy();
  return (await res.json()) as T;
}

/** A room type of its own (unique code and name) with `rooms` clean rooms and a refundable rate plan, in the sandbox hotel. */
async function roomType(request: APIRequestContext, rooms: number) {
  const property = (await v1<{ data: { id: string; name: string; business_date: string | null }[] }>(request, "GET", "/properties")).data.find((p) => p.name === "Sandbox Harbor Hotel")!;
  businessDay = property.business_date ?? undefined;
  const code = `E${Date.now().toString(36).slice(-5)}${Math.random().toString(36).slice(2, 5)}`.toUpperCase();
  const type = await v1(request, "POST", "/room_types", { property_id: property.id, code, name: `Desk test ${code}`, max_occupancy: 2 });
  const roomIds: string[] = [];
  for (let i = 0; i < rooms; i++) roomIds.push((await v1(request, "POST", "/rooms", { room_type_id: type.id, number: `${code}-${i + 1}`, floor: 9 })).id);
  const plan = await v1(request, "POST", "/rate_plans", { property_id: property.id, code: `P${code}`, name: `Flex ${code}`, room_type_ids: [type.id], refundable: true, cancellation_deadline_hours: 24 });
  await v1(request, "POST", `/rate_plans/${plan.id}/rates`, { room_type_id: type.id, from: todayAt(-1), to: todayAt(40), amount: 10_000 });
  return { propertyId: property.id as string, typeId: type.id as string, code, name: type.name as string, planId: plan.id as string, planCode: `P${code}`, roomIds };
}

async function book(request: APIRequestContext, t: Awaited<ReturnType<typeof roomType>>, guest = "Api") {
  return v1(request, "POST", "/reservations", {
    property_id: t.propertyId,
    room_type_id: t.typeId,
    rate_plan_id: t.planId,
    check_in: todayAt(0),
    check_out: todayAt(1),
    adults: 1,
    guest: { first_name: guest, last_name: "Booker", email: uniqueEmail(guest.toLowerCase()) },
  });
}

/** Signs a front-desk clerk in and switches to the sandbox. */
async function deskInSandbox(page: Page) {
  await signIn(page, createStaff("front_desk"));
  await page.getByRole("radio", { name: "Sandbox" }).click();
  await expect(page.getByTestId("sandbox-banner")).toBeVisible();
}

test.beforeAll(() => {
  key = createApiKey();
});

test("a front-desk day: book a walk-in, check in to a clean room, charge, pay by card, check out; the room turns dirty on the board, housekeeping cleans and inspects it", async ({ page, request, browser }) => {
  test.setTimeout(90_000);
  const t = await roomType(request, 2);
  await deskInSandbox(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Reservations" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Reservations" })).toBeVisible();
  await snap(page, "reservations");
  await page.getByRole("link", { name: "New reservation" }).click();

  await expect(page.getByRole("heading", { level: 1, name: "New reservation" })).toBeVisible();
  const quote = page.getByTestId(`quote-${t.code}-${t.planCode}`);
  await expect(quote).toContainText("$100.00");
  await quote.getByRole("button", { name: /^Select/ }).click();
  const email = uniqueEmail("walk-in");
  const form = page.getByRole("form", { name: "Guest and booking" });
  await form.getByLabel("First name").fill("Wanda");
  await form.getByLabel("Last name").fill("Walkin");
  await form.getByLabel("E-mail").fill(email);
  await expect(form.getByLabel("Source")).toHaveValue("walk_in");
  await snap(page, "reservation-new");
  await form.getByRole("button", { name: "Book for $100.00" }).click();

  await expect(page).toHaveURL(/\/reservations\/res_/);
  await expect(page.getByRole("heading", { level: 1, name: "Wanda Walkin" })).toBeVisible();
  await expect(page.getByTestId("folio-balance")).toHaveText("$100.00");

  // Check in: the clean rooms of the type are offered; take the second.
  await page.getByRole("group", { name: "Reservation actions" }).getByRole("button", { name: "Check in" }).click();
  const checkIn = page.getByRole("dialog", { name: "Check in" });
  await checkIn.getByLabel("Room").selectOption({ label: `Room ${t.code}-2, floor 9 · Clean` });
  await checkIn.getByRole("button", { name: "Check in" }).click();
  await expect(page.getByTestId("room-number")).toContainText(`Room ${t.code}-2`);

  await page.getByRole("button", { name: "Add charge" }).click();
  const charge = page.getByRole("dialog", { name: "Add a charge" });
  await charge.getByLabel("Description").fill("Minibar");
  await charge.getByLabel(/Amount/).fill("12.50");
  await charge.getByRole("button", { name: "Add charge" }).click();
  await expect(page.getByTestId("folio-balance")).toHaveText("$112.50");

  // Check-out with the balance open asks for the payment first, then comes back to the check-out.
  await page.getByRole("group", { name: "Reservation actions" }).getByRole("button", { name: "Check out" }).click();
  await expect(page.getByRole("alertdialog", { name: "The folio is not settled" }).getByTestId("checkout-balance")).toContainText("$112.50");
  await expect(page.getByTestId("folio-balance-label")).toHaveText("Balance due");
  await page.getByRole("alertdialog").getByRole("button", { name: "Take payment of $112.50" }).click();

  const pay = page.getByRole("dialog", { name: "Take a payment" });
  await expect(pay.getByLabel(/Amount/)).toHaveValue("112.50");
  await pay.getByLabel("Card number").fill("4242 4242 4242 4242");
  await pay.getByLabel("CVC").fill("123");
  await pay.getByRole("button", { name: "Take payment" }).click();
  await expect(page.getByTestId("folio-balance")).toHaveText("$0.00");

  await page.getByRole("alertdialog", { name: "Check out?" }).getByRole("button", { name: "Check out" }).click();
  await expect(page.getByText("Checked out", { exact: true }).first()).toBeVisible();
  await expect(page.getByTestId("audit-entry").first()).toContainText("Checked out by");
  await snap(page, "reservation-detail");

  const room = await v1(request, "GET", `/rooms/${t.roomIds[1]}`);
  expect(room).toMatchObject({ housekeeping_status: "dirty", occupied: false });

  // The housekeeper's side of the same day: the room waits dirty on the board, then is cleaned and inspected.
  const housekeeper = await browser.newContext();
  const hk = await housekeeper.newPage();
  await signIn(hk, createStaff("housekeeping"));
  await hk.getByRole("radio", { name: "Sandbox" }).click();
  await expect(hk.getByTestId("sandbox-banner")).toBeVisible();
  await hk.goto("/housekeeping");
  await hk.getByRole("tab", { name: "Rooms" }).click();
  const card = hk.getByTestId(`room-${room.number}`);
  await expect(hk.getByTestId("column-dirty").getByTestId(`room-${room.number}`)).toBeVisible();
  await card.getByRole("button", { name: /mark clean/i }).click();
  await expect(hk.getByTestId("column-clean").getByTestId(`room-${room.number}`)).toBeVisible();
  await card.getByRole("button", { name: /mark inspected/i }).click();
  await expect(hk.getByTestId("column-inspected").getByTestId(`room-${room.number}`)).toBeVisible();
  expect(await v1(request, "GET", `/rooms/${t.roomIds[1]}`)).toMatchObject({ housekeeping_status: "inspected" });
  await housekeeper.close();
});

test("an early check-out shows the shortened stay and what is then owed before confirming, and the folio follows", async ({ page, request }) => {
  test.setTimeout(60_000);
  const t = await roomType(request, 1);
  const r = await v1(request, "POST", "/reservations", {
    property_id: t.propertyId, room_type_id: t.typeId, rate_plan_id: t.planId, check_in: todayAt(0), check_out: todayAt(2), adults: 1,
    guest: { first_name: "Early", last_name: "Leaver", email: uniqueEmail("early") },
  });
  await v1(request, "POST", `/reservations/${r.id}/check_in`, { room_id: t.roomIds[0] });
  await deskInSandbox(page);
  await page.goto(`/reservations/${r.id}`);
  await expect(page.getByTestId("folio-balance")).toHaveText("$200.00");

  // Leaving today: the arrival night stays, the second goes; $100.00 is what is owed.
  await page.getByRole("group", { name: "Reservation actions" }).getByRole("button", { name: "Check out" }).click();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog.getByTestId("checkout-departure")).toContainText("Leaving early");
  await expect(dialog.getByTestId("checkout-departure")).toContainText("1 night");
  await expect(dialog.getByTestId("checkout-balance")).toContainText("$100.00");
  await snap(page, "reservation-early-check-out");
  await dialog.getByRole("button", { name: "Take payment of $100.00" }).click();
  const pay = page.getByRole("dialog", { name: "Take a payment" });
  await expect(pay.getByLabel(/Amount/)).toHaveValue("100.00");
  await pay.getByLabel("Card number").fill("4242 4242 4242 4242");
  await pay.getByLabel("CVC").fill("123");
  await pay.getByRole("button", { name: "Take payment" }).click();
  // The stay was shortened before the payment: the folio holds one night, paid.
  await expect(page.getByTestId("folio-balance")).toHaveText("$0.00");
  await page.getByRole("alertdialog", { name: "Check out?" }).getByRole("button", { name: "Check out" }).click();
  await expect(page.getByText("Checked out", { exact: true }).first()).toBeVisible();
  await expect(page.getByTestId("folio-balance")).toHaveText("$0.00");
  expect(await v1(request, "GET", `/reservations/${r.id}`)).toMatchObject({ status: "checked_out", check_out: todayAt(1), nights: 1, total: { amount: 10_000 } });
});

// Issue 35, item 8: a guest paid in full leaves a night early. Check-out is one guided step: it
// shows the shortened stay and what the guest is then owed, then shortens the stay, refunds the
// exact overpayment to the card it was paid with, and checks out; the folio closes at zero.
async function paidInFull(request: APIRequestContext, first: string) {
  const t = await roomType(request, 1);
  const r = await v1(request, "POST", "/reservations", {
    property_id: t.propertyId, room_type_id: t.typeId, rate_plan_id: t.planId, check_in: todayAt(0), check_out: todayAt(2), adults: 1,
    guest: { first_name: first, last_name: "Leaver", email: uniqueEmail(first.toLowerCase()) },
  });
  await v1(request, "POST", `/reservations/${r.id}/check_in`, { room_id: t.roomIds[0] });
  const card = { type: "card", number: "4242424242424242", exp_month: 12, exp_year: 2040, cvc: "123" };
  await v1(request, "POST", "/payments", { reservation_id: r.id, amount: 20_000, payment_method: card, capture: true });
  return { t, r };
}

for (const width of [1280, 390]) {
  test(`at ${width} px an early departure paid in full is one guided step: shortened, the overpayment refunded to the card, checked out`, async ({ page, request }) => {
    test.setTimeout(120_000);
    const { t, r } = await paidInFull(request, `Early${width}`);
    await page.setViewportSize({ width, height: 844 });
    await deskInSandbox(page);
    await page.goto(`/reservations/${r.id}`);
    await expect(page.getByTestId("folio-balance")).toHaveText("$0.00");

    await page.getByRole("group", { name: "Reservation actions" }).getByRole("button", { name: "Check out" }).click();
    const dialog = page.getByRole("alertdialog", { name: "Check out early" });
    await expect(dialog.getByTestId("checkout-departure")).toContainText("Leaving early");
    await expect(dialog.getByTestId("checkout-departure")).toContainText("1 night, price $100.00 (was $200.00)");
    await expect(dialog.getByTestId("checkout-balance")).toHaveText("The guest is then owed $100.00, refunded to Card •••• 4242 ($100.00).");
    await expect(dialog.getByRole("list", { name: "Steps" }).getByRole("listitem")).toHaveText([/^Shorten the stay to /, "Refund $100.00 to the guest.", `Check out; room ${t.code}-1 is marked dirty.`]);
    expect(scan(await dialog.innerText())).toEqual([]);
    await expectNoSeriousAxe(page, "[role=alertdialog]");
    if (width < 1024) await expectNoHorizontalScroll(page);
    await snap(page, "reservation-early-departure");

    await dialog.getByRole("button", { name: "Refund $100.00 and check out" }).click();
    await expect(toasts(page).getByText("Refunded $100.00 and checked out; the room is now dirty")).toBeVisible();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByTestId("folio-balance")).toHaveText("$0.00");
    await expect(page.getByRole("region", { name: "Refunds" })).toContainText("$100.00");
    await expect(page.getByRole("region", { name: "Charges" }).getByRole("listitem")).toHaveCount(1);
    expect(await v1(request, "GET", `/reservations/${r.id}`)).toMatchObject({ status: "checked_out", check_out: todayAt(1), nights: 1, total: { amount: 10_000 } });
    expect(await v1(request, "GET", `/reservations/${r.id}/folio`)).toMatchObject({ status: "closed", balance: { amount: 0 } });
    await snap(page, "reservation-early-departure-done");
  });
}

test("a stay shortened and left unsettled says the guest is owed; the refund starts at that amount, and check-out finishes the job", async ({ page, request }) => {
  test.setTimeout(120_000);
  const { r } = await paidInFull(request, "Halfway");
  // Another desk (or the API) shortened the stay and stopped there.
  await v1(request, "POST", `/reservations/${r.id}/change_departure`, { check_out: todayAt(1) });
  await deskInSandbox(page);
  await page.goto(`/reservations/${r.id}`);
  await expect(page.getByTestId("folio-balance-label")).toHaveText("Owed to guest");
  await expect(page.getByTestId("folio-balance")).toHaveText("$100.00");
  await page.getByRole("button", { name: "Refund the payment of $200.00" }).click();
  const refund = page.getByRole("dialog", { name: "Refund a payment" });
  await expect(refund.getByLabel(/Amount/)).toHaveValue("100.00");
  await expect(refund).toContainText("The folio owes the guest $100.00; up to $200.00 of this payment can still be refunded.");
  await refund.getByRole("button", { name: "Cancel" }).click();

  await page.getByRole("group", { name: "Reservation actions" }).getByRole("button", { name: "Check out" }).click();
  const dialog = page.getByRole("alertdialog", { name: "The folio is not settled" });
  await expect(dialog.getByTestId("checkout-departure")).toHaveCount(0);
  await dialog.getByRole("button", { name: "Refund $100.00 and check out" }).click();
  await expect(toasts(page).getByText("Refunded $100.00 and checked out; the room is now dirty")).toBeVisible();
  await expect(page.getByTestId("folio-balance-label")).toHaveText("Balance");
  await expect(page.getByTestId("folio-balance")).toHaveText("$0.00");
});

test("a declined card shows the decline and changes nothing", async ({ page, request }) => {
  const t = await roomType(request, 1);
  const r = await book(request, t, "Declan");
  await deskInSandbox(page);
  await page.goto(`/reservations/${r.id}`);
  await expect(page.getByTestId("folio-balance")).toHaveText("$100.00");
  await page.getByRole("button", { name: "Take payment" }).click();
  const pay = page.getByRole("dialog", { name: "Take a payment" });
  await pay.getByLabel("Card number").fill("4000 0000 0000 0002");
  await pay.getByLabel("CVC").fill("123");
  await pay.getByRole("button", { name: "Take payment" }).click();
  await expect(pay.getByRole("alert")).toHaveText("Declined: The card was declined.");
  await pay.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByTestId("folio-balance")).toHaveText("$100.00");
  await expect(page.getByTestId("payment-failed")).toContainText("Declined");
  const folio = await v1(request, "GET", `/reservations/${r.id}/folio`);
  expect(folio.balance.amount).toBe(10_000);
});

test("an overbooked room type cannot be booked from the new-reservation page", async ({ page, request }) => {
  const t = await roomType(request, 1);
  await book(request, t, "First");
  await deskInSandbox(page);
  await page.goto("/reservations/new");
  const quote = page.getByTestId(`quote-${t.code}-${t.planCode}`);
  await expect(quote.getByTestId("unbookable-reason")).toHaveText("Sold out: no room free on every night");
  await expect(quote.getByRole("button", { name: /^Select/ })).toHaveCount(0);
  await expect(page.getByTestId(`room-type-${t.typeId}`)).toContainText("0 free on every night");
});

test("the arrivals list follows bookings, check-ins and cancellations made through the API without a reload", async ({ page, request }) => {
  const t = await roomType(request, 2);
  await deskInSandbox(page);
  await page.goto("/reservations");
  await expect(page.getByRole("tab", { name: "Arrivals", selected: true })).toBeVisible();
  // The page's live stream is open before the changes happen elsewhere. Only it can change the list
  // (the page does not poll), so each step waits for it, not for a time a loaded machine may miss.
  await waitForLive(page);

  const arriving = await book(request, t, "Livia");
  const row = page.getByTestId(`reservation-${arriving.id}`).first();
  await expect(row).toBeVisible({ timeout: 15_000 });
  await expect(row).toContainText("Livia Booker");
  await snap(page, "reservations-arrivals-live");

  await v1(request, "POST", `/reservations/${arriving.id}/check_in`, {});
  await expect(row).toContainText("In house", { timeout: 15_000 });

  const cancelled = await book(request, t, "Cassia");
  await expect(page.getByTestId(`reservation-${cancelled.id}`).first()).toBeVisible({ timeout: 15_000 });
  await v1(request, "POST", `/reservations/${cancelled.id}/cancel`, {});
  await expect(page.getByTestId(`reservation-${cancelled.id}`)).toHaveCount(0, { timeout: 15_000 });
  await expect(row).toBeVisible();
});

test("every reservations page fits 390 px without horizontal scrolling", async ({ page, request }) => {
  test.setTimeout(120_000);
  const t = await roomType(request, 1);
  const r = await book(request, t, "Narrow");
  await page.setViewportSize({ width: 390, height: 844 });
  await deskInSandbox(page);
  for (const [path, name, heading] of [
    ["/reservations", "reservations", "Reservations"],
    ["/reservations/new", "reservation-new", "New reservation"],
    [`/reservations/${r.id}`, "reservation-detail", "Narrow Booker"],
    [`/guests/${r.guest.id}`, "guest-with-stays", "Narrow Booker"],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
    await page.waitForLoadState("networkidle");
    await expectNoHorizontalScroll(page);
    await snap(page, name);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/guests/${r.guest.id}`);
  await expect(page.getByRole("heading", { name: "Stays" })).toBeVisible();
  await expect(page.getByTestId(`reservation-${r.id}`).first()).toBeVisible();
  await snap(page, "guest-with-stays");
  await page.goto("/reservations");
  await page.getByRole("tab", { name: "Search all" }).click();
  await page.getByPlaceholder("Guest name, e-mail, phone or reservation id").fill("Narrow Booker");
  await expect(page.getByTestId(`reservation-${r.id}`).first()).toBeVisible();
  await snap(page, "reservations-search");
});
