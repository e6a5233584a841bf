/**
 * How many test files run at once (VITEST_MAX_WORKERS, default 3): most of an integration file's
 * time is spent waiting (on PostgreSQL, a child server, a webhook's retry timer), so three use
 * two cores. The PostgreSQL project gets as many servers (tests/support/services.ts).
 */
export const testWorkers = () => Number(process.env.VITEST_MAX_WORKERS ?? 3);
