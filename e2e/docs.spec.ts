import { expect, test } from "@playwright/test";

test("the API reference lists operations from the OpenAPI document", async ({ page, request }) => {
  const doc = await (await request.get("/v1/openapi.json")).json();
  await page.goto("/docs");
  await expect(page.getByRole("heading", { level: 1, name: doc.info.title })).toBeVisible();
  for (const path of ["/guests", "/guests/{id}/preferences", "/properties"]) {
    await expect(page.getByText(`/v1${path}`, { exact: true }).first()).toBeVisible();
  }
  await expect(page.locator("#errors")).toContainText("idempotency_key_reused");
  await expect(page.locator("#schema-GuestPreferences")).toBeVisible();
  await expect(page.getByRole("link", { name: "/v1/openapi.json" })).toHaveAttribute("href", "/v1/openapi.json");
});
