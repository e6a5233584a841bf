import { expect, test } from "./test";
import { signIn } from "./helpers";

test("the sandbox switch shows the sandbox hotel under a visible banner", async ({ page }) => {
  await signIn(page);
  await page.getByRole("radio", { name: "Sandbox" }).click();
  await expect(page.getByTestId("sandbox-banner")).toBeVisible();
  await expect(page.getByTestId("sandbox-banner")).toContainText("SANDBOX");
  await expect(page.getByTestId("property-name")).toHaveText("Sandbox Harbor Hotel");
  await expect(page.getByRole("radio", { name: "Sandbox" })).toHaveAttribute("aria-checked", "true");

  // The choice survives navigation and reload.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Guests" }).click();
  await page.reload();
  await expect(page.getByTestId("sandbox-banner")).toBeVisible();

  await page.getByRole("radio", { name: "Live" }).click();
  await expect(page.getByTestId("sandbox-banner")).toHaveCount(0);
  await expect(page.getByTestId("property-name")).toHaveText("Innkeep Demo Hotel");
});

test("guests created in the sandbox stay out of live", async ({ page }) => {
  await signIn(page);
  await page.getByRole("radio", { name: "Sandbox" }).click();
  await expect(page.getByTestId("sandbox-banner")).toBeVisible();
  await page.goto("/guests");
  const email = `sandbox.only.${Date.now()}@e2e.example`;
  await page.getByRole("button", { name: "New guest" }).click();
  const form = page.getByRole("form", { name: "New guest" });
  await form.getByLabel("First name").fill("Sandy");
  await form.getByLabel("Last name").fill("Box");
  await form.getByLabel("E-mail").fill(email);
  await form.getByRole("button", { name: "Create guest" }).click();
  await expect(page.getByRole("cell", { name: email })).toBeVisible();

  await page.getByRole("radio", { name: "Live" }).click();
  await expect(page.getByTestId("sandbox-banner")).toHaveCount(0);
  await page.getByRole("searchbox", { name: "Find a guest" }).fill(email);
  await expect(page.getByText(`Nobody matches “${email}”`)).toBeVisible();
});

test("the sandbox's seeded guests page with cursors both ways", async ({ page }) => {
  await signIn(page);
  await page.getByRole("radio", { name: "Sandbox" }).click();
  await expect(page.getByTestId("sandbox-banner")).toBeVisible();
  await page.goto("/guests");
  const rows = page.locator("tbody tr");
  await expect(rows).toHaveCount(20);
  const firstOnPageOne = (await rows.first().textContent()) ?? "";
  await expect(page.getByRole("button", { name: "← Newer" })).toBeDisabled();

  await page.getByRole("button", { name: "Older →" }).click();
  await expect(rows.first()).not.toHaveText(firstOnPageOne);
  await expect(page.getByRole("button", { name: "← Newer" })).toBeEnabled();

  await page.getByRole("button", { name: "← Newer" }).click();
  await expect(rows.first()).toHaveText(firstOnPageOne);
  await expect(page.getByRole("button", { name: "← Newer" })).toBeDisabled();
});
