import { seriousAxeFindings } from "./axe";
import { expect, test, type Locator, type Page } from "./test";
import { createApiKey, createStaff, expectNoHorizontalScroll, signIn, snap, toasts, uniqueEmail } from "./helpers";
import { ownRoomType, plusDays, stayInHouse as sharedStayInHouse } from "./rooms-setup";

// Issue 23, point 4: the room tape chart. A stay in house is dragged to another room with the
// mouse and with the keyboard, and its end dragged to extend it; each change shows its price
// (120.00 a night here) and is saved only once confirmed. At 1280 and 390 px.

let key: string;
test.beforeAll(() => {
  key = createApiKey("rooms:read rooms:write reservations:read reservations:write");
});

const NIGHT = 56;
// The demo hotel's currency and format depend on which spec ran first (the setup spec makes it a
// hotel in Portugal): $240.00 or 240,00 €.
const money240 = (nights: number) => new RegExp(`\\$?240[.,]00(\\s€)? · ${nights} nights`);

/** Drags with the mouse in small steps (dnd-kit starts a drag after 6 px of movement). */
/**
 * Drags `from` with the mouse onto a point, or onto an element: an element is found once the drag
 * has started, scrolled into view as a person would with the wheel, so that a long page (many
 * rooms and housekeepers, as the whole suite leaves them) cannot put it off screen.
 */
async function drag(page: Page, from: Locator, to: { x: number; y: number } | Locator) {
  // In the middle of the screen, as a person would hold it: near an edge, dnd-kit scrolls the
  // page while the pointer rests there, and the target moves away from where it was measured.
  // A point was measured by the caller on the page as it is: then nothing may scroll.
  const centre = (el: Element) => el.scrollIntoView({ block: "center", inline: "nearest" });
  if ("x" in to) await from.scrollIntoViewIfNeeded();
  else await from.evaluate(centre);
  const box = (await from.boundingBox())!;
  const start = { x: box.x + Math.min(box.width / 2, 20), y: box.y + box.height / 2 };
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  let at = start;
  if (!("x" in to)) {
    for (let i = 1; i <= 3; i++) await page.mouse.move(start.x + 5 * i, start.y + 5 * i);
    at = { x: start.x + 15, y: start.y + 15 };
    await to.evaluate(centre);
    const target = (await to.boundingBox())!;
    to = { x: target.x + target.width / 2, y: target.y + target.height / 2 };
  }
  for (let i = 1; i <= 10; i++) await page.mouse.move(at.x + ((to.x - at.x) * i) / 10, at.y + ((to.y - at.y) * i) / 10);
  await page.mouse.up();
}

const stayInHouse = (request: Parameters<typeof ownRoomType>[0], last: string) => sharedStayInHouse(request, key, last);

