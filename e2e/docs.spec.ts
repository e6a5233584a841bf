import { mkdirSync } from "node:fs";
import path from "node:path";
import { seriousAxeFindings } from "./axe";
import { expect, test, type Page } from "./test";
import { e2eDatabase } from "../playwright.config";

// Issue 24, item 2 (and issue 23): /docs stands alone. It renders the conventions and the
// quickstart (Markdown as Markdown), lists the OAuth endpoints, shows each operation's headers and
// a request in curl and with the TypeScript client, finds an operation by a word, and works at
// 390 px without sideways scrolling and without serious accessibility faults.

/** A screenshot of what is on screen (the page is long), under test-results/screenshots/<database>/. */
async function shot(page: Page, name: string) {
  const dir = path.join("test-results", "screenshots", e2eDatabase);
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}-${page.viewportSize()?.width ?? 0}.png`);
  await page.screenshot({ path: file });
  await test.info().attach(name, { path: file, contentType: "image/png" });
}

test("the API reference lists operations from the OpenAPI document", async ({ page, request }) => {
  const doc = await (await request.get("/v1/openapi.json")).json();
  await page.goto("/docs");
  await expect(page.getByRole("heading", { level: 1, name: doc.info.title })).toBeVisible();
  for (const path of ["/guests", "/guests/{id}/preferences", "/properties"]) {
    await expect(page.getByText(`/v1${path}`, { exact: true }).first()).toBeVisible();
  }
  await expect(page.locator("#errors")).toContainText("idempotency_key_reused");
  await expect(page.locator("#schema-GuestPreferences")).toBeVisible();
  await expect(page.getByRole("link", { name: "/v1/openapi.json" })).toHaveAttribute("href", "/v1/openapi.json");
  await shot(page, "docs-top");
});

test("conventions, quickstart, OAuth endpoints and webhooks render as a page of their own", async ({ page }) => {
  await page.goto("/docs");
  const conventions = page.locator("#conventions");
  await expect(conventions.getByRole("heading", { name: "2. Errors" })).toBeVisible();
  for (const heading of ["5. Rate limits, idempotency, pagination", "7. Webhooks", "8. Sandbox", "9. Versioning", "4. OAuth 2.0 (authorization code)"]) {
    await expect(conventions.getByRole("heading", { name: heading })).toBeAttached();
  }
  // Markdown is rendered: backticks became code, tables are tables.
  await expect(conventions.locator("code", { hasText: "idempotency_key_reused" }).first()).toBeVisible();
  await expect(conventions.locator("table").first()).toBeVisible();
  const prose = await page.locator("#overview p, #conventions p, #conventions td, #quickstart p, #quickstart li").allInnerTexts();
  expect(prose.filter((text) => text.includes("`"))).toEqual([]);
  // Signature verification, the OAuth libraries and what to set for local http.
  await expect(conventions).toContainText("Service-Signature");
  await expect(conventions.locator("pre").filter({ hasText: "timingSafeEqual" })).toBeAttached();
  const quickstart = page.locator("#quickstart");
  await expect(quickstart.locator("pre").filter({ hasText: "openid-client" })).toBeAttached();
  await expect(quickstart.locator("pre").filter({ hasText: "oauth4webapi" })).toBeAttached();
  await expect(quickstart).toContainText("allowInsecureRequests");
  for (const endpoint of ["/oauth/authorize", "/oauth/token", "/oauth/revoke", "/.well-known/oauth-authorization-server"]) {
    await expect(page.locator("#oauth-endpoints")).toContainText(endpoint);
  }
  // One per entry of the document's webhooks: the specification's 12, the night audit's and ping.
  const served = (await (await page.request.get("/v1/openapi.json")).json()) as { webhooks: Record<string, unknown> };
  expect(Object.keys(served.webhooks)).toEqual(expect.arrayContaining(["reservation.created", "night_audit.completed", "ping"]));
  await expect(page.locator("#webhook-events li")).toHaveCount(Object.keys(served.webhooks).length);
  // Nothing sends a hosted API's user to files they do not have.
  const text = await page.locator("body").innerText();
  expect(text).not.toMatch(/in the repository|README|decisions\.md|webhooks\.md|server\/webhooks/);
});

