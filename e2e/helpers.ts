import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { expect, test, waitForHydration, type Page } from "./test";
import { adminPassword, e2eDatabase } from "../playwright.config";

export const admin = { email: "admin@example.com", password: adminPassword };

/** Signs in through the sign-in form and waits for the dashboard. */
export async function signIn(page: Page, credentials = admin) {
  await page.goto("/signin");
  await page.getByLabel("E-mail").fill(credentials.email);
  await page.getByLabel("Password").fill(credentials.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  // A full page load after the sign-in (components/auth/sign-in-form.tsx): on a busy machine more than the default 10 s.
  await expect(page.getByRole("heading", { level: 1, name: /Welcome/ })).toBeVisible({ timeout: 30_000 });
  await waitForHydration(page);
}

/**
 * The page's notifications (the toasts a clerk sees after an action). What a toast says is often
 * said elsewhere on the page too (the trail, a screen reader's live region), so a test that means
 * the toast looks in here.
 */
export const toasts = (page: Page) => page.getByRole("region", { name: /^Notifications/ });

/** A unique e-mail per run, so tests never collide with each other's guests. */
export const uniqueEmail = (name: string) => `${name}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@e2e.example`;

/**
 * Runs the CLI against the server under test's database (on the embedded one the server holds
 * it, so the CLI carries the command out through the server) and returns its `--json` answer.
 * The production build's CLI (`node dist/innkeep.mjs`, built with the server under test): a
 * second a call, where `npx tsx` compiled it afresh in four or five.
 */
export function cli<T = Record<string, unknown>>(...args: string[]): T {
  const database = process.env.E2E_DATABASE_URL ? { DATABASE_URL: process.env.E2E_DATABASE_URL } : {};
  const out = execFileSync(process.execPath, ["dist/innkeep.mjs", ...args, "--json"], {
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR, ...database },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return JSON.parse(out.toString()) as T;
}

/** A staff user of the demo account with the given role, made through the CLI. */
export function createStaff(role: "owner" | "manager" | "front_desk" | "housekeeping", name = role) {
  const credentials = { email: uniqueEmail(name.replace(/_/g, "-")), password: `${role}-password-1` };
  cli("users", "create", "--email", credentials.email, "--password", credentials.password, "--role", role);
  return credentials;
}

/** An API key of the demo account (all scopes unless given), made through the CLI. */
export function createApiKey(scopes = "reservations:read reservations:write rooms:read rooms:write payments:read payments:write webhooks:manage reports:read") {
  return cli<{ id: string; key: string }>("api-keys", "create", "--scopes", scopes).key;
}

/**
 * Saves a full-page screenshot under `test-results/screenshots/<database>/` (kept with the test
 * output, one file per page and width), so every page can be looked at after a run. Taken once
 * nothing on the page is still loading.
 */
export async function snap(page: Page, name: string) {
  // A screenshot of grey placeholder bars says nothing about the page: wait for the data first.
  await expect(page.locator("[data-loading]")).toHaveCount(0);
  const dir = path.join("test-results", "screenshots", e2eDatabase);
  mkdirSync(dir, { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  const file = path.join(dir, `${name}-${width}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await test.info().attach(`${name}-${width}`, { path: file, contentType: "image/png" });
}

/** Asserts the page has no horizontal scrolling (the 390 px layouts). */
export async function expectNoHorizontalScroll(page: Page) {
  const { overflow, culprits } = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    // The innermost elements reaching past the right edge, to say what is too wide.
    const culprits = [...document.body.querySelectorAll("*")]
      .filter((el) => el.getBoundingClientRect().right > width + 0.5 && ![...el.children].some((c) => c.getBoundingClientRect().right > width + 0.5))
      .slice(0, 5)
      .map((el) => `<${el.tagName.toLowerCase()} class="${el.getAttribute("class") ?? ""}">${(el.textContent ?? "").slice(0, 60)}`);
    return { overflow: document.documentElement.scrollWidth - width, culprits };
  });
  expect(overflow, `horizontal overflow in px; too wide: ${culprits.join(" | ")}`).toBeLessThanOrEqual(0);
}

/**
 * Waits until every live stream of the page is open (the dashboard sets `<html data-live="ready">`),
 * so a change made elsewhere from now on reaches the page without a reload.
 */
export async function waitForLive(page: Page) {
  await expect(page.locator("html")).toHaveAttribute("data-live", "ready");
}
