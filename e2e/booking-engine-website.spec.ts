import { expect, test, waitForHydration, type Browser, type Page } from "./test";
import { addDays } from "./api";
import { expectNoSeriousAxe } from "./axe";
import { expectNoHorizontalScroll, signIn, snap } from "./helpers";
import { hotelOfItsOwn } from "./own-hotel";

// Issue 38, points 1, 5 and 6: the booking engine on the hotel's website. The owner copies the
// search box for their site from Settings (in their site's language) and a guest's dates land on
// the booking page's search; the booking page shows a month of prices to choose the arrival from
// (closed days said in words, without script as plain links) at 1280 and 390 px; and search
// engines read the hotel and its offers from the page's schema.org data, as the page shows them.

test.describe.configure({ timeout: 150_000 });

async function guestPage(browser: Browser, languages: string, width: number): Promise<Page> {
  const context = await browser.newContext({ locale: languages.split(",")[0], extraHTTPHeaders: { "accept-language": languages }, viewport: { width, height: 900 } });
  return context.newPage();
}

/** What a guest's page must never show: ids, enum values, raw amounts or ISO dates. */
async function expectGuestWords(page: Page) {
  const text = await page.locator("body").innerText();
  expect(text).not.toMatch(/\b(res|rt|rp|prop|gst|hold|bks)_[A-Za-z0-9]{6,}/);
  expect(text).not.toMatch(/\b(sold_out|no_arrival|too_many_guests|stop_sell|closed_to_arrival|room_only)\b/);
  expect(text).not.toMatch(/\b\d{4}-\d{2}-\d{2}\b/);
  expect(text).not.toMatch(/\b12000\b/);
}

test("the owner's search box for the hotel's website opens the booking page's search with the guest's dates and party", async ({ page, request, browser }) => {
  const hotel = await hotelOfItsOwn(request, { name: "Casa da Praia", role: "owner", timezone: "Europe/Lisbon", rooms: ["101", "102"] });
  const slug = `casa-da-praia-${Date.now().toString(36)}`;
  await hotel.api.patch(`/properties/${hotel.property.id}/booking_engine`, { slug, enabled: true, rate_plan_ids: [hotel.plan.id] });

  await signIn(page, hotel.staff);
  await page.goto("/settings/booking-engine");
  await page.getByLabel("Language of your website").selectOption({ label: "Português" });
  const code = page.getByTestId("search-box-code");
  await expect(code).toContainText('name="lang" value="pt"');
  await expect(page.getByRole("button", { name: "Copy search box code" })).toBeVisible();
  const snippet = (await code.textContent())!;
  expect(snippet).toContain(`/book/${slug}`);

  // The hotel's own site, elsewhere: a page holding nothing but the pasted box.
  const site = await guestPage(browser, "pt-PT,pt;q=0.9", 1280);
  await site.setContent(`<!doctype html><html lang="pt"><head><title>Casa da Praia</title></head><body><main>${snippet}</main></body></html>`);
  const checkIn = addDays(hotel.today, 3);
  const checkOut = addDays(hotel.today, 5);
  await site.getByLabel("Chegada").fill(checkIn);
  await site.getByLabel("Partida").fill(checkOut);
  await site.getByLabel("Adultos").selectOption("1");
  const [engine] = await Promise.all([site.context().waitForEvent("page"), site.getByRole("button", { name: "Ver disponibilidade" }).click()]);
  await engine.waitForLoadState();
  const landed = new URL(engine.url());
  expect(landed.pathname).toBe(`/book/${slug}`);
  expect(Object.fromEntries(landed.searchParams)).toEqual({ lang: "pt", check_in: checkIn, check_out: checkOut, adults: "1", children: "0" });
  // The search ran: two nights for one adult, and the Double at 2 × 120.00.
  await expect(engine.getByText("2 noites, 1 adulto")).toBeVisible();
  await expect(engine.getByRole("listitem").filter({ hasText: "Best available" }).last()).toContainText(new Intl.NumberFormat("pt", { style: "currency", currency: "USD" }).format(240));
});

