import { defineConfig } from "vitest/config";

// One fixed key for the test run, inherited by the production servers the tests start as children.
const env = { NODE_ENV: "test" as const, WEBHOOK_SECRET_KEYS: "test:dGVzdC1vbmx5LXdlYmhvb2sta2V5LTAxMjM0NTY3ODk=" };
// Integration files share their worker's modules (isolate: false): each file still opens its own
// database and server, but the app, the served document's validator and their imports load once a
// worker instead of once a file, which was most of a PostgreSQL file's time (docs/decisions.md).
const integration = { include: ["tests/integration/**/*.test.ts"], testTimeout: 60_000, hookTimeout: 120_000, isolate: false };

/**
 * `npm test` runs the unit tests once and every integration test twice: on the embedded
 * database (PGlite) and on the PostgreSQL server of TEST_DATABASE_URL (default 127.0.0.1:5432).
 * Where nothing answers there, the postgres project's global setup starts a PostgreSQL of its own
 * (and a Redis, where redis-server is installed) and stops it afterwards. Both integration
 * projects meet Stripe's API as stripe-mock (STRIPE_MOCK_URL, else started by tests/support/stripe.ts).
 */
export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    env,
    // Vitest runs one file at a time per core less one: a single file on CI's two cores. Most of
    // an integration file's time is spent waiting (on PostgreSQL, a child server, a webhook's
    // retry timer), so three files at once use the machine; VITEST_MAX_WORKERS sets another count.
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS ?? 3),
    projects: [
      { extends: true, test: { name: "unit", include: ["tests/unit/**/*.test.ts"] } },
      { extends: true, test: { name: "pglite", ...integration, globalSetup: ["tests/support/pglite-image.ts", "tests/support/stripe.ts"], env: { ...env, TEST_DB: "pglite" } } },
      // Beside the others: each worker makes its PostgreSQL files' databases on a server of its own
      // (tests/support/services.ts), so one file's open transaction never holds back another's webhooks.
      { extends: true, test: { name: "postgres", ...integration, globalSetup: ["tests/support/services.ts", "tests/support/stripe.ts"], env: { ...env, TEST_DB: "postgres" } } },
    ],
  },
});
