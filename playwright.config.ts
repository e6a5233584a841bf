import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { createThrowawayDatabase } from "./e2e/database.mjs";

// Chosen once in the runner and inherited by its workers through the environment, so every
// process agrees on the server's address and database folder.
process.env.E2E_PORT ??= execFileSync(process.execPath, [
  "-e",
  "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})",
])
  .toString()
  .trim();
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), "innkeep-e2e-"));
/** Stripe's API as the server meets it: the test relay in front of stripe-mock (e2e/support/stripe-relay.ts), on a port of its own. */
process.env.E2E_STRIPE_PORT ??= execFileSync(process.execPath, [
  "-e",
  "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})",
])
  .toString()
  .trim();

/**
 * Which database the production server runs on: `pglite` (the embedded one, one process) or
 * `postgres` (a throwaway database on the local server; the server then runs as a cluster of one
 * worker per core with the dashboard in the primary's thread, as production does).
 */
export const e2eDatabase = process.env.E2E_DB === "postgres" ? "postgres" : "pglite";
if (e2eDatabase === "postgres") process.env.E2E_DATABASE_URL ??= createThrowawayDatabase();

/**
 * Debian's Chromium: its headless shell where installed (what Playwright itself runs headless; the
 * suite took 17–18 minutes in it against 21–22 in the full browser here), else the full browser.
 * Both are the same Chromium release from the same source package; the compared screenshots are
 * the headless shell's (docs/decisions.md).
 */
const chromiumPath = process.env.E2E_CHROMIUM ?? ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"].find((file) => existsSync(file));

const port = Number(process.env.E2E_PORT);
const baseURL = `http://127.0.0.1:${port}`;
export const adminPassword = "e2e-admin-password";

/** Browser tests against the production server (`npm start`) on a fresh database: embedded, or PostgreSQL with E2E_DB=postgres. */
export default defineConfig({
  testDir: "e2e",
  // Without retries, a test must finish on a machine busy with other builds too.
  timeout: 60_000,
  expect: {
    timeout: 10_000,
    // Screenshots compared with the committed baselines (e2e/visual.spec.ts): a few stray pixels
    // of anti-aliasing pass, a moved or resized block does not.
    toHaveScreenshot: { maxDiffPixelRatio: 0.01, animations: "disabled", caret: "hide", scale: "css" },
  },
  // One baseline per file, width and platform, beside the spec (the same for both databases).
  snapshotPathTemplate: "{testDir}/{testFileName}-snapshots/{arg}-{platform}{ext}",
  // Spec files run side by side against the one production server; each makes its own data.
  fullyParallel: false,
  workers: 2,
  forbidOnly: !!process.env.CI,
  // A flaky test is a defect to fix (wait on a signal, never a sleep), not one to retry.
  retries: 0,
  // Each database's run keeps its own output and report, so two runs in a row lose nothing.
  outputDir: `test-results/playwright-${e2eDatabase}`,
  reporter: process.env.CI ? [["list"], ["html", { open: "never", outputFolder: `playwright-report/${e2eDatabase}` }]] : "list",
  globalTeardown: "./e2e/teardown.ts",
  use: {
    baseURL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: chromiumPath,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  webServer: [
    {
      // Stripe first: stripe-mock (started where none answers) behind the relay that plays the
      // states it cannot (tests/support/stripe-states.ts); the server below reaches it as Stripe.
      command: "npx tsx e2e/support/stripe-relay.ts",
      url: `http://127.0.0.1:${process.env.E2E_STRIPE_PORT}/__innkeep/requests`,
      // A first install of stripe-mock (go install) takes about a minute.
      timeout: 300_000,
      reuseExistingServer: false,
      stdout: "ignore",
      stderr: "pipe",
      env: { E2E_STRIPE_PORT: process.env.E2E_STRIPE_PORT },
    },
    {
      // Builds only when the sources are newer than the last build, then serves it.
      command: "node e2e/build-if-stale.mjs && npm start",
      url: `${baseURL}/healthz`,
      // A cold build on a busy 2-core machine can take minutes.
      timeout: 600_000,
      reuseExistingServer: false,
      stdout: "ignore",
      stderr: "pipe",
      env: {
        PORT: String(port),
        HOST: "127.0.0.1",
        DATA_DIR: process.env.E2E_DATA_DIR,
        ...(process.env.E2E_DATABASE_URL ? { DATABASE_URL: process.env.E2E_DATABASE_URL } : {}),
        ADMIN_PASSWORD: adminPassword,
        NEXTAUTH_SECRET: "e2e-only-secret-0123456789abcdefghijklmnop",
        WEBHOOK_SECRET_KEYS: "e2e:ZTJlLW9ubHktd2ViaG9vay1rZXktMDEyMzQ1Njc4OWE=",
        NEXTAUTH_URL: baseURL,
        LOG_LEVEL: "warn",
        // Developer console specs deliver to receivers on 127.0.0.1 and need retries and the breaker in seconds.
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: "1",
        WEBHOOK_RETRY_SCHEDULE: "2",
        WEBHOOK_BREAKER_MIN_ATTEMPTS: "3",
        WEBHOOK_BREAKER_WINDOW_SECONDS: "120",
      // The booking engine's bot check waits for a person's typing; a spec types in a moment.
      BOOKING_MIN_FILL_SECONDS: "0",
        STRIPE_API_URL: `http://127.0.0.1:${process.env.E2E_STRIPE_PORT}`,
      },
    },
  ],
});
