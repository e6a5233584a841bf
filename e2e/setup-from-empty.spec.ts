import { expect, test, type Page } from "./test";
import { cli, createStaff, expectNoHorizontalScroll, signIn, snap, uniqueEmail } from "./helpers";
import { plusDays } from "./rooms-setup";

// Issue 27, item 1: a brand-new account with nothing but an owner sets its hotel up in the
// browser (property, room type, rooms by range, a rate plan and a derived one, rates) and takes
// its first booking, without one API call, at 1280 and at 390 px. The account and its owner come
// from the CLI, as an operator would make them; everything after the sign-in is the dashboard.

test.describe.configure({ timeout: 300_000 });

/** Follows a link of the main navigation; below 1024 px it sits behind the Menu button. */
async function go(page: Page, label: string, heading = label) {
  if ((page.viewportSize()?.width ?? 1280) < 1024) await page.getByRole("button", { name: "Menu" }).click();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: label, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
}

/** Today at the property, as the property's clock says. */
const lisbonToday = () => new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Lisbon" }).format(new Date());

for (const width of [1280, 390]) {
  test(`a new account goes from nothing to its first booking at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    const account = cli<{ id: string }>("accounts", "create", "--name", `Casa ${width} ${Date.now().toString(36)}`);
    const owner = { email: uniqueEmail("owner"), password: "owner-password-1" };
    cli("users", "create", "--email", owner.email, "--password", owner.password, "--role", "owner", "--account", account.id);
    await signIn(page, owner);
    await expect(page.getByText("There is no property in this data set yet.")).toBeVisible();

    // The property: the form refuses an empty name on the field itself, then creates it.
    await page.getByRole("link", { name: "Set it up" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Property" })).toBeVisible();
    await snap(page, "setup-property-empty");
    const property = page.getByRole("form", { name: "Property" });
    await property.getByRole("button", { name: "Create property" }).click();
    await expect(property.getByLabel("Name")).toHaveAttribute("aria-invalid", "true");
    await expect(property.getByText("Enter the property's name.")).toBeVisible();
    const describedBy = await property.getByLabel("Name").getAttribute("aria-describedby");
    await expect(page.locator(`[id="${describedBy}"]`)).toHaveText("Enter the property's name.");
    await property.getByLabel("Name").fill("Casa Azul");
    await property.getByLabel("Street and number").fill("Rua Augusta 100");
    await property.getByLabel("City").fill("Lisboa");
    await property.getByLabel("Postal code").fill("1100-053");
    await property.getByLabel("Country code").fill("PT");
    await property.getByLabel("Time zone").selectOption("Europe/Lisbon");
    await property.getByLabel("Currency").selectOption("EUR");
    await property.getByLabel("Check-in from").fill("14:00");
    await property.getByRole("button", { name: "Create property" }).click();
    await expect(page.getByText("Casa Azul created.")).toBeVisible();
    await expect(page.getByRole("form", { name: "Property" }).getByRole("button", { name: "Save changes" })).toBeVisible();
    await expect(page.getByTestId("audit-entry").filter({ visible: true }).first()).toBeVisible();
    await snap(page, "setup-property");
    if (width < 1024) await expectNoHorizontalScroll(page);

    // A room type.
    await go(page, "Room types");
    await expect(page.getByText("No room types yet")).toBeVisible();
    await snap(page, "setup-room-types-empty");
    await page.getByRole("button", { name: "Add room type" }).filter({ visible: true }).first().click();
    const type = page.getByRole("form", { name: "Room type" });
    await type.getByLabel("Name").fill("Double room");
    await type.getByLabel("Code").fill("DBL");
    await type.getByLabel("Sleeps (guests)").fill("2");
    await type.getByLabel("Beds").fill("1 double");
    await type.getByRole("button", { name: "Add room type" }).click();
    await expect(page.getByText("Double room added.")).toBeVisible();
    await expect(page.getByTestId("room-type-DBL").filter({ visible: true }).first()).toContainText("Up to 2 guests");
    await snap(page, "setup-room-types");

    // Rooms 101 to 120 at once; a range that overlaps is refused whole; one room retired.
    await go(page, "Rooms");
    await expect(page.getByText("No rooms yet")).toBeVisible();
    await page.getByRole("button", { name: "Add rooms" }).filter({ visible: true }).first().click();
    let rooms = page.getByRole("form", { name: "Add rooms" });
    await rooms.getByLabel("First number").fill("101");
    await expect(rooms.getByLabel("Floor")).toHaveValue("1");
    await rooms.getByLabel("Last number").fill("120");
    await rooms.getByRole("button", { name: "Add rooms" }).click();
    await expect(page.getByText("20 rooms added: 101 to 120.")).toBeVisible();
    await expect(page.getByTestId("room-120").filter({ visible: true }).first()).toBeVisible();
    await page.getByRole("button", { name: "Add rooms" }).filter({ visible: true }).first().click();
    rooms = page.getByRole("form", { name: "Add rooms" });
    await rooms.getByLabel("First number").fill("118");
    await rooms.getByLabel("Last number").fill("125");
    await rooms.getByRole("button", { name: "Add rooms" }).click();
    await expect(rooms.getByText("The property already has rooms 118, 119, 120; no room was added.")).toBeVisible();
    await expect(rooms.getByLabel("First number")).toHaveAttribute("aria-invalid", "true");
    await page.getByRole("dialog", { name: "Add rooms" }).getByRole("button", { name: "Cancel" }).click();
    await expect(page.getByTestId("room-121")).toHaveCount(0);
    await page.getByRole("button", { name: "Retire room 120" }).filter({ visible: true }).first().click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Retire room" }).click();
    await expect(page.getByText("Room 120 retired.")).toBeVisible();
    await expect(page.getByTestId("room-120")).toHaveCount(0);
    await snap(page, "setup-rooms");
    await page.getByRole("tab", { name: "Retired" }).click();
    await expect(page.getByTestId("room-120").filter({ visible: true }).first()).toBeVisible();
    if (width < 1024) await expectNoHorizontalScroll(page);

    // A refundable plan with breakfast, and a non-refundable one 10 % below it.
    await go(page, "Rate plans");
    await expect(page.getByText("No rate plans yet")).toBeVisible();
    await page.getByRole("button", { name: "Add rate plan" }).filter({ visible: true }).first().click();
    let plan = page.getByRole("form", { name: "Rate plan" });
    await plan.getByLabel("Name").fill("Best available");
    await plan.getByLabel("Code").fill("BAR");
    await plan.getByLabel("Meals").selectOption({ label: "Breakfast included" });
    // Its fees, chosen in words: a no-show pays the first night; a late check-out 25,00, typed as
    // in Portugal. An amount that is not money is refused on its field first.
    await plan.getByLabel("No-show fee").selectOption({ label: "Nights at the room rate" });
    await plan.getByLabel("No-show nights").fill("1");
    await plan.getByLabel("Late check-out fee").selectOption({ label: "A fixed amount" });
    await plan.getByLabel("Late check-out amount (EUR)").fill("25 euros");
    await plan.getByRole("button", { name: "Add rate plan" }).click();
    await expect(plan.getByLabel("Late check-out amount (EUR)")).toHaveAttribute("aria-invalid", "true");
    await expect(plan.getByText("An amount above zero, such as 129,00.")).toBeVisible();
    await expect(page.getByTestId("rate-plan-BAR")).toHaveCount(0);
    await plan.getByLabel("Late check-out amount (EUR)").fill("25,00");
    await plan.getByRole("button", { name: "Add rate plan" }).click();
    await expect(page.getByText("Best available added.")).toBeVisible();
    const bar = page.getByTestId("rate-plan-BAR").filter({ visible: true }).first();
    await expect(bar).toContainText("No-show: 1 night's rate");
    await expect(bar).toContainText(/Late check-out: 25,00\s€/);
    // The edit form shows them as they were typed, and takes another (an early departure of 50 % of the nights given back).
    await page.getByRole("button", { name: "Edit Best available" }).filter({ visible: true }).first().click();
    plan = page.getByRole("form", { name: "Rate plan" });
    await expect(plan.getByLabel("Late check-out amount (EUR)")).toHaveValue("25,00");
    await expect(plan.getByLabel("No-show nights")).toHaveValue("1");
    await plan.getByLabel("Early departure fee").selectOption({ label: "A percentage of the room rate" });
    await plan.getByLabel("Early departure percent (%)").fill("50");
    await plan.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Best available saved.")).toBeVisible();
    await expect(bar).toContainText("Early departure: 50 % of the nights given back");
    await page.getByRole("button", { name: "Add rate plan" }).filter({ visible: true }).first().click();
    plan = page.getByRole("form", { name: "Rate plan" });
    await plan.getByLabel("Name").fill("Non-refundable");
    await plan.getByLabel("Code").fill("NRF");
    await plan.getByLabel("Price").selectOption("derived");
    await plan.getByLabel("By (%)").fill("10");
    await plan.getByLabel("The plan").selectOption({ label: "Best available" });
    await plan.getByLabel("Cancellation").selectOption({ label: "Non-refundable" });
    await plan.getByRole("button", { name: "Add rate plan" }).click();
    await expect(page.getByText("Non-refundable added.")).toBeVisible();
    const nrf = page.getByTestId("rate-plan-NRF").filter({ visible: true }).first();
    await expect(nrf).toContainText("10 % below Best available");
    await expect(nrf).toContainText("Non-refundable");
    await expect(nrf).toContainText("No-show: the whole stay");
    await expect(page.getByTestId("rate-plan-BAR").filter({ visible: true }).first()).toContainText("Free cancellation until 1 day before arrival");
    await snap(page, "setup-rate-plans");
    if (width < 1024) await expectNoHorizontalScroll(page);

    // Rates: 129,00 a night on the best available rate, typed as a clerk in Portugal writes it
    // (the property's address is in PT); the non-refundable one follows at 116,10.
    await go(page, "Rates");
    await page.getByRole("button", { name: "Set rates…" }).click();
    const rates = page.getByRole("form", { name: "Set rates" });
    await rates.getByLabel("Amount per night (EUR)").fill("129,00");
    await rates.getByRole("button", { name: "Apply" }).click();
    await expect(rates).toHaveCount(0);
    const today = lisbonToday();
    await page.getByLabel("Rate plan").selectOption({ label: "NRF · Non-refundable" });
    await expect(page.getByTestId("derived-plan-note")).toContainText("10 % below Best available");
    await expect(page.locator(`button[data-room-type="DBL"][data-date="${plusDays(today, 1)}"]`)).toContainText("116,10");
    await expect(page.getByRole("button", { name: "Set rates…" })).toBeDisabled();
    await snap(page, "setup-rates-derived");

    // The first booking, on the non-refundable rate: two nights at 116,10, in Portugal's format.
    await go(page, "Reservations");
    await page.getByRole("link", { name: "New reservation" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "New reservation" })).toBeVisible();
    await page.getByLabel("Check-in").fill(plusDays(today, 1));
    await page.getByLabel("Check-out").fill(plusDays(today, 3));
    const quote = page.getByTestId("quote-DBL-NRF");
    await expect(quote).toContainText(/232,20\s€/);
    await quote.getByRole("button", { name: /^Select/ }).click();
    const booking = page.getByRole("form", { name: "Guest and booking" });
    await booking.getByLabel("First name").fill("Inês");
    await booking.getByLabel("Last name").fill("Primeira");
    await booking.getByLabel("E-mail").fill(uniqueEmail("first-guest"));
    await booking.getByRole("button", { name: /^Book for 232,20\s€$/ }).click();
    await expect(page).toHaveURL(/\/reservations\/res_/);
    await expect(page.getByRole("heading", { level: 1, name: "Inês Primeira" })).toBeVisible();
    await expect(page.getByTestId("folio-balance")).toHaveText(/^232,20\s€$/);
    await snap(page, "setup-first-booking");
    if (width < 1024) await expectNoHorizontalScroll(page);
  });
}

test("front desk and housekeeping are refused the setup pages, which their navigation does not show", async ({ page }) => {
  for (const role of ["front_desk", "housekeeping"] as const) {
    await page.context().clearCookies();
    await signIn(page, createStaff(role));
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link", { name: "Home" })).toBeVisible();
    for (const label of ["Property", "Room types", "Rooms", "Rate plans", "Settings"]) await expect(nav.getByRole("link", { name: label, exact: true })).toHaveCount(0);
    for (const path of ["/settings/property", "/settings/room-types", "/settings/rooms", "/settings/rate-plans", "/settings/taxes"]) {
      await page.goto(path);
      await expect(page.getByText("This page is not available for your role.")).toBeVisible();
      await expect(page.getByRole("navigation", { name: "Settings" })).toHaveCount(0);
    }
    for (const procedure of ["setup.rooms.list", "setup.taxes.list"]) {
      const response = await page.request.get(`/api/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify({ property_id: "prop_x" }))}`);
      expect(response.status()).toBe(403);
    }
  }
});
