import { expect, test, waitForHydration, type Page } from "./test";
import { addDays } from "./api";
import { expectNoSeriousAxe } from "./axe";
import { expectNoHorizontalScroll, snap, uniqueEmail } from "./helpers";
import { hotelOfItsOwn } from "./own-hotel";

// Issue 38, point 3: a guest books on the booking engine, opens the link to manage the booking
// (the confirmation's, the same as its e-mail's), changes the dates (the new price shown before it
// is kept), then cancels (the fee stated first), in English at 1280 px and in Portuguese at 390 px.

test.describe.configure({ timeout: 180_000 });

/** What a guest's page must never show: ids, enum values, raw amounts or ISO dates. */
async function expectGuestWords(page: Page, english: string[]) {
  const text = await page.locator("body").innerText();
  expect(text).not.toMatch(/\b(res|rt|rp|prop|gst|hold|bks)_[A-Za-z0-9]{6,}/);
  expect(text).not.toMatch(/\b(room_only|booking_engine|no_availability|non_refundable|deadline_passed|checked_in|no_show|price_changed|fee_changed)\b/);
  expect(text).not.toMatch(/\b\d{4}-\d{2}-\d{2}\b/);
  expect(text).not.toMatch(/\b(24000|36000)\b/);
  for (const word of english) expect(text).not.toContain(word);
}

const words = {
  en: { choose: "Book this rate: Double, Best available", first: "First name", last: "Last name", email: "E-mail", submit: "Confirm booking", manage: "Change or cancel this booking", title: "Your booking", look: "See the new price", confirm: "Confirm the change", changed: "Your booking has been changed.", startCancel: "Cancel this booking…", free: "Cancelling now is free of charge.", cancel: "Cancel my booking", cancelled: "This booking is cancelled.", english: [] as string[] },
  pt: {
    choose: "Reservar esta tarifa: Double, Best available",
    first: "Nome próprio",
    last: "Apelido",
    email: "E-mail",
    submit: "Confirmar reserva",
    manage: "Alterar ou cancelar esta reserva",
    title: "A sua reserva",
    look: "Ver o novo preço",
    confirm: "Confirmar a alteração",
    changed: "A sua reserva foi alterada.",
    startCancel: "Cancelar esta reserva…",
    free: "Cancelar agora é gratuito.",
    cancel: "Cancelar a minha reserva",
    cancelled: "Esta reserva está cancelada.",
    english: ["Your booking", "Arrival", "Departure", "Guests", "Change", "Free cancellation", "Special requests", "Booking reference", "adults", "nights"],
  },
};

for (const [width, lang] of [[1280, "en"], [390, "pt"]] as const) {
  test(`a guest books, then changes the dates and cancels from the manage link, in ${lang} at ${width} px`, async ({ request, browser }) => {
    const w = words[lang];
    const hotel = await hotelOfItsOwn(request, { name: `Casa Manage ${width}`, role: "owner", timezone: "Europe/Lisbon", rooms: ["101", "102"] });
    const slug = `casa-manage-${width}-${Date.now().toString(36)}`;
    await hotel.api.patch(`/properties/${hotel.property.id}/booking_engine`, { enabled: true, slug, rate_plan_ids: [hotel.plan.id] });
    const checkIn = addDays(hotel.today, 3);
    const checkOut = addDays(hotel.today, 5);
    const money = (amount: number) => new Intl.NumberFormat(lang, { style: "currency", currency: "USD" }).format(amount);

    const context = await browser.newContext({ locale: lang, viewport: { width, height: 900 } });
    const g = await context.newPage();
    await g.goto(`/book/${slug}?check_in=${checkIn}&check_out=${checkOut}&adults=2&lang=${lang}`);
    await g.getByRole("button", { name: w.choose }).click();
    await waitForHydration(g);
    const details = g.locator("form").filter({ has: g.getByRole("button", { name: w.submit }) });
    await details.getByLabel(w.first).fill("Inês");
    await details.getByLabel(w.last).fill("Guerreiro");
    await details.getByLabel(w.email, { exact: true }).fill(uniqueEmail("guerreiro"));
    await details.getByRole("button", { name: w.submit }).click();

    // The confirmation links to the manage page, as its e-mail does.
    await g.getByRole("link", { name: w.manage }).click();
    await expect(g.getByRole("heading", { level: 1, name: w.title })).toBeVisible();
    await expect(g.locator("html")).toHaveAttribute("lang", lang);
    // Two nights at 120.00 (no tax at this hotel).
    await expect(g.getByText(money(240)).first()).toBeVisible();
    await expectNoSeriousAxe(g);
    await expectGuestWords(g, w.english);
    if (width < 1024) await expectNoHorizontalScroll(g);
    await snap(g, `booking-engine-manage-${lang}`);

    // One more night: the new price first (three nights, 360.00), then the change.
    await g.locator("#check_out").fill(addDays(checkOut, 1));
    await g.getByRole("button", { name: w.look }).click();
    const preview = g.getByTestId("change-preview");
    await expect(preview).toContainText(money(360));
    await expect(preview).toContainText(money(240));
    await expectNoSeriousAxe(g);
    await expectGuestWords(g, w.english);
    if (width < 1024) await expectNoHorizontalScroll(g);
    await snap(g, `booking-engine-manage-change-${lang}`);
    await preview.getByRole("button", { name: w.confirm }).click();
    await expect(g.getByRole("status")).toContainText(w.changed);
    await expect(g.getByText(money(360)).first()).toBeVisible();

    // Cancelling: the fee first (free, a week ahead on a 24-hour plan), then done; the link then shows the cancelled stay.
    await g.getByRole("link", { name: w.startCancel }).click();
    await expect(g.getByTestId("cancel-terms")).toContainText(w.free);
    await expectNoSeriousAxe(g);
    if (width < 1024) await expectNoHorizontalScroll(g);
    await snap(g, `booking-engine-manage-cancel-${lang}`);
    await g.getByRole("button", { name: w.cancel }).click();
    await expect(g.getByTestId("booking-status")).toHaveText(w.cancelled);
    await g.reload();
    await expect(g.getByTestId("booking-status")).toHaveText(w.cancelled);
    await expect(g.getByRole("button", { name: w.cancel })).toHaveCount(0);
    await expectNoSeriousAxe(g);
    await expectGuestWords(g, w.english);
    if (width < 1024) await expectNoHorizontalScroll(g);
    await snap(g, `booking-engine-manage-cancelled-${lang}`);

    // A tampered link: a page in the guest's words, no stack, no id.
    const tampered = new URL(g.url());
    tampered.searchParams.set("token", `${tampered.searchParams.get("token")!.slice(0, -3)}xyz`);
    tampered.searchParams.delete("done");
    await g.goto(tampered.pathname + tampered.search);
    await expect(g.getByRole("heading", { level: 1 })).toHaveText(lang === "pt" ? "Esta ligação não abre nenhuma reserva" : "This link does not open a booking");
    await expectGuestWords(g, w.english);
    await snap(g, `booking-engine-manage-invalid-${lang}`);
    await context.close();
  });
}
