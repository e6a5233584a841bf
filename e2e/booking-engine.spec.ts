import { expect, test, waitForHydration, type Browser, type Page } from "./test";
import { addDays } from "./api";
import { expectNoSeriousAxe } from "./axe";
import { expectNoHorizontalScroll, signIn, snap, uniqueEmail } from "./helpers";
import { hotelOfItsOwn } from "./own-hotel";

// Issue 38, the direct booking engine's first slice: an owner switches it on in Settings (no API
// call: the hotel itself is made as any spec's is), then guests with no account search, choose
// and book on /book/<slug> in English and in Portuguese (from the browser's languages, then the
// switch), see their confirmation with its reference, and the desk finds the bookings.

test.describe.configure({ timeout: 240_000 });

/** A guest's browser: no staff session, speaking `languages` (Accept-Language), at `width`. */
async function guestPage(browser: Browser, languages: string, width: number): Promise<Page> {
  const context = await browser.newContext({ locale: languages.split(",")[0], extraHTTPHeaders: { "accept-language": languages }, viewport: { width, height: 900 } });
  return context.newPage();
}

async function open(page: Page, url: string) {
  await page.goto(url);
  await waitForHydration(page);
}

/** What a guest's page must never show: ids, enum values, raw amounts or ISO dates and times. */
async function expectGuestWords(page: Page) {
  const text = await page.locator("body").innerText();
  expect(text).not.toMatch(/\b(res|rt|rp|prop|gst|hold|bks)_[A-Za-z0-9]{6,}/);
  expect(text).not.toMatch(/\b(room_only|booking_engine|no_availability|restriction_violated)\b/);
  expect(text).not.toMatch(/\b\d{4}-\d{2}-\d{2}\b/);
  expect(text).not.toMatch(/\b24000\b/);
}

