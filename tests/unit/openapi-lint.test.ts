import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { Db } from "@/db/client";
import { createRestApi } from "@/server/api/app";
import { RateLimiter } from "@/server/http/rate-limit";

// Issue #14, point 3: the served document passes `redocly lint` with every recommended rule as an
// error (redocly.yaml), as `npm run lint:openapi` runs it in CI.

const cli = path.resolve("node_modules/@redocly/cli/bin/cli.js");
const dir = mkdtempSync(path.join(tmpdir(), "innkeep-openapi-"));

async function servedDocument(): Promise<Record<string, unknown>> {
  const api = createRestApi({ db: undefined as unknown as Db, limiter: new RateLimiter(), trustProxy: false });
  return (await api.request("/openapi.json")).json();
}

/** `file`: where to write it; the served document goes where `npm run lint:openapi` writes it, which .redocly.lint-ignore.yaml names. */
function lint(document: unknown, name: string, file = path.join(dir, name)) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(document));
  const run = spawnSync(process.execPath, [cli, "lint", "--config", "redocly.yaml", "--format", "stylish", file], { encoding: "utf8", timeout: 60_000 });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

describe("redocly lint", { timeout: 90_000 }, () => {
  it("the served document: no error, no warning", async () => {
    const result = lint(await servedDocument(), "openapi.json", path.resolve("test-results/openapi.json"));
    expect(result.status, result.output).toBe(0);
    expect(result.output).toContain("Your API description is valid");
    expect(result.output).not.toMatch(/You have \d+ (warning|error)/);
  });

  it("fails on what the recommended rules only warn about (no licence, an operation without a 4XX)", async () => {
    const document = await servedDocument();
    const info = { ...(document.info as Record<string, unknown>) };
    delete info.license;
    const result = lint({ ...document, info }, "no-license.json");
    expect(result.status).not.toBe(0);
    expect(result.output).toMatch(/info-license/);
  });
});