for (const width of [1280, 390]) {
  test(`at ${width} px: move a stay with the mouse and the keyboard, extend it by its end, each priced and confirmed`, async ({ page, request }) => {
    test.setTimeout(90_000);
    const last = `Tape${width}${Date.now().toString(36).slice(-4)}`;
    const setup = await stayInHouse(request, last);
    await page.setViewportSize({ width, height: 844 });
    await signIn(page);
    await page.goto("/calendar/rooms");
    await expect(page.getByRole("heading", { level: 1, name: "Room chart" })).toBeVisible();
    const row = (n: number) => page.locator(`[data-row="Room ${setup.rooms[n].number}"]`);
    const bar = page.getByRole("button", { name: new RegExp(`^Tess ${last} · In house`) });
    await expect(row(0).getByRole("button", { name: new RegExp(`^Tess ${last}`) })).toBeVisible();
    if (width === 390) await expectNoHorizontalScroll(page);
    await snap(page, "tape-chart");

    // The mouse: to the second room. Same type, so the price does not change; Cancel keeps it.
    const target = async (n: number) => {
      await row(n).scrollIntoViewIfNeeded();
      const box = (await row(n).boundingBox())!;
      const from = (await bar.boundingBox())!;
      return { x: from.x + Math.min(from.width / 2, 20), y: box.y + box.height / 2 };
    };
    await drag(page, bar, await target(1));
    const dialog = page.getByRole("dialog", { name: "Confirm the change" });
    await expect(dialog).toContainText(`Move Tess ${last} from room ${setup.rooms[0].number} to room ${setup.rooms[1].number}`);
    await expect(dialog.getByTestId("price-change")).toHaveText("No change in price");
    await expect(dialog).toContainText(money240(2));
    await dialog.getByRole("button", { name: "Confirm" }).click();
    await expect(dialog).toBeHidden();
    await expect(row(1).getByRole("button", { name: new RegExp(`^Tess ${last}`) })).toBeVisible();
    await expect(row(0).getByRole("button", { name: new RegExp(`^Tess ${last}`) })).toHaveCount(0);

    // The keyboard: focus the stay, space picks it up, down arrow to the next room, space drops it.
    await bar.focus();
    await page.keyboard.press("Space");
    // dnd-kit says so in its live region once the stay is picked up and listens for arrows.
    await expect(page.locator("[id^=DndLiveRegion]").first()).toContainText(`Picked up the stay of Tess ${last}`);
    await page.keyboard.press("ArrowDown");
    await expect(page.locator("[id^=DndLiveRegion]").first()).toContainText(`Over Room ${setup.rooms[2].number}`);
    await page.keyboard.press("Space");
    await expect(dialog).toContainText(`to room ${setup.rooms[2].number}`);
    await expect(dialog.getByTestId("price-change")).toHaveText("No change in price");
    await dialog.getByRole("button", { name: "Confirm" }).click();
    await expect(row(2).getByRole("button", { name: new RegExp(`^Tess ${last}`) })).toBeVisible();

    // Its end, dragged two nights to the right: two more nights at 120.00 is 240.00 more.
    const end = page.getByRole("button", { name: new RegExp(`^Departure of Tess ${last}`) });
    await end.scrollIntoViewIfNeeded();
    const endBox = (await end.boundingBox())!;
    await drag(page, end, { x: endBox.x + endBox.width / 2 + 2 * NIGHT, y: endBox.y + endBox.height / 2 });
    await expect(dialog).toContainText(`Extend Tess ${last}'s stay`);
    await expect(dialog.getByTestId("price-change")).toHaveText(/^\$?240[.,]00(\s€)? more$/);
    await expect(dialog).toContainText(/\$?480[.,]00(\s€)? · 4 nights/);
    await snap(page, "tape-chart-confirm");
    await dialog.getByRole("button", { name: "Confirm" }).click();
    await expect(dialog).toBeHidden();
    await expect(end).toHaveAccessibleName(new RegExp(`Departure of Tess ${last}: .*${new Date(Date.parse(`${plusDays(setup.today, 4)}T00:00:00Z`)).getUTCDate()}`));
    if (width === 390) await expectNoHorizontalScroll(page);
  });
}

test("a tap opens the stay's menu, which moves it too; a refusal is said in words", async ({ page, request }) => {
  const last = `Menu${Date.now().toString(36).slice(-4)}`;
  const setup = await stayInHouse(request, last);
  // The third room is occupied by someone else: a move there is refused before anything is saved.
  const other = await setup.post("/v1/reservations", {
    property_id: setup.propertyId,
    guest: { first_name: "Otto", last_name: last, email: uniqueEmail("other") },
    check_in: setup.today,
    check_out: plusDays(setup.today, 1),
    room_type_id: setup.roomTypeId,
    rate_plan_id: setup.ratePlanId,
    adults: 1,
  });
  await setup.post(`/v1/reservations/${other.id}/check_in`, { room_id: setup.rooms[2].id }, 200);
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page);
  await page.goto("/calendar/rooms");
  const bar = page.getByRole("button", { name: new RegExp(`^Tess ${last} · In house`) });
  await bar.scrollIntoViewIfNeeded();
  await bar.click();
  const menu = page.getByRole("dialog", { name: `Tess ${last}` });
  await menu.getByLabel("Move to room").selectOption({ label: `Room ${setup.rooms[2].number}` });
  await menu.getByRole("button", { name: "Move…" }).click();
  const dialog = page.getByRole("dialog", { name: "Confirm the change" });
  await expect(dialog.getByRole("alert")).toContainText(`Room ${setup.rooms[2].number} is not ready`);
  await expect(dialog.getByRole("button", { name: "Confirm" })).toBeDisabled();
  await dialog.getByRole("button", { name: "Cancel" }).click();

  await bar.click();
  await menu.getByLabel("Move to room").selectOption({ label: `Room ${setup.rooms[1].number}` });
  await menu.getByRole("button", { name: "Move…" }).click();
  await expect(dialog.getByTestId("price-change")).toHaveText("No change in price");
  await dialog.getByRole("button", { name: "Confirm" }).click();
  await expect(page.locator(`[data-row="Room ${setup.rooms[1].number}"]`).getByRole("button", { name: new RegExp(`^Tess ${last}`) })).toBeVisible();
});

