import { expect, test } from "./test";
import { e2eDatabase } from "../playwright.config";
import { startServer, type Server } from "../tests/support/server-process";
import { createApiKey, signIn, uniqueEmail } from "./helpers";
import { ownRoomType, plusDays } from "./rooms-setup";

// Issue 26, point 8: two separate instances on one PostgreSQL, as behind a load balancer. The
// dashboard is open on the suite's server; a second instance of the production server (its own
// process, the API only) takes a booking and a cancellation; both reach the open page live,
// without a reload. The embedded database belongs to one process, so this runs on PostgreSQL.

test.skip(e2eDatabase !== "postgres", "two instances share a PostgreSQL database; the embedded one belongs to one process");

let second: Server | undefined;
let secondUrl = "";

test.beforeAll(async () => {
  // The production entry, API only, as the integration tests' two-instance test starts it.
  second = await startServer({
    DATABASE_URL: process.env.E2E_DATABASE_URL!,
    // The suite's server keeps the webhook secrets sealed with this key; the second must open them.
    WEBHOOK_SECRET_KEYS: "e2e:ZTJlLW9ubHktd2ViaG9vay1rZXktMDEyMzQ1Njc4OWE=",
  });
  secondUrl = `http://127.0.0.1:${second.port}`;
});

test.afterAll(async () => second?.stop());

test("a booking and a cancellation made through another instance reach the open room chart live", async ({ page, request }) => {
  const key = createApiKey("rooms:read rooms:write reservations:read reservations:write");
  const setup = await ownRoomType(request, key, { rooms: 1, rates: true });
  await signIn(page);
  await page.goto("/calendar/rooms");
  await expect(page.getByTestId("tape-chart")).toHaveAttribute("data-live", "pending");

  const onSecond = async (path: string, body: unknown) => {
    const res = await fetch(`${secondUrl}${path}`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify(body) });
    expect(res.status, await res.clone().text()).toBeLessThan(300);
    return res.json();
  };
  const last = `Twin${Date.now().toString(36).slice(-4)}`;
  const booking = await onSecond("/v1/reservations", {
    property_id: setup.propertyId,
    guest: { first_name: "Ines", last_name: last, email: uniqueEmail("two") },
    check_in: plusDays(setup.today, 1),
    check_out: plusDays(setup.today, 3),
    room_type_id: setup.roomTypeId,
    rate_plan_id: setup.ratePlanId,
    adults: 1,
  });
  const bar = page.getByRole("button", { name: new RegExp(`^Ines ${last} · Confirmed`) });
  await expect(bar).toBeVisible();
  await onSecond(`/v1/reservations/${booking.id}/cancel`, { reason: "Plans changed" });
  await expect(bar).toHaveCount(0);
});
