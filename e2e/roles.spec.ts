import { expect, test } from "./test";
import { createStaff, signIn } from "./helpers";

let housekeeper: { email: string; password: string };

test.beforeAll(() => {
  housekeeper = createStaff("housekeeping");
});

test("housekeeping staff do not see guests, and the server refuses them too", async ({ page }) => {
  await signIn(page, housekeeper);
  await expect(page.getByTestId("user-role")).toHaveText("Housekeeping");
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Home" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Guests" })).toHaveCount(0);

  await page.goto("/guests");
  await expect(page.getByText("This page is not available for your role.")).toBeVisible();
  const response = await page.request.get("/api/trpc/guests.list?input=%7B%7D");
  expect(response.status()).toBe(403);
});
