import { readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "../test";

// Stripe in the browser tests. Stripe.js cannot be loaded here (no internet), so its script is
// answered with the stand-in kept beside this file (what it plays and what that proves is written
// at its top), and the one call the stand-in makes to Stripe's API, the guest's answer to their
// bank, goes to the test relay in front of stripe-mock (tests/support/stripe-states.ts), which is
// also where the server's STRIPE_API_URL points (playwright.config.ts starts it). Any other request
// to Stripe's hosts fails the spec: the dashboard must make no call the stand-in does not know.

const standIn = readFileSync(path.join(import.meta.dirname, "stripe-js-stand-in.js"), "utf8");

/** The relay's address, as playwright.config.ts chose it for the server. */
export const stripeRelayUrl = () => `http://127.0.0.1:${process.env.E2E_STRIPE_PORT}`;

/** Routes Stripe.js to its stand-in and the guest's bank answers to the relay; returns the requests to Stripe that were not expected. */
export async function standInForStripeJs(page: Page): Promise<string[]> {
  const unexpected: string[] = [];
  // Routes registered later are asked first: this one answers only what the two below do not.
  await page.route("https://*.stripe.com/**", (route) => {
    unexpected.push(route.request().url());
    return route.fulfill({ status: 404, body: "" });
  });
  await page.route(/^https:\/\/js\.stripe\.com\/(v3|[a-z]+)\/stripe\.js(\?.*)?$/, (route) =>
    route.fulfill({ status: 200, contentType: "application/javascript", body: standIn }),
  );
  await page.route("https://api.stripe.com/__innkeep/authenticate", async (route) => {
    const answer = await fetch(`${stripeRelayUrl()}/__innkeep/authenticate`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: route.request().postData() ?? "",
    });
    return route.fulfill({
      status: answer.status,
      contentType: "application/json",
      headers: { "access-control-allow-origin": "*" },
      body: await answer.text(),
    });
  });
  return unexpected;
}
