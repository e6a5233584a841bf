import { expect, test, type Page } from "./test";
import { bookDemoStay, v1 } from "./api";
import { seriousAxeFindings, wcag21aa } from "./axe";
import { cli, createApiKey, createStaff, signIn, uniqueEmail } from "./helpers";

// Issue 23, point 6: axe-core on every page of the dashboard, as the role that works there, at
// 1280 and 390 px: no critical and no serious violation. /docs has its own run in docs.spec.ts
// (it walks the whole reference, minutes on its own).

test.describe.configure({ timeout: 300_000 });

/** axe's WCAG 2.1 A and AA rules on the whole page once nothing is loading; the serious and critical findings, each saying where. */
async function audit(page: Page, url: string, width: number): Promise<string[]> {
  await expect(page.locator("[data-loading]")).toHaveCount(0, { timeout: 20_000 });
  return (await seriousAxeFindings(page, { tags: wcag21aa })).map((finding) => `${url} at ${width} px: ${finding}`);
}

/** Visits each page at each width (both unless given) and asserts axe found nothing serious on any of them. */
async function auditPages(page: Page, urls: string[], ready: (url: string) => Promise<void> = async () => {}, widths = [1280, 390]) {
  const findings: string[] = [];
  let visited = 0;
  for (const width of widths) {
    await page.setViewportSize({ width, height: 844 });
    for (const url of urls) {
      await page.goto(url);
      await ready(url);
      findings.push(...(await audit(page, url, width)));
      visited++;
    }
  }
  expect(visited).toBe(urls.length * widths.length);
  expect(findings).toEqual([]);
}

const inMain = async (page: Page) => {
  await expect(page.locator("main h1").first()).toBeVisible();
};

for (const width of [1280, 390]) {
  test(`the front desk's pages as the owner at ${width} px: home, reservations, a stay, guests, calendar, housekeeping, rates, reports`, async ({
    page,
    request,
  }) => {
    const stay = await bookDemoStay(v1(request, createApiKey()), { first_name: "Ada", last_name: "Access", email: uniqueEmail("axe") });
    await signIn(page);
    await auditPages(
      page,
      [
        "/",
        "/reservations",
        "/reservations/new",
        `/reservations/${stay.id}`,
        "/guests",
        `/guests/${stay.guest.id}`,
        "/calendar",
        "/housekeeping",
        "/rates",
        "/reports",
      ],
      () => inMain(page),
      [width],
    );
  });
}

test("the settings pages as the owner", async ({ page }) => {
  await signIn(page);
  await auditPages(page, ["/settings", "/settings/property", "/settings/room-types", "/settings/rooms", "/settings/rate-plans"], () => inMain(page));
});

for (const width of [1280, 390]) {
  test(`the developer console as the owner at ${width} px`, async ({ page, request }) => {
    const api = v1(request, createApiKey());
    // An endpoint (nobody listens on port 9: its deliveries fail and wait) with an event and a delivery.
    const endpoint = await api.post("/webhook_endpoints", { url: "http://127.0.0.1:9/axe", enabled_events: ["guest.created"] });
    await api.post("/guests", { first_name: "Hook", last_name: "Axe", email: uniqueEmail("hook") });
    const event = (await api.get("/events?type=guest.created&limit=1")).data[0];
    await signIn(page);
    await page.goto(`/developers/webhooks/${endpoint.id}`);
    const deliveryLink = page.getByTestId("delivery-row").first().locator('a[href*="/developers/deliveries/"]').first();
    await expect(deliveryLink).toBeVisible({ timeout: 20_000 });
    const delivery = (await deliveryLink.getAttribute("href"))!;
    await auditPages(
      page,
      [
        "/developers",
        "/developers/api-keys",
        "/developers/webhooks",
        `/developers/webhooks/${endpoint.id}`,
        "/developers/deliveries",
        delivery,
        "/developers/events",
        `/developers/events/${event.id}`,
        "/developers/apps",
        "/developers/installs",
        "/developers/outbox",
      ],
      () => inMain(page),
      [width],
    );
  });
}

test("the front desk's and the housekeeper's pages", async ({ page, browser }) => {
  await signIn(page, createStaff("front_desk"));
  await auditPages(page, ["/", "/reservations", "/guests", "/calendar"], () => inMain(page));

  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const hk = await context.newPage();
  await signIn(hk, createStaff("housekeeping"));
  await auditPages(hk, ["/", "/housekeeping"], () => inMain(hk));
  await context.close();
});

test("sign-in and the OAuth consent page", async ({ page }) => {
  await auditPages(page, ["/signin"], async () => {
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  });
  const redirectUri = "http://127.0.0.1:9/callback";
  const app = cli<{ client_id: string }>(
    "oauth-clients",
    "create",
    "--name",
    `Axe App ${Date.now().toString(36)}`,
    "--redirect-uri",
    redirectUri,
    "--scopes",
    "reservations:read rooms:read",
  );
  const consent = `/oauth/authorize?${new URLSearchParams({
    response_type: "code",
    client_id: app.client_id,
    redirect_uri: redirectUri,
    scope: "reservations:read rooms:read",
    state: "axe-state",
    code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    code_challenge_method: "S256",
  })}`;
  await signIn(page);
  await auditPages(page, [consent], async () => {
    await expect(page.getByRole("heading", { name: /Connect .*Axe App/ })).toBeVisible();
  });
});
