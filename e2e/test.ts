import { test as base, type Page } from "@playwright/test";

export * from "@playwright/test";

/**
 * Until React has taken a page over (the root layout marks `<html data-hydrated>`), a click lands
 * on a button the server drew and does nothing: under load, "Invite user" clicked straight after
 * `goto` opened no form and the test timed out. Pages the app's React draws are waited for;
 * anything else (a PDF, JSON, the OAuth pages the API draws) has no marker to wait for.
 */
async function hydrated(page: Page) {
  await page.waitForFunction(() => !document.querySelector('script[src*="/_next/"]') || document.documentElement.hasAttribute("data-hydrated"), undefined, { timeout: 30_000 });
}

/** Playwright's `test`, with a `page` whose `goto` and `reload` return once the page can be used. */
export const test = base.extend({
  page: async ({ page }, provide) => {
    const goto = page.goto.bind(page);
    const reload = page.reload.bind(page);
    page.goto = async (...args) => {
      const response = await goto(...args);
      if (response?.headers()["content-type"]?.includes("text/html")) await hydrated(page);
      return response;
    };
    page.reload = async (...args) => {
      const response = await reload(...args);
      if (response?.headers()["content-type"]?.includes("text/html")) await hydrated(page);
      return response;
    };
    await provide(page);
  },
});