for (const width of [1280, 390]) {
  test(`at ${width} px the room chart has no serious accessibility fault`, async ({ page, request }) => {
    test.setTimeout(90_000);
    await stayInHouse(request, `Axe${width}`);
    await page.setViewportSize({ width, height: 844 });
    await signIn(page);
    await page.goto("/calendar/rooms");
    await expect(page.getByTestId("tape-chart")).toBeVisible();
    // The page's own content; the shell around every page is checked by its own spec.
    expect(await seriousAxeFindings(page, { include: "main" })).toEqual([]);
  });
}

for (const width of [1280, 390]) {
  test(`at ${width} px a manager assigns rooms by dragging them onto a housekeeper, with the mouse and with the keyboard`, async ({ page, request }) => {
    test.setTimeout(90_000);
    const { rooms } = await ownRoomType(request, key, { rooms: 2 });
    const housekeeper = createStaff("housekeeping");
    await page.setViewportSize({ width, height: 844 });
    await signIn(page);
    await page.goto("/housekeeping");
    await page.getByRole("tab", { name: "Assignments" }).click();
    const card = (n: number) => page.locator(`[data-room-card="${rooms[n].number}"]`);
    const person = page.locator(`[data-housekeeper="${housekeeper.email}"]`);

    // The mouse: the first room onto the housekeeper.
    await drag(page, card(0), person);
    // Said twice, to the eye in a toast and to a screen reader by the drag's live region (which
    // still holds it for a moment): the toast is what a clerk sees.
    await expect(toasts(page).getByText(`Room ${rooms[0].number} assigned to`)).toBeVisible();
    await expect(page.getByTestId(`assignment-${rooms[0].number}`)).toContainText("To do");
    await expect(page.getByRole("list", { name: `Assignments of ${housekeeper.email}` })).toContainText(`Room ${rooms[0].number}`);

    // The keyboard: space picks the second room up, arrows go from housekeeper to housekeeper.
    await card(1).focus();
    await page.keyboard.press("Space");
    await expect(page.locator("[id^=DndLiveRegion]").first()).toContainText(`Picked up room ${rooms[1].number}`);
    // The arrows go through the housekeepers in the order the list shows them, the first press to
    // the first, each announced over exactly that one (CI's database holds dozens of housekeepers,
    // so the page scrolls on the way), and each awaited before the next is pressed.
    const region = page.locator("[id^=DndLiveRegion]").first();
    const shown = await page.locator("[data-housekeeper]").evaluateAll((els) => els.map((el) => el.querySelector("span")?.textContent ?? ""));
    const label = (await person.locator("span").first().textContent())!;
    expect(shown).toContain(label);
    for (const name of shown.slice(0, shown.indexOf(label) + 1)) {
      await page.keyboard.press("ArrowDown");
      await expect(region).toHaveText(`Room ${rooms[1].number} over ${name}.`);
    }
    await expect(person).toHaveClass(/border-teal-600/);
    await page.keyboard.press("Space");
    await expect(page.getByRole("list", { name: `Assignments of ${housekeeper.email}` })).toContainText(`Room ${rooms[1].number}`);
    if (width === 390) await expectNoHorizontalScroll(page);
  });
}

test("a booking made elsewhere appears on the chart without a reload", async ({ page, request }) => {
  const setup = await ownRoomType(request, key, { rooms: 1, rates: true });
  await signIn(page);
  await page.goto("/calendar/rooms");
  // The live stream is open (its status "pending": connected, waiting for events).
  await expect(page.getByTestId("tape-chart")).toHaveAttribute("data-live", "pending");
  const last = `Live${Date.now().toString(36).slice(-4)}`;
  await setup.post("/v1/reservations", {
    property_id: setup.propertyId,
    guest: { first_name: "Lena", last_name: last, email: uniqueEmail("live") },
    check_in: plusDays(setup.today, 1),
    check_out: plusDays(setup.today, 3),
    room_type_id: setup.roomTypeId,
    rate_plan_id: setup.ratePlanId,
    adults: 1,
  });
  await expect(page.getByRole("button", { name: new RegExp(`^Lena ${last} · Confirmed`) })).toBeVisible();
});
