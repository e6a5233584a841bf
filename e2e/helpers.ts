import { expect, type Page } from "@playwright/test";
import { adminPassword } from "../playwright.config";

export const admin = { email: "admin@example.com", password: adminPassword };

/** Signs in through the sign-in form and waits for the dashboard. */
export async function signIn(page: Page, credentials = admin) {
  await page.goto("/signin");
  await page.getByLabel("E-mail").fill(credentials.email);
  await page.getByLabel("Password").fill(credentials.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: /Welcome/ })).toBeVisible();
}

/** A unique e-mail per run, so tests never collide with each other's guests. */
export const uniqueEmail = (name: string) => `${name}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@e2e.example`;