test("each operation shows its headers, its scope and a request in curl and with the TypeScript client", async ({ page }) => {
  await page.goto("/docs");
  const create = page.locator("#createReservation");
  await expect(create).toContainText("Idempotency-Key");
  await expect(create).toContainText("Service-Environment");
  await expect(create).toContainText("reservations:write");
  await expect(create.locator("pre").filter({ hasText: /^curl -X POST "http:\/\/127\.0\.0\.1:\d+\/v1\/reservations"/ })).toBeAttached();
  await expect(create.locator("pre").filter({ hasText: "await innkeep.reservations.create({" })).toBeAttached();
  await expect(page.locator("#getGuest pre").filter({ hasText: 'innkeep.guests.retrieve("gst_' })).toBeAttached();
  await expect(page.locator("#createPayment")).toContainText("card_declined");
});

test("the search finds an operation and takes the reader to it", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/docs");
  const search = page.getByRole("searchbox", { name: "Search the API reference" }).first();
  await search.fill("check in");
  await page.getByRole("link", { name: /Check a reservation in/ }).first().click();
  await expect(page).toHaveURL(/#checkInReservation$/);
  await expect(page.locator("#checkInReservation")).toBeInViewport();
  await search.fill("zzzz nothing");
  await expect(page.getByText("Nothing matches")).toBeVisible();
});

for (const width of [1280, 390]) {
  test(`at ${width} px: no sideways scroll, no serious accessibility fault`, async ({ page }) => {
    // axe-core walks the whole reference (every operation, event and schema): minutes on a busy machine.
    test.setTimeout(300_000);
    await page.setViewportSize({ width, height: 844 });
    await page.goto("/docs");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
    await shot(page, "docs");
    await page.locator("#createReservation").scrollIntoViewIfNeeded();
    await shot(page, "docs-operation");
    await page.locator("#conventions table").first().scrollIntoViewIfNeeded();
    await shot(page, "docs-conventions");
    if (width === 390) {
      const search = page.getByRole("searchbox", { name: "Search the API reference" }).first();
      await page.evaluate(() => window.scrollTo(0, 0));
      await search.fill("refund");
      await expect(page.getByRole("link", { name: /Create a refund/ }).first()).toBeVisible();
      await shot(page, "docs-search");
      await search.fill("");
    }
    expect(await seriousAxeFindings(page)).toEqual([]);
  });
}

// Issue 25 (docs): each client library's guide is a page of /docs, reached from the conventions'
// client section, the contents and the search, standing alone (nothing about the repository),
// readable at 1280 and 390 px and without serious accessibility faults.
const clientPages = [
  { slug: "node", heading: "TypeScript / JavaScript client", code: "new Innkeep(" },
  { slug: "python", heading: "Python client", code: "Innkeep(" },
  { slug: "go", heading: "Go client", code: "innkeep.NewClient(" },
  { slug: "php", heading: "PHP client", code: "new InnkeepClient(" },
];

test("the conventions, the contents and the search lead to each client's guide", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/docs");
  const section = page.locator("#conventions table").filter({ hasText: "@innkeep/node" });
  for (const { slug } of clientPages) {
    await expect(section.locator(`a[href="/docs/clients/${slug}"]`)).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Reference" }).locator(`a[href="/docs/clients/${slug}"]`)).toBeAttached();
  }
  const search = page.getByRole("searchbox", { name: "Search the API reference" }).first();
  await search.fill("python client");
  await search.press("Enter");
  await expect(page).toHaveURL(/\/docs\/clients\/python$/);
  await expect(page.getByRole("heading", { level: 1, name: "Python client" })).toBeVisible();
  await page.getByRole("navigation", { name: "Client libraries" }).getByRole("link", { name: "Go" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Go client" })).toBeVisible();
});

for (const width of [1280, 390]) {
  for (const { slug, heading, code } of clientPages) {
    test(`the ${slug} client's guide at ${width} px: stands alone, no sideways scroll, no serious accessibility fault`, async ({ page }) => {
      await page.setViewportSize({ width, height: 844 });
      await page.goto(`/docs/clients/${slug}`);
      await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
      for (const name of ["Install", "Configure", "Pagination", "Retries and idempotency", "Errors", "Webhooks"]) {
        await expect(page.getByRole("heading", { level: 2, name })).toBeAttached();
      }
      await expect(page.locator("main pre").filter({ hasText: code }).first()).toBeAttached();
      const text = await page.locator("body").innerText();
      expect(text).not.toMatch(/repository|README|clients\/(testdata|typescript|python|go|php)|examples\/|npm run/);
      const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
      expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
      await shot(page, `docs-client-${slug}`);
      expect(await seriousAxeFindings(page)).toEqual([]);
    });
  }
}

test("a language that has no client answers not found", async ({ page }) => {
  const answer = await page.goto("/docs/clients/cobol");
  expect(answer?.status()).toBe(404);
});
