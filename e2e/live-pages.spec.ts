import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "./test";
import { expectNoSeriousAxe } from "./axe";
import { createApiKey, signIn, uniqueEmail, waitForLive } from "./helpers";

// Issue 23, point 5, two pages that said the wrong thing until a reload: a backfill on an endpoint
// the circuit breaker holds read "Delivering · 29 waiting", and the guest page's details,
// preferences and history stayed as they were when a change came from /v1 or another desk.

test.describe.configure({ timeout: 120_000 });

let key = "";
let server: http.Server;
let base = "";
/** Paths the receiver refuses with a 503, as an endpoint that is down. */
const down = new Set<string>();
const endpoints: string[] = [];

test.beforeAll(async () => {
  key = createApiKey("reservations:read reservations:write webhooks:manage");
  server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(down.has(req.url ?? "") ? 503 : 200, { "content-type": "text/plain" }).end(down.has(req.url ?? "") ? "down" : "ok"));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
test.afterAll(async ({ request }) => {
  // The endpoints this spec made go, so no later spec's events queue up for a receiver that is gone.
  for (const id of endpoints) await request.delete(`/v1/webhook_endpoints/${id}`, { headers: { authorization: `Bearer ${key}` } });
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

const api = (request: import("./test").APIRequestContext) => ({
  guest: async (first_name: string, last_name: string) => {
    const res = await request.post("/v1/guests", { headers: { authorization: `Bearer ${key}` }, data: { first_name, last_name, email: uniqueEmail(last_name.toLowerCase()) } });
    expect(res.status(), await res.text()).toBe(201);
    return (await res.json()) as { id: string };
  },
});

test("a backfill on an endpoint the circuit breaker holds says its deliveries are held until the endpoint is back, not that it is delivering", async ({ page, request }) => {
  // Guest events of the last hour for the backfill to send: these, and any other spec's.
  for (let i = 0; i < 8; i++) await api(request).guest("Backfill", `Held${i}`);
  const path = `/down-${Date.now()}`;
  down.add(path);

  await signIn(page);
  await page.goto("/developers/webhooks");
  await page.getByRole("button", { name: "New endpoint" }).first().click();
  const create = page.getByRole("dialog", { name: "New webhook endpoint" });
  await create.getByLabel("Endpoint URL").fill(`${base}${path}`);
  await create.getByLabel("All guests events").check();
  await create.getByRole("button", { name: "Create endpoint" }).click();
  await page.waitForURL(/\/developers\/webhooks\/we_/);
  endpoints.push(page.url().split("/").pop()!);

  // The last hour again, to an endpoint that answers 503: the breaker trips after a few attempts
  // and holds the rest.
  await page.getByRole("form", { name: "Backfill" }).getByRole("button", { name: "Start backfill" }).click();
  const progress = page.getByTestId("backfill-progress").first();
  await expect(progress).toBeVisible();
  await expect(page.getByTestId("disabled-banner")).toContainText("circuit breaker disabled", { timeout: 60_000 });
  await expect(progress).toContainText("Held by the circuit breaker", { timeout: 15_000 });
  await expect(progress).toContainText(/[1-9]\d* held until the endpoint is re-enabled/);
  // Not the words of an endpoint that is sending.
  await expect(progress).not.toContainText("Delivering");
  await expect(progress).not.toContainText(/\d waiting/);
  await expectNoSeriousAxe(page);
});

test("the guest page follows changes made through /v1 and at another desk, details, preferences and history, without a reload", async ({ page, request }) => {
  const guest = await api(request).guest("Lena", `Phone${Date.now().toString(36).slice(-4)}`);
  await signIn(page);
  await page.goto(`/guests/${guest.id}`);
  const phone = page.locator('dt:text-is("Phone") + dd');
  await expect(phone).toHaveText("—");
  await waitForLive(page);

  // An integrator changes the phone through /v1.
  const patched = await request.patch(`/v1/guests/${guest.id}`, { headers: { authorization: `Bearer ${key}` }, data: { phone: "+1 415 555 0134" } });
  expect(patched.status(), await patched.text()).toBe(200);
  await expect(phone).toHaveText("+1 415 555 0134", { timeout: 5_000 });

  // Another desk (a second tab of the same staff) changes it again in the dashboard: the first
  // page shows the new number and the history entry that records it.
  const desk = await page.context().newPage();
  await desk.goto(`/guests/${guest.id}`);
  await desk.getByRole("button", { name: "Edit" }).click();
  await desk.getByLabel("Phone").fill("+1 415 555 0199");
  await desk.getByRole("button", { name: "Save", exact: true }).click();
  await expect(desk.locator('dt:text-is("Phone") + dd')).toHaveText("+1 415 555 0199");
  await desk.close();
  await expect(phone).toHaveText("+1 415 555 0199", { timeout: 5_000 });
  await expect(page.getByTestId("audit-entry").filter({ hasText: "Guest details changed" }).first()).toContainText("+1 415 555 0199", { timeout: 5_000 });

  // The restaurant's system records a nut allergy through /v1: the open page shows it at once.
  const allergies = page.getByRole("list", { name: "Allergies" });
  await expect(allergies).toContainText("None recorded");
  const nuts = await request.patch(`/v1/guests/${guest.id}/preferences`, { headers: { authorization: `Bearer ${key}` }, data: { allergies: ["Tree nuts"] } });
  expect(nuts.status(), await nuts.text()).toBe(200);
  await expect(allergies.getByRole("listitem").filter({ hasText: "Tree nuts" })).toBeVisible({ timeout: 5_000 });
  await expect(allergies).not.toContainText("None recorded");
  await expect(page.getByTestId("audit-entry").filter({ hasText: "Preferences changed" }).first()).toBeVisible({ timeout: 5_000 });

  // A clerk halfway through an edit keeps it, and is told what is on file now.
  await page.getByLabel("Add an allergy").fill("Latex");
  await page.getByRole("button", { name: "Add", exact: true }).click();
  await expect(allergies.getByRole("listitem").filter({ hasText: "Latex" })).toBeVisible();
  const sesame = await request.patch(`/v1/guests/${guest.id}/preferences`, { headers: { authorization: `Bearer ${key}` }, data: { allergies: ["Tree nuts", "Sesame"] } });
  expect(sesame.status(), await sesame.text()).toBe(200);
  const notice = page.getByRole("alert").filter({ hasText: "changed elsewhere" });
  await expect(notice).toContainText("Allergies on file now: Tree nuts, Sesame", { timeout: 5_000 });
  await expect(allergies.getByRole("listitem").filter({ hasText: "Latex" })).toBeVisible();
  await notice.getByRole("button", { name: "Discard my changes and show the saved preferences" }).click();
  await expect(notice).toHaveCount(0);
  await expect(allergies.getByRole("listitem")).toHaveText([/^Tree nuts/, /^Sesame/]);
});
