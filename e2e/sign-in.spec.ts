import { expect, test } from "./test";
import { admin, signIn } from "./helpers";

test("a signed-out visitor is sent to the sign-in page", async ({ page }) => {
  await page.goto("/guests");
  await expect(page).toHaveURL(/\/signin/);
  await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
});

test("the owner signs in and sees the dashboard", async ({ page }) => {
  await signIn(page);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId("property-name")).toHaveText("Innkeep Demo Hotel");
  await expect(page.getByTestId("user-role")).toHaveText("Owner");
  await expect(page.getByRole("radio", { name: "Live" })).toHaveAttribute("aria-checked", "true");
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Guests" })).toBeVisible();
  await expect(page.getByTestId("sandbox-banner")).toHaveCount(0);
});

test("a wrong password shows an error and no session", async ({ page }) => {
  await page.goto("/signin");
  await page.getByLabel("E-mail").fill(admin.email);
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Wrong" })).toHaveText("Wrong e-mail or password.");
  await expect(page).toHaveURL(/\/signin/);
  await page.goto("/");
  await expect(page).toHaveURL(/\/signin/);
});

test("signing out ends the session", async ({ page }) => {
  await signIn(page);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/signin/);
  await page.goto("/");
  await expect(page).toHaveURL(/\/signin/);
});

test("tRPC refuses calls without a staff session", async ({ request }) => {
  const response = await request.get("/api/trpc/guests.list?input=%7B%7D");
  expect(response.status()).toBe(401);
});
