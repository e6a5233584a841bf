import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

// Issue #36, point 2: drizzle-kit's snapshot of the schema is up to date with the migrations, so
// `npm run db:generate` on an unchanged schema writes nothing (it would otherwise emit DDL that a
// hand-written migration already applied). A schema change comes with its migration and snapshot.

const cli = path.resolve("node_modules/drizzle-kit/bin.cjs");
// Inside the repository: drizzle-kit reads `--out` relative to the working directory.
const dir = mkdtempSync(path.resolve(".scratch-drizzle-"));
const migrations = path.join(dir, "migrations");

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("drizzle-kit generate", { timeout: 90_000 }, () => {
  it("on the schema as committed: no schema changes, no migration written", () => {
    cpSync("db/migrations", migrations, { recursive: true });
    const before = readdirSync(migrations).sort();
    const run = spawnSync(
      process.execPath,
      [cli, "generate", "--dialect", "postgresql", "--schema", "./db/schema/index.ts", "--out", path.relative(process.cwd(), migrations)],
      { encoding: "utf8", timeout: 60_000 },
    );
    const output = `${run.stdout}${run.stderr}`;
    expect(run.status, output).toBe(0);
    expect(output).toContain("No schema changes");
    expect(readdirSync(migrations).sort()).toEqual(before);
  });
});
