import { defineConfig } from "vitest/config";

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
    env: { NODE_ENV: "test" },
    projects: [
      { extends: true, test: { name: "unit", include: ["tests/unit/**/*.test.ts"] } },
      { extends: true, test: { name: "pglite", ...integration, env: { TEST_DB: "pglite", NODE_ENV: "test" } } },
      {
        extends: true,
        test: { name: "postgres", ...integration, globalSetup: ["tests/support/services.ts"], env: { TEST_DB: "postgres", NODE_ENV: "test" } },
      },
    ],
  },
});