for (const width of [1280, 390]) {
  test(`a guest chooses the arrival from the month of prices, in Portuguese, and the page's schema.org data says what it shows, at ${width} px`, async ({ request, browser }) => {
    const hotel = await hotelOfItsOwn(request, {
      name: `Solar das Flores ${width}`,
      role: "owner",
      timezone: "Europe/Lisbon",
      rooms: ["101", "102"],
      property: { address: { line1: "Rua das Flores 12", city: "Porto", postal_code: "4050-262", country: "PT" } },
    });
    const slug = `solar-${width}-${Date.now().toString(36)}`;
    await hotel.api.patch(`/properties/${hotel.property.id}/booking_engine`, { slug, enabled: true, rate_plan_ids: [hotel.plan.id] });
    // Sales stopped on the night after tomorrow: no stay can arrive then.
    const stopped = addDays(hotel.today, 2);
    await hotel.api.post(`/rate_plans/${hotel.plan.id}/rates`, { room_type_id: hotel.roomType.id, from: stopped, to: addDays(stopped, 1), stop_sell: true });
    // Open arrivals: each day from today with a rate (ten nights are loaded), but the stopped one.
    const open = Array.from({ length: 10 }, (_, i) => addDays(hotel.today, i)).filter((d) => d !== stopped);
    const month = hotel.today.slice(0, 7);

    const g = await guestPage(browser, "pt-PT,pt;q=0.9,en;q=0.5", width);
    await g.goto(`/book/${slug}`);
    await waitForHydration(g);
    const calendar = g.getByRole("region", { name: "Preços por dia de chegada" });
    await expect(calendar).toBeVisible();
    const days = calendar.getByRole("table");
    // The month and the weekdays in Portuguese too.
    const monthWords = new Intl.DateTimeFormat("pt", { month: "long", year: "numeric", timeZone: "UTC" }).format(new Date(`${hotel.today.slice(0, 7)}-15T12:00:00Z`));
    await expect(days.locator("caption")).toHaveText(monthWords);
    await expect(days.getByRole("columnheader").first()).toHaveText("S");
    await expect(days.getByRole("columnheader").last()).toHaveText("D");
    await expect(days.getByRole("link")).toHaveCount(open.filter((d) => d.startsWith(month)).length);
    // The stopped day says so in words and is no link.
    const stoppedCell = days.getByRole("cell").filter({ hasText: new RegExp(`^${Number(stopped.slice(8))}\\s*Fechado$`) });
    if (stopped.startsWith(month)) {
      await expect(stoppedCell).toHaveCount(1);
      await expect(stoppedCell.getByRole("link")).toHaveCount(0);
    }
    // Each open day's price: one night at 120.00, no tax here.
    const night = new Intl.NumberFormat("pt", { style: "currency", currency: "USD" }).format(120);
    await expect(days.getByRole("link").first()).toHaveAccessibleName(new RegExp(`: Chegada a .+, desde ${night.replace(/[$.]/g, "\\$&")}$`));
    await expectNoSeriousAxe(g);
    if (width < 1024) await expectNoHorizontalScroll(g);
    await expectGuestWords(g);
    await snap(g, "booking-engine-calendar");

    // The next month, by its link, then back; a day chosen by keyboard sets the arrival.
    await calendar.getByRole("link", { name: "Mês seguinte" }).click();
    await expect(g).toHaveURL(new RegExp(`month=${addDays(`${month}-01`, 32).slice(0, 7)}`));
    const nextOpen = open.filter((d) => !d.startsWith(month));
    await expect(g.getByRole("region", { name: "Preços por dia de chegada" }).getByRole("table").getByRole("link")).toHaveCount(nextOpen.length);
    await g.getByRole("link", { name: "Mês anterior" }).click();
    const arrival = open.find((d) => d.startsWith(month) && d !== hotel.today) ?? nextOpen[0];
    if (!arrival.startsWith(month)) await g.getByRole("link", { name: "Mês seguinte" }).click();
    const link = g.locator(`a[href*="check_in=${arrival}"]`);
    await link.focus();
    await g.keyboard.press("Enter");
    await expect(g).toHaveURL(new RegExp(`check_in=${arrival}&check_out=${addDays(arrival, 1)}`));
    await expect(g.getByText("1 noite, 2 adultos")).toBeVisible();
    await expect(g.locator(`a[aria-current="date"]`)).toHaveAttribute("href", new RegExp(`check_in=${arrival}`));
    await expectNoSeriousAxe(g);
    if (width < 1024) await expectNoHorizontalScroll(g);
    await expectGuestWords(g);
    await snap(g, "booking-engine-calendar-chosen");

    // schema.org: the hotel as the page names it, and an offer for the rate shown, at the price shown.
    const data = JSON.parse((await g.locator('script[type="application/ld+json"]').textContent())!);
    expect(data["@context"]).toBe("https://schema.org");
    expect(data["@type"]).toBe("Hotel");
    expect(data.name).toBe(`Solar das Flores ${width}`);
    await expect(g.getByText(data.name, { exact: true })).toBeVisible();
    expect(data.address).toEqual({ "@type": "PostalAddress", streetAddress: "Rua das Flores 12", addressLocality: "Porto", postalCode: "4050-262", addressCountry: "PT" });
    expect(data.url).toMatch(new RegExp(`/book/${slug}$`));
    expect(data.checkinTime).toBe("15:00");
    expect(data.checkoutTime).toBe("11:00");
    expect(data.makesOffer).toHaveLength(1);
    const [offer] = data.makesOffer;
    expect(offer).toMatchObject({ "@type": "Offer", name: "Best available", price: "120.00", priceCurrency: "USD", availability: "https://schema.org/InStock", availabilityStarts: arrival, availabilityEnds: addDays(arrival, 1) });
    expect(offer.itemOffered).toMatchObject({ "@type": "HotelRoom", name: "Double" });
    // The page shows that room, that rate and that total.
    const shown = g.getByRole("listitem").filter({ has: g.getByRole("button", { name: "Reservar esta tarifa: Double, Best available" }) }).last();
    await expect(shown).toContainText(night);
  });
}

test("without dates, the page's schema.org data is the hotel alone, with no offers", async ({ request }) => {
  const hotel = await hotelOfItsOwn(request, { name: "Casa Sem Datas", role: "owner", timezone: "Europe/Lisbon", rooms: ["101"] });
  const slug = `sem-datas-${Date.now().toString(36)}`;
  await hotel.api.patch(`/properties/${hotel.property.id}/booking_engine`, { slug, enabled: true, rate_plan_ids: [hotel.plan.id] });
  const html = await (await request.get(`/book/${slug}?lang=en`)).text();
  const json = /<script type="application\/ld\+json">(.*?)<\/script>/s.exec(html)?.[1];
  const data = JSON.parse(json!);
  expect(data).toMatchObject({ "@type": "Hotel", name: "Casa Sem Datas" });
  expect(data.makesOffer).toBeUndefined();
  expect(data.address).toBeUndefined();
});
