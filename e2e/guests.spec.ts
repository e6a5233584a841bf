import { expect, test } from "./test";
import { createApiKey, signIn, snap, uniqueEmail, waitForLive } from "./helpers";

test.beforeEach(async ({ page }) => {
  await signIn(page);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Guests" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Guests" })).toBeVisible();
});

test("a new guest appears at the top of the list", async ({ page }) => {
  const email = uniqueEmail("ada");
  await page.getByRole("button", { name: "New guest" }).click();
  const form = page.getByRole("form", { name: "New guest" });
  await form.getByLabel("First name").fill("Ada");
  await form.getByLabel("Last name").fill("Lovelace");
  await form.getByLabel("E-mail").fill(email);
  await form.getByLabel("Phone (optional)").fill("+44 20 7946 0000");
  await form.getByRole("button", { name: "Create guest" }).click();

  const firstRow = page.locator("tbody tr").first();
  await expect(firstRow).toContainText("Ada Lovelace");
  await expect(firstRow).toContainText(email);

  await page.getByRole("searchbox", { name: "Find a guest" }).fill(email.toUpperCase());
  await expect(page.locator("tbody tr")).toHaveCount(1);
  await expect(page.getByRole("link", { name: "Ada Lovelace" })).toBeVisible();
});

test("the API's field errors appear under the field at fault", async ({ page }) => {
  const email = uniqueEmail("grace");
  await page.getByRole("button", { name: "New guest" }).click();
  const form = page.getByRole("form", { name: "New guest" });
  await form.getByLabel("First name").fill("Grace");
  await form.getByLabel("Last name").fill("Hopper");
  await form.getByLabel("E-mail").fill("not-an-email");
  await form.getByRole("button", { name: "Create guest" }).click();
  await expect(form.locator('[data-field-error="email"]')).toBeVisible();
  await expect(form.getByLabel("E-mail")).toHaveAttribute("aria-invalid", "true");

  await form.getByLabel("E-mail").fill(email);
  await form.getByRole("button", { name: "Create guest" }).click();
  await expect(page.getByRole("cell", { name: email })).toBeVisible();

  // The same e-mail again: the service refuses it, param "email".
  await page.getByRole("button", { name: "New guest" }).click();
  await form.getByLabel("First name").fill("Grace");
  await form.getByLabel("Last name").fill("Again");
  await form.getByLabel("E-mail").fill(email);
  await form.getByRole("button", { name: "Create guest" }).click();
  await expect(form.locator('[data-field-error="email"]')).toContainText("already exists");
});

test("preferences persist after a reload", async ({ page }) => {
  const email = uniqueEmail("alan");
  await page.getByRole("button", { name: "New guest" }).click();
  const form = page.getByRole("form", { name: "New guest" });
  await form.getByLabel("First name").fill("Alan");
  await form.getByLabel("Last name").fill("Turing");
  await form.getByLabel("E-mail").fill(email);
  await form.getByRole("button", { name: "Create guest" }).click();
  await page.getByRole("link", { name: "Alan Turing" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Alan Turing" })).toBeVisible();

  const prefs = page.getByRole("form", { name: "Preferences" });
  await prefs.getByLabel("Add an allergy").fill("peanuts");
  await prefs.getByRole("button", { name: "Add", exact: true }).click();
  await prefs.getByLabel("Add an allergy").fill("shellfish");
  await prefs.getByLabel("Add an allergy").press("Enter");
  await prefs.getByLabel("Bed").fill("king");
  await prefs.getByLabel("Floor").selectOption("high");
  await prefs.getByLabel("Quiet room").selectOption("yes");
  await prefs.getByLabel("Program").fill("Innkeep Rewards");
  await prefs.getByLabel("Tier").fill("Gold");
  await prefs.getByLabel("Points").fill("1200");
  await prefs.getByRole("button", { name: "Save preferences" }).click();
  await expect(prefs.getByRole("status")).toHaveText("Saved");

  await page.reload();
  const reloaded = page.getByRole("form", { name: "Preferences" });
  await expect(reloaded.getByRole("list", { name: "Allergies" })).toContainText("peanuts");
  await expect(reloaded.getByRole("list", { name: "Allergies" })).toContainText("shellfish");
  await expect(reloaded.getByLabel("Bed")).toHaveValue("king");
  await expect(reloaded.getByLabel("Floor")).toHaveValue("high");
  await expect(reloaded.getByLabel("Quiet room")).toHaveValue("yes");
  await expect(reloaded.getByLabel("Smoking")).toHaveValue("");
  await expect(reloaded.getByLabel("Program")).toHaveValue("Innkeep Rewards");
  await expect(reloaded.getByLabel("Points")).toHaveValue("1200");

  // Removing an allergy and saving replaces the record.
  await reloaded.getByRole("button", { name: "Remove peanuts" }).click();
  await reloaded.getByRole("button", { name: "Save preferences" }).click();
  await expect(reloaded.getByRole("status")).toHaveText("Saved");
  await page.reload();
  await expect(page.getByRole("list", { name: "Allergies" })).not.toContainText("peanuts");
  await expect(page.getByRole("list", { name: "Allergies" })).toContainText("shellfish");
});

test("a bad value is shown under its preference field", async ({ page }) => {
  await page.getByRole("button", { name: "New guest" }).click();
  const form = page.getByRole("form", { name: "New guest" });
  await form.getByLabel("First name").fill("Kurt");
  await form.getByLabel("Last name").fill("Gödel");
  await form.getByLabel("E-mail").fill(uniqueEmail("kurt"));
  await form.getByRole("button", { name: "Create guest" }).click();
  await page.getByRole("link", { name: "Kurt Gödel" }).first().click();
  const prefs = page.getByRole("form", { name: "Preferences" });
  await prefs.getByLabel("Points").fill("-5");
  await prefs.getByRole("button", { name: "Save preferences" }).click();
  await expect(prefs.locator('[data-field-error="loyalty.points"]')).toBeVisible();
});

test("a guest created through the API appears in the open list without a reload", async ({ page, request }) => {
  const key = createApiKey("reservations:write");
  const email = uniqueEmail("live");
  // The page's live stream is open before the change happens elsewhere.
  await waitForLive(page);
  const res = await request.post("/v1/guests", { headers: { authorization: `Bearer ${key}` }, data: { first_name: "Live", last_name: "Arrival", email } });
  expect(res.status()).toBe(201);
  await expect(page.locator("tbody tr").first()).toContainText(email, { timeout: 5_000 });
  await snap(page, "guests");
});
