import { test as base, type Page, type Response } from "@playwright/test";

export * from "@playwright/test";

/**
 * Waits until React has taken the page over (the root layout marks `<html data-hydrated>`): before
 * that a click lands on a button the server drew and does nothing (under load, "Invite user"
 * clicked straight after `goto` opened no form). A page the app's React does not draw (the OAuth
 * pages the API draws) has no marker and nothing to wait for.
 */
export async function waitForHydration(page: Page) {
  await page.waitForFunction(() => !document.querySelector('script[src*="/_next/"]') || document.documentElement.hasAttribute("data-hydrated"), undefined, { timeout: 30_000 });
}

/** A navigation that returns once its page can be used (a PDF or JSON answer at once). */
const thenHydrated =
  <A extends unknown[]>(page: Page, navigate: (...args: A) => Promise<Response | null>) =>
  async (...args: A) => {
    const response = await navigate(...args);
    if (response?.headers()["content-type"]?.includes("text/html")) await waitForHydration(page);
    return response;
  };

/** Playwright's `test`, with a `page` whose `goto` and `reload` return once the page can be used. */
export const test = base.extend({
  page: async ({ page }, provide) => {
    page.goto = thenHydrated(page, page.goto.bind(page));
    page.reload = thenHydrated(page, page.reload.bind(page));
    await provide(page);
  },
});
