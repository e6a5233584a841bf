import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";

// Chosen once in the runner and inherited by its workers through the environment, so every
// process agrees on the server's address and database folder.
process.env.E2E_PORT ??= execFileSync(process.execPath, [
  "-e",
  "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})",
])
  .toString()
  .trim();
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(tmpdir(), "innkeep-e2e-"));

const port = Number(process.env.E2E_PORT);
const baseURL = `http://127.0.0.1:${port}`;
export const adminPassword = "e2e-admin-password";

/** Browser tests against the production server (`npm start`) on a fresh embedded database. */
export default defineConfig({
  testDir: "e2e",
  timeout: 30_000,
  expect: { timeout: 10_000 },
  // Spec files run side by side against the one production server; each makes its own data.
  fullyParallel: false,
  workers: 2,
  forbidOnly: !!process.env.CI,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [["list"], ["html", { open: "never" }]] : "list",
  use: {
    baseURL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
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
  webServer: {
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
      ADMIN_PASSWORD: adminPassword,
      NEXTAUTH_SECRET: "e2e-only-secret-0123456789abcdefghijklmnop",
      NEXTAUTH_URL: baseURL,
      LOG_LEVEL: "warn",
    },
  },
});
