import { expect, test, type Page, type Response } from "./test";
import { readdirSync } from "node:fs";
import path from "node:path";
import { addDays, bookDemoStay, businessDayOf, v1 } from "./api";
import { createApiKey, signIn, uniqueEmail } from "./helpers";

// Issue 26, point 6: every page (the dashboard's, /docs, sign-in and the OAuth consent page)
// refuses to be framed and carries a Content-Security-Policy whose scripts need the page's nonce,
// and the dashboard still works under it: no policy violation on any page, its data loads.

test.describe.configure({ timeout: 240_000 });

/** Collects what the browser refused under the policy: the violation events and the console's "Refused to …". */
async function watchViolations(page: Page) {
  const refused: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) refused.push(message.text());
  });
  page.on("pageerror", (error) => refused.push(`page error: ${error.message}`));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => console.error(`Refused to load ${event.blockedURI} on ${location.pathname} from ${event.sourceFile}:${event.lineNumber} (Content Security Policy ${event.violatedDirective})`));
  });
  return refused;
}

/** The headers every page must carry, written as the issue states them. */
function expectPageHeaders(response: Response | null, url: string) {
  expect(response, url).not.toBeNull();
  const headers = response!.headers();
  expect(headers["x-frame-options"], url).toBe("DENY");
  expect(headers["x-content-type-options"], url).toBe("nosniff");
  expect(headers["referrer-policy"], url).toBe("same-origin");
  expect(headers["strict-transport-security"], `${url}: no HSTS over plain http`).toBeUndefined();
  const policy = headers["content-security-policy"] ?? "";
  const directives = new Map(policy.split(";").map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));
  expect(directives.get("frame-ancestors"), `${url}: ${policy}`).toEqual(["'none'"]);
  const scripts = directives.get("script-src") ?? [];
  const nonce = scripts.find((s) => s.startsWith("'nonce-"));
  expect(nonce, `${url}: ${policy}`).toMatch(/^'nonce-[A-Za-z0-9+/=]{16,}'$/);
  expect(scripts).not.toContain("'unsafe-inline'");
  expect(scripts).not.toContain("'unsafe-eval'");
  expect(directives.get("object-src")).toEqual(["'none'"]);
  return nonce!;
}

/**
 * Every page of the app, read from the files that define them (every `page.tsx` under `app/`, route groups
 * dropped), so that a page added later is checked too: the spec fails until it has a URL below.
 */
function appPages(dir = "app", route = ""): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isFile()) return entry.name === "page.tsx" ? [route || "/"] : [];
    if (!entry.isDirectory()) return [];
    const segment = /^\(.*\)$/.test(entry.name) ? "" : `/${entry.name}`;
    return appPages(path.join(dir, entry.name), route + segment);
  });
}

const signedOut = new Set(["/signin", "/oauth/authorize", "/book/[slug]", "/book/[slug]/details", "/book/[slug]/confirmed"]);

