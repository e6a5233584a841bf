import { execFileSync } from "node:child_process";
import { expect, test } from "@playwright/test";
import { signIn } from "./helpers";

const housekeeper = { email: `housekeeper.${Date.now()}@e2e.example`, password: "housekeeping-pass-1" };

test.beforeAll(() => {
  // The CLI carries the command out through the running server (it holds the database).
  execFileSync("npx", ["tsx", "scripts/innkeep.ts", "users", "create", "--email", housekeeper.email, "--password", housekeeper.password, "--role", "housekeeping"], {
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR },
    stdio: "ignore",
  });
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
