import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "./test";

/**
 * axe-core's WCAG 2.1 A and AA rules on what is on screen once nothing is loading (the page's
 * `main` unless another selector is given): no serious and no critical violation.
 */
export async function expectNoSeriousAxe(page: Page, include = "main") {
  await expect(page.locator("[data-loading]")).toHaveCount(0, { timeout: 20_000 });
  const results = await new AxeBuilder({ page }).include(include).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(serious.map((v) => `${v.id} ×${v.nodes.length} (${v.help}) at ${v.nodes[0]?.target.join(" ")}`)).toEqual([]);
}
