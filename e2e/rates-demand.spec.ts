import { expect, test } from "./test";
import { expectNoSeriousAxe } from "./axe";
import { createApiKey, expectNoHorizontalScroll, signIn, snap, uniqueEmail } from "./helpers";
import { ownRoomType, plusDays } from "./rooms-setup";
import { scan } from "./words-scan";

// Issue 39, point 7: the rates grid shows beside each night's price the rooms left to sell and the
// restrictions, in words, at 1280 and 390 px, reachable by keyboard, with axe.

test.describe.configure({ timeout: 120_000 });

test("each night of the rates grid says the rooms left and its restrictions in words", async ({ page, request }) => {
  const t = await ownRoomType(request, createApiKey(), { rooms: 2, rates: true });
  const book = (from: number) =>
    t.post("/v1/reservations", {
      property_id: t.propertyId,
      room_type_id: t.roomTypeId,
      rate_plan_id: t.ratePlanId,
      check_in: plusDays(t.today, from),
      check_out: plusDays(t.today, from + 1),
      adults: 1,
      guest: { first_name: "Rita", last_name: "Rates", email: uniqueEmail("rita") },
    });
  // Night 2 sold out (both rooms), night 3 one sold; night 3 closed to arrival, night 4 two nights at least.
  await book(2);
  await book(2);
  await book(3);
  await t.post(`/v1/rate_plans/${t.ratePlanId}/rates`, { room_type_id: t.roomTypeId, from: plusDays(t.today, 3), to: plusDays(t.today, 4), closed_to_arrival: true }, 200);
  await t.post(`/v1/rate_plans/${t.ratePlanId}/rates`, { room_type_id: t.roomTypeId, from: plusDays(t.today, 4), to: plusDays(t.today, 5), min_stay: 2 }, 200);

  await signIn(page);
  const cell = (n: number) => page.locator(`button[data-room-type="${t.code}"][data-date="${plusDays(t.today, n)}"]`);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/rates");
    await page.getByLabel("Rate plan").selectOption({ label: `P${t.code} · E2E rate` });
    await expect(cell(1)).toContainText("2 left");
    await expect(cell(2)).toContainText("Sold out");
    await expect(cell(3)).toContainText("1 left");
    await expect(cell(3)).toContainText("Closed to arrival");
    await expect(cell(4)).toContainText("Min. 2 nights");
    await expect(cell(3)).toHaveAccessibleName(/120[.,]00[^,]*, 1 left, closed to arrival$/);
    await expect(cell(2)).toHaveAccessibleName(/sold out/);
    // No code of the old grid is left on it.
    for (const code of ["CTA", "CTD", "2+"]) await expect(page.getByTestId("rate-grid-box")).not.toContainText(new RegExp(`\\b${code.replace("+", "\\+")}(?!\\w)`));

    // Keyboard: Tab from the plan's select reaches the grid's cells.
    await page.getByLabel("Rate plan").focus();
    let reached = false;
    for (let i = 0; i < 12 && !reached; i++) {
      await page.keyboard.press("Tab");
      reached = await page.evaluate(() => !!document.activeElement?.closest("[data-testid=rate-grid-box]"));
    }
    expect(reached, "a cell of the grid takes the focus by Tab").toBe(true);

    await expectNoSeriousAxe(page);
    if (width === 390) await expectNoHorizontalScroll(page);
    expect(scan(await page.locator("main").innerText())).toEqual([]);
    await cell(3).scrollIntoViewIfNeeded();
    await snap(page, "rates-demand");
  }
});
