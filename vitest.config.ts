import { defineConfig } from "vitest/config";
import { testWorkers } from "./tests/support/workers";

// One fixed key for the test run, inherited by the production servers the tests start as children.
const env = { NODE_ENV: "test" as const, WEBHOOK_SECRET_KEYS: "test:dGVzdC1vbmx5LXdlYmhvb2sta2V5LTAxMjM0NTY3ODk=" };
const integration = { include: ["tests/integration/**/*.test.ts"], testTimeout: 60_000, hookTimeout: 120_000 };

/**
 * `npm test` runs the unit tests once and every integration test twice: on the embedded
 * database (PGlite) and on the PostgreSQL server of TEST_DATABASE_URL (default 127.0.0.1:5432).
 * Where nothing answers there, the postgres project's global setup starts a PostgreSQL of its own
 * (and a Redis, where redis-server is installed) and stops it afterwards.
 */
export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    env,
    // Vitest runs one file at a time per core less one: a single file on CI's two cores; three at
    // once use the machine (tests/support/workers.ts).
    maxWorkers: testWorkers(),
    projects: [
      { extends: true, test: { name: "unit", include: ["tests/unit/**/*.test.ts"] } },
      { extends: true, test: { name: "pglite", ...integration, env: { ...env, TEST_DB: "pglite" } } },
      {
        extends: true,
        // Each PostgreSQL file running at once has a server of its own (tests/support/services.ts):
        // the webhook fan-out waits for the oldest transaction on its whole server.
        test: { name: "postgres", ...integration, globalSetup: ["tests/support/services.ts"], env: { ...env, TEST_DB: "postgres" } },
      },
    ],
  },
});
