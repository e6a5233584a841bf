import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "./test";

/** The WCAG 2.1 A and AA rules, which the dashboard's pages are held to (the docs take every rule). */
export const wcag21aa = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/**
 * axe-core on the page as it is now (within `include` when given; every rule unless `tags` are):
 * its serious and critical violations, each as one line naming the rule, the count, the help and
 * the first place. Run in the page itself (legacy mode) and asked for violations only: the default
 * runs each frame partially and carries every node of every rule, passes included, to a blank page
 * to finish there, which on the API reference (31,000 elements) took 65 s against 18 s this way
 * for the same findings. Our pages have no frames, so nothing is lost (docs/decisions.md).
 */
export async function seriousAxeFindings(page: Page, options: { include?: string; tags?: string[] } = {}): Promise<string[]> {
  let builder = new AxeBuilder({ page }).setLegacyMode(true).options({ resultTypes: ["violations"] });
  if (options.include) builder = builder.include(options.include);
  if (options.tags) builder = builder.withTags(options.tags);
  const results = await builder.analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} ×${v.nodes.length} (${v.help}) at ${v.nodes[0]?.target.join(" ")}`);
}

/**
 * axe-core's WCAG 2.1 A and AA rules on what is on screen once nothing is loading (the page's
 * `main` unless another selector is given): no serious and no critical violation.
 */
export async function expectNoSeriousAxe(page: Page, include = "main") {
  await expect(page.locator("[data-loading]")).toHaveCount(0, { timeout: 20_000 });
  expect(await seriousAxeFindings(page, { include, tags: wcag21aa })).toEqual([]);
}