test("every page carries the security headers, a fresh nonce each time, and runs under its policy", async ({ page, request }) => {
  const refused = await watchViolations(page);
  const api = v1(request, createApiKey());
  const endpoint = await api.post("/webhook_endpoints", { url: "http://127.0.0.1:9/headers", enabled_events: ["guest.created"] });
  const guest = await api.post("/guests", { first_name: "Header", last_name: "Check", email: uniqueEmail("headers") });
  const [event] = (await api.get("/events?limit=1")).data;
  const reservation = await bookDemoStay(api, { first_name: "Header", last_name: "Stay", email: uniqueEmail("headers-stay") });
  const property = (await api.get("/properties")).data[0];
  const roomType = (await api.get(`/room_types?property_id=${property.id}&limit=100`)).data.find((t: { code: string }) => t.code === "DBL");
  const plan = (await api.get(`/rate_plans?property_id=${property.id}&limit=100`)).data.find((p: { code: string }) => p.code === "BAR");
  const checkIn = addDays(businessDayOf(property), 30 + Math.floor(Math.random() * 20));
  const room = { room_type_id: roomType.id, rate_plan_id: plan.id, adults: 1 };
  const group = await api.post("/groups", {
    property_id: property.id, guest: { first_name: "Header", last_name: "Group", email: uniqueEmail("headers-group") },
    check_in: checkIn, check_out: addDays(checkIn, 1), rooms: [room, room],
  });
  // The guest's event is fanned out to the endpoint within moments: its delivery has a page too.
  let delivery: { id: string } | undefined;
  await expect.poll(async () => (delivery = (await api.get(`/webhook_endpoints/${endpoint.id}/deliveries?limit=1`)).data[0])?.id, { timeout: 20_000 }).toBeTruthy();

  const urlOf: Record<string, string> = {
    "/reservations/[id]": `/reservations/${reservation.id}`,
    "/reservations/[id]/registration-card": `/reservations/${reservation.id}/registration-card`,
    "/guests/[id]": `/guests/${guest.id}`,
    "/groups/[id]": `/groups/${group.id}`,
    "/developers/webhooks/[id]": `/developers/webhooks/${endpoint.id}`,
    "/developers/events/[id]": `/developers/events/${event.id}`,
    "/developers/deliveries/[id]": `/developers/deliveries/${delivery!.id}`,
    "/docs/clients/[language]": "/docs/clients/python",
    // The guests' booking engine, signed out: under a slug no hotel has, its not-found page (the
    // engine's own spec walks its pages under a real one; no engine is switched on here, so as not
    // to move another spec's).
    "/book/[slug]": "/book/no-such-hotel-headers",
    "/book/[slug]/details": "/book/no-such-hotel-headers/details",
    "/book/[slug]/confirmed": "/book/no-such-hotel-headers/confirmed",
    "/book/[slug]/manage": "/book/no-such-hotel-headers/manage",
    "/guests/[id]/data": `/guests/${guest.id}/data`,
  };
  const routes = appPages();
  const unmapped = routes.filter((route) => route.includes("[") && !urlOf[route]);
  expect(unmapped, "every page with a parameter has a URL in this spec").toEqual([]);

  // Signed out: sign-in, docs, the consent page (an error page without its parameters), and a dashboard page's redirect.
  for (const url of ["/signin", "/docs", "/oauth/authorize", "/settings", urlOf["/book/[slug]"], urlOf["/book/[slug]/details"], urlOf["/book/[slug]/confirmed"]]) {
    expectPageHeaders(await page.goto(url), url);
  }

  await signIn(page);
  const pages = routes.filter((route) => !signedOut.has(route)).map((route) => urlOf[route] ?? route);
  expect(pages.length, "the dashboard's pages were found").toBeGreaterThan(30);
  const nonces = new Set<string>();
  for (const url of pages) {
    const response = await page.goto(url);
    nonces.add(expectPageHeaders(response, url));
    // The page's own scripts ran: its data came in through tRPC and the placeholders left.
    await expect(page.locator("main").first(), url).toBeVisible();
    await expect(page.locator("[data-loading]"), url).toHaveCount(0, { timeout: 20_000 });
  }
  expect(nonces.size, "a fresh nonce on every page").toBe(pages.length);
  expect(refused, "nothing refused by the policy").toEqual([]);
});

test("the dashboard works under the policy: navigation, a dialog and a form", async ({ page }) => {
  const refused = await watchViolations(page);
  await signIn(page);
  await page.getByRole("link", { name: "Guests" }).first().click();
  await expect(page).toHaveURL(/\/guests/);
  await expect(page.locator("[data-loading]")).toHaveCount(0, { timeout: 20_000 });
  await page.goto("/reservations/new");
  await expect(page.locator("main form, main [role=form], main button").first()).toBeVisible();
  expect(refused).toEqual([]);
});

test("HSTS only when the page was reached over https (through a proxy that says so)", async ({ request }) => {
  const plain = await request.get("/signin");
  expect(plain.headers()["strict-transport-security"]).toBeUndefined();
  const https = await request.get("/signin", { headers: { "x-forwarded-proto": "https" } });
  expect(https.headers()["strict-transport-security"]).toBe("max-age=63072000; includeSubDomains");
  expect(https.headers()["content-security-policy"]).toContain("upgrade-insecure-requests");
});

test("a page cannot be framed by another site", async ({ page }) => {
  const origin = new URL(test.info().project.use.baseURL!).origin;
  // A page on another origin (localhost is not 127.0.0.1) that frames the sign-in page.
  const other = origin.replace("127.0.0.1", "localhost");
  await page.route(`${other}/evil`, (route) => route.fulfill({ contentType: "text/html", body: `<iframe id="f" src="${origin}/signin"></iframe>` }));
  await page.goto(`${other}/evil`);
  // Chromium replaces a frame it refuses with its own error page: the sign-in form never shows in it.
  await expect.poll(() => page.frames().map((f) => f.url()), { timeout: 20_000 }).toContainEqual(expect.stringMatching(/^chrome-error:/));
  await expect(page.frameLocator("#f").getByLabel("Password")).toHaveCount(0);
});
