// Global setup of the `pglite` test project: the migrations run once, on one embedded database,
// and its image (PGlite's dumpDataDir) is what every test file's fresh database starts from. A
// file then opens its database in about a second instead of migrating one for several.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { openDatabase } from "@/db/client";

declare module "vitest" {
  export interface ProvidedContext {
    /** The file holding the image of a freshly migrated embedded database. */
    pgliteImage: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const database = await openDatabase({ dataDir: "memory://" });
  const client = (database.db as unknown as { $client: { dumpDataDir(compression: "none"): Promise<Blob> } }).$client;
  const image = await client.dumpDataDir("none");
  await database.close();
  const dir = mkdtempSync(path.join(tmpdir(), "innkeep-test-pglite-"));
  const file = path.join(dir, "migrated.tar");
  writeFileSync(file, Buffer.from(await image.arrayBuffer()));
  project.provide("pgliteImage", file);
  return () => rmSync(dir, { recursive: true, force: true });
}
