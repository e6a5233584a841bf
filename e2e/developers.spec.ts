import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Page } from "./test";
import { verifyWebhook } from "../server/webhooks/verify-signature";
import { createApiKey, createStaff, expectNoHorizontalScroll, signIn, snap, uniqueEmail } from "./helpers";

// The developer console against the production server, with a real receiver on 127.0.0.1
// (playwright.config.ts allows private networks, retries after 2 s, breaker at 3 attempts).

type Got = { path: string; headers: http.IncomingHttpHeaders; body: string };
let server: http.Server;
let base = "";
const got: Got[] = [];
/** Status and body per path; default 200 "received-by-e2e". */
const answers = new Map<string, { status: number; body: string }>();
let key = "";

test.beforeAll(async () => {
  key = createApiKey();
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      got.push({ path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      const a = answers.get(req.url ?? "") ?? { status: 200, body: "received-by-e2e" };
      res.writeHead(a.status, { "content-type": "text/plain", "x-receiver": "e2e" }).end(a.body);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
test.afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

/** A guest through /v1: emits guest.created. */
async function causeEvent(page: Page) {
  const res = await page.request.post("/v1/guests", { headers: { authorization: `Bearer ${key}` }, data: { first_name: "Hook", last_name: "Test", email: uniqueEmail("hook") } });
  expect(res.status()).toBe(201);
}

/** Creates an endpoint through the dialog; lands on its page and returns its id. */
async function createEndpoint(page: Page, path: string, group = "All guests events") {
  await page.goto("/developers/webhooks");
  await page.getByRole("button", { name: "New endpoint" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New webhook endpoint" });
  await dialog.getByLabel("Endpoint URL").fill(`${base}${path}`);
  await dialog.getByLabel(group).check();
  await dialog.getByRole("button", { name: "Create endpoint" }).click();
  await page.waitForURL(/\/developers\/webhooks\/we_/);
  return page.url().split("/").pop()!;
}

test.describe("developer console", () => {
  test.describe.configure({ timeout: 120_000 });
  test.beforeEach(async ({ page }) => signIn(page));

  test("create an endpoint, cause an event, read the attempt; a failing answer, then Replay", async ({ page }) => {
    const path = `/ok-${Date.now()}`;
    // The URL rules are the API's: no credentials in the URL.
    await page.goto("/developers/webhooks");
    await page.getByRole("button", { name: "New endpoint" }).first().click();
    const dialog = page.getByRole("dialog", { name: "New webhook endpoint" });
    await dialog.getByLabel("Endpoint URL").fill("https://user:pw@example.com/hook");
    await dialog.getByLabel("All events (including types added later)").check();
    await dialog.getByRole("button", { name: "Create endpoint" }).click();
    await expect(dialog.locator('[data-field-error="url"]')).toContainText("credentials");
    await page.keyboard.press("Escape");

    const id = await createEndpoint(page, path);
    answers.set(path, { status: 400, body: "bad-payload-e2e" });
    await causeEvent(page);
    const row = page.getByTestId("delivery-row").first();
    await expect(row).toContainText("Failed", { timeout: 20_000 });
    await expect(row).toContainText("400");
    await row.getByRole("link").first().click();
    const attempt = page.getByTestId("attempt").first();
    await expect(attempt).toContainText("bad-payload-e2e");
    await expect(attempt).toContainText("service-signature");
    await expect(attempt).toContainText("x-receiver");

    answers.delete(path);
    await page.getByRole("button", { name: "Replay" }).click();
    await page.waitForURL((u) => !u.pathname.endsWith(id) && /\/developers\/deliveries\/del_/.test(u.pathname));
    await expect(page.getByTestId("attempt").first()).toContainText("received-by-e2e", { timeout: 20_000 });
    await expect(page.getByText("Succeeded").first()).toBeVisible();
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await snap(page, "developers-delivery");
      await expectNoHorizontalScroll(page);
    }

    await page.goto(`/developers/webhooks/${id}`);
    // Other specs run beside this one and their guests reach every "all events" endpoint too.
    await expect(page.getByTestId("chart-summary")).toContainText(/[1-9]\d* succeeded/);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await snap(page, "developers-endpoint");
      await expectNoHorizontalScroll(page);
    }
  });

  test("the endpoint's chart follows new attempts without a reload", async ({ page }) => {
    const path = `/chart-${Date.now()}`;
    await createEndpoint(page, path);
    const summary = page.getByTestId("chart-summary");
    await expect(summary).toBeVisible();
    const before = (await summary.textContent()) ?? "";
    await causeEvent(page);
    await expect(page.getByTestId("delivery-row").filter({ visible: true, hasText: "Succeeded" }).first()).toBeVisible({ timeout: 20_000 });
    // The chart answers within seconds of the log (its own clock alone took 15 s).
    await expect(summary).not.toHaveText(before, { timeout: 8_000 });
    await expect(summary).toContainText(/[1-9]\d* succeeded/);
  });

  test("the breaker disables a failing endpoint; re-enable drains the held deliveries", async ({ page }) => {
    const path = `/down-${Date.now()}`;
    answers.set(path, { status: 503, body: "down" });
    const id = await createEndpoint(page, path);
    await causeEvent(page);
    await causeEvent(page);
    await causeEvent(page);
    const banner = page.getByTestId("disabled-banner");
    await expect(banner).toContainText("circuit breaker disabled", { timeout: 40_000 });
    await causeEvent(page);
    await expect(page.getByTestId("held-count")).toHaveText(/[1-9]/, { timeout: 15_000 });
    // The sentence agrees with its number, whichever it is.
    await expect(banner).toContainText(/(^|\D)(1 delivery is held and goes out|([02-9]|\d\d+) deliveries are held and go out)/);
    await page.goto("/developers/outbox");
    await expect(page.getByTestId("mail").filter({ hasText: path }).first()).toBeVisible();

    answers.delete(path);
    await page.goto(`/developers/webhooks/${id}`);
    await page.getByRole("button", { name: "Re-enable" }).click();
    await expect(banner).toHaveCount(0);
    await expect(page.getByTestId("waiting-banner")).toHaveCount(0, { timeout: 30_000 });
    // Other specs' guests reach this endpoint too: at least our four, and none left held.
    await expect.poll(() => page.getByTestId("delivery-row").filter({ visible: true, hasText: "Succeeded" }).count(), { timeout: 30_000 }).toBeGreaterThanOrEqual(4);
    await expect(page.getByTestId("delivery-row").filter({ visible: true, hasText: "Held" })).toHaveCount(0);
  });

  test("a test event the receiver verifies; reveal and rotate the secret", async ({ page }) => {
    const path = `/ping-${Date.now()}`;
    await createEndpoint(page, path, "All housekeeping events");
    const pings = () => got.filter((g) => g.path === path && g.body.includes('"type":"ping"'));
    await page.getByRole("button", { name: "Reveal" }).click();
    const secret = (await page.getByTestId("current-secret").textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    await page.getByRole("button", { name: "Send test event" }).click();
    await expect.poll(() => pings().length, { timeout: 20_000 }).toBe(1);
    const ping = pings()[0];
    expect(verifyWebhook(ping.body, ping.headers["service-signature"], secret).type).toBe("ping");
    await expect(page.getByTestId("delivery-row").first()).toContainText("ping");

    await page.getByRole("button", { name: "Rotate secret…" }).click();
    const confirm = page.getByRole("alertdialog");
    await confirm.getByLabel("Keep the old secret valid for").selectOption("3600");
    await confirm.getByRole("button", { name: "Rotate" }).click();
    await expect(page.getByTestId("old-secret")).toHaveText(secret);
    await expect(page.getByTestId("secret-expiry")).toContainText("still signing until");
    const fresh = (await page.getByTestId("current-secret").textContent())!.trim();
    expect(fresh).not.toBe(secret);
    await page.getByRole("button", { name: "Send test event" }).click();
    await expect.poll(() => pings().length, { timeout: 20_000 }).toBe(2);
    const second = pings()[1];
    // Both secrets verify during the overlap.
    expect(verifyWebhook(second.body, second.headers["service-signature"], fresh).type).toBe("ping");
    expect(verifyWebhook(second.body, second.headers["service-signature"], secret).type).toBe("ping");
    await expect(page.getByTestId("audit-entry").filter({ hasText: "Secret rotated" })).toBeVisible();
  });

  test("an API key with an IP allow-list works from here, then is revoked and refused", async ({ page }) => {
    await page.goto("/developers/api-keys");
    await page.getByRole("button", { name: "New API key" }).first().click();
    const dialog = page.getByRole("dialog", { name: "New API key" });
    const name = `e2e key ${Date.now()}`;
    await dialog.getByLabel("Name (optional)").fill(name);
    await dialog.getByRole("checkbox", { name: /rooms:read/ }).check();
    await dialog.getByLabel("Allowed IP addresses (optional)").fill("not-an-ip");
    await dialog.getByRole("button", { name: "Create key" }).click();
    await expect(dialog.getByText(/not an IPv4 or IPv6 address/)).toBeVisible();
    await dialog.getByLabel("Allowed IP addresses (optional)").fill("127.0.0.1\n::1");
    await dialog.getByRole("button", { name: "Create key" }).click();
    const newKey = (await page.getByTestId("new-key").textContent())!.trim();
    expect(newKey).toMatch(/^hk_/);
    await page.getByRole("button", { name: "I have stored it" }).click();

    const ok = await page.request.get("/v1/properties", { headers: { authorization: `Bearer ${newKey}` } });
    expect(ok.status()).toBe(200);
    await page.reload();
    const row = page.getByTestId(`key-${newKey.slice(0, 10)}`).filter({ visible: true });
    await expect(row.getByTestId("last-used")).not.toHaveText("Never");
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await snap(page, "developers-api-keys");
      await expectNoHorizontalScroll(page);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await row.getByRole("button", { name: `Revoke ${name}` }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Revoke key" }).click();
    await expect(row).toContainText("Revoked");
    const refused = await page.request.get("/v1/properties", { headers: { authorization: `Bearer ${newKey}` } });
    expect(refused.status()).toBe(401);
    expect((await refused.json()).error.code).toBe("token_revoked");
  });

  test("screenshots of every developer page at 1280 and 390", async ({ page }) => {
    const pages: [string, string][] = [
      ["/developers/webhooks", "developers-webhooks"],
      ["/developers/deliveries", "developers-deliveries"],
      ["/developers/events", "developers-events"],
      ["/developers/outbox", "developers-outbox"],
    ];
    for (const [url, name] of pages) {
      await page.goto(url);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expect(page.locator("[data-loading]")).toHaveCount(0, { timeout: 15_000 });
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await snap(page, name);
        await expectNoHorizontalScroll(page);
      }
      await page.setViewportSize({ width: 1280, height: 900 });
    }
    await page.goto("/developers/events");
    await page.locator("table").getByRole("link").first().click();
    await expect(page.getByRole("heading", { name: "Payload" })).toBeVisible();
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await snap(page, "developers-event");
      await expectNoHorizontalScroll(page);
    }
  });
});

test("front_desk cannot reach any developer page or procedure", async ({ page }) => {
  await signIn(page, createStaff("front_desk"));
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Webhooks" })).toHaveCount(0);
  for (const url of ["/developers/webhooks", "/developers/webhooks/we_x", "/developers/deliveries", "/developers/deliveries/del_x", "/developers/events", "/developers/events/evt_x", "/developers/api-keys", "/developers/outbox"]) {
    await page.goto(url);
    await expect(page.getByText("This page is not available for your role.")).toBeVisible();
  }
  for (const proc of ["developers.webhooks.list", "developers.deliveries.list", "developers.events.list", "developers.apiKeys.list", "developers.outbox.list"]) {
    expect((await page.request.get(`/api/trpc/${proc}?input=%7B%7D`)).status()).toBe(403);
  }
  expect((await page.request.post("/api/trpc/developers.apiKeys.create", { data: { scopes: ["rooms:read"] } })).status()).toBe(403);
});