for (const width of [1280, 390]) {
  test(`an owner switches the booking engine on and guests book in English and Portuguese, at ${width} px`, async ({ page, request, browser }) => {
    await page.setViewportSize({ width, height: 900 });
    const hotel = await hotelOfItsOwn(request, { name: `Casa do Rio ${width}`, role: "owner", timezone: "Europe/Lisbon", rooms: ["101", "102", "103"] });
    const slug = `casa-do-rio-${width}-${Date.now().toString(36)}`;

    // Settings: the owner chooses the address and the rate, and switches it on.
    await signIn(page, hotel.staff);
    await page.goto("/settings/booking-engine");
    await expect(page.getByRole("heading", { level: 1, name: "Booking engine" })).toBeVisible();
    const form = page.getByRole("form", { name: "Booking engine" });
    await expect(form.getByLabel("Best available")).toBeChecked();
    await form.getByLabel("Address").fill("Casa do Rio");
    await form.getByLabel("Guests can book on the booking page").check();
    await form.getByRole("button", { name: "Save" }).click();
    await expect(form.getByLabel("Address")).toHaveAttribute("aria-invalid", "true");
    await form.getByLabel("Address").fill(slug);
    await form.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("The booking page is on.")).toBeVisible();
    const link = page.getByRole("link", { name: new RegExp(`/book/${slug}$`) });
    await expect(link).toBeVisible();
    await expect(page.getByRole("button", { name: "Copy button code" })).toBeVisible();
    // On the property's trail (a night audit may have closed a day of it since): by whom, and what changed.
    await expect(page.getByTestId("audit-entry").filter({ visible: true, hasText: "Booking page switched on" })).toContainText(hotel.staff.email);
    await expectNoSeriousAxe(page);
    if (width < 1024) await expectNoHorizontalScroll(page);
    await snap(page, "booking-engine-settings");

    const checkIn = addDays(hotel.today, 2);
    const checkOut = addDays(hotel.today, 4);
    const references: string[] = [];
    for (const guest of [
      { languages: "en-GB,en;q=0.9", lang: "en", first: "Eleanor", last: "Vance", heading: "Book your stay", show: "Show rooms", choose: "Book this rate: Double, Best available", title: "Your details", labels: ["First name", "Last name", "E-mail"], submit: "Confirm booking", done: "Your booking is confirmed" },
      { languages: "pt-PT,pt;q=0.9,en;q=0.5", lang: "pt", first: "Inês", last: "Guerreiro", heading: "Reserve a sua estadia", show: "Ver quartos", choose: "Reservar esta tarifa: Double, Best available", title: "Os seus dados", labels: ["Nome próprio", "Apelido", "E-mail"], submit: "Confirmar reserva", done: "A sua reserva está confirmada" },
    ]) {
      const g = await guestPage(browser, guest.languages, width);
      await open(g, `/book/${slug}`);
      await expect(g.locator("html")).toHaveAttribute("lang", guest.lang);
      await expect(g.getByRole("heading", { level: 1, name: guest.heading })).toBeVisible();
      await g.locator("#check_in").fill(checkIn);
      await g.locator("#check_out").fill(checkOut);
      await g.getByRole("button", { name: guest.show }).click();
      // Two nights at 120.00, no tax at this hotel: 240.00 in US dollars, written as the guest's language writes it.
      const total = new Intl.NumberFormat(guest.lang, { style: "currency", currency: "USD" }).format(240);
      const offer = g.getByRole("listitem").filter({ has: g.getByRole("button", { name: guest.choose }) }).last();
      await expect(offer).toContainText(total);
      // The stay's dates in the guest's own words.
      const arrival = new Intl.DateTimeFormat(guest.lang, { weekday: "short", day: "numeric", month: "short", year: "numeric", timeZone: "UTC" }).format(new Date(`${checkIn}T12:00:00Z`));
      await expect(g.getByRole("heading", { level: 2, name: new RegExp(arrival.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")) })).toBeVisible();
      await expectNoSeriousAxe(g);
      await expectGuestWords(g);
      if (width < 1024) await expectNoHorizontalScroll(g);
      await snap(g, `booking-engine-search-${guest.lang}`);
      if (guest.lang === "pt") {
        // The switch: the same results in German, then back.
        await g.getByRole("link", { name: "Deutsch" }).click();
        await expect(g.getByRole("heading", { level: 1, name: "Buchen Sie Ihren Aufenthalt" })).toBeVisible();
        await expect(g.locator("html")).toHaveAttribute("lang", "de");
        await expect(g.getByText(new Intl.NumberFormat("de", { style: "currency", currency: "USD" }).format(240)).first()).toBeVisible();
        await g.getByRole("link", { name: "Português" }).click();
        await expect(g.getByRole("heading", { level: 1, name: guest.heading })).toBeVisible();
      }

      await g.getByRole("button", { name: guest.choose }).click();
      await expect(g.getByRole("heading", { level: 1, name: guest.title })).toBeVisible();
      await waitForHydration(g);
      const details = g.getByRole("form", { name: guest.title });
      // The form refuses an e-mail that is not one, on the field, in the guest's language.
      await details.getByLabel(guest.labels[0]).fill(guest.first);
      await details.getByLabel(guest.labels[1]).fill(guest.last);
      await details.getByLabel(guest.labels[2], { exact: true }).fill("not-an-address");
      await details.getByRole("button", { name: guest.submit }).click();
      await expect(details.getByLabel(guest.labels[2], { exact: true })).toHaveAttribute("aria-invalid", "true");
      await details.getByLabel(guest.labels[2], { exact: true }).fill(uniqueEmail(guest.last.toLowerCase()));
      await expectNoSeriousAxe(g);
      await expectGuestWords(g);
      if (width < 1024) await expectNoHorizontalScroll(g);
      await snap(g, `booking-engine-details-${guest.lang}`);
      await details.getByRole("button", { name: guest.submit }).click();

      await expect(g.getByRole("heading", { level: 1, name: guest.done })).toBeVisible();
      const reference = (await g.getByTestId("booking-reference").innerText()).trim();
      expect(reference).toMatch(/^[0-9A-Z]{10}$/);
      references.push(reference);
      await expect(g.getByText(total).first()).toBeVisible();
      await expectNoSeriousAxe(g);
      await expectGuestWords(g);
      if (width < 1024) await expectNoHorizontalScroll(g);
      await snap(g, `booking-engine-confirmed-${guest.lang}`);
      await g.context().close();
    }

    // The desk finds each booking by its reference, from the booking engine.
    for (const [i, reference] of references.entries()) {
      await page.goto("/reservations");
      await page.getByRole("tab", { name: "Search all" }).click();
      await page.getByPlaceholder("Guest name, e-mail, phone or reservation id").pressSequentially(reference.toLowerCase(), { delay: 20 });
      const row = page.locator('[data-testid^="reservation-res_"]').filter({ visible: true });
      await expect(row).toHaveCount(1);
      await expect(row).toContainText(i === 0 ? "Vance" : "Guerreiro");
      await expect(row).toContainText("Booking engine");
    }
    await snap(page, "booking-engine-in-reservations");
  });
}
