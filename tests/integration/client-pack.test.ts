import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "../support/harness";

// What an integrator gets from npm: `npm pack` of the workspace, installed into a fresh project
// outside the repository, imported from ESM and from CommonJS (and type-checked from both),
// each making one real call to the server. Slow (a build and an install): once, on PGlite only.

const run = promisify(execFile);
let h: Harness;
let dir: string;

describe.skipIf(process.env.TEST_DB === "postgres")("npm pack of @innkeep/node", () => {
  beforeAll(async () => {
    h = await startHarness();
    dir = mkdtempSync(path.join(os.tmpdir(), "innkeep-pack-"));
  });
  afterAll(async () => {
    await h?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("installs into a fresh project, imports from ESM and CommonJS, and makes a call", async () => {
    await run("npm", ["pack", "--workspace", "@innkeep/node", "--pack-destination", dir], { cwd: process.cwd() });
    const tarball = readdirSync(dir).find((f) => f.endsWith(".tgz"))!;
    expect(tarball).toMatch(/^innkeep-node-.*\.tgz$/);
    writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "integrator", private: true }));
    await run("npm", ["install", `./${tarball}`, "--no-audit", "--no-fund", "--offline"], { cwd: dir });

    const env = { ...process.env, INNKEEP_API_KEY: h.main.token, INNKEEP_URL: h.baseUrl };
    writeFileSync(
      path.join(dir, "esm.mjs"),
      `import Innkeep, { Innkeep as Named, NotFoundError } from "@innkeep/node";
const innkeep = new Innkeep({ apiKey: process.env.INNKEEP_API_KEY, baseUrl: process.env.INNKEEP_URL });
const page = await innkeep.properties.list();
const missing = await innkeep.guests.retrieve("gst_missing").catch((e) => e);
console.log(JSON.stringify({ same: Innkeep === Named, object: page.object, notFound: missing instanceof NotFoundError }));`,
    );
    writeFileSync(
      path.join(dir, "cjs.cjs"),
      `const { Innkeep, webhooks } = require("@innkeep/node");
const Default = require("@innkeep/node").default;
const header = webhooks.generateTestHeader({ payload: "{}", secret: "whsec_x" });
new Default({ apiKey: process.env.INNKEEP_API_KEY, baseUrl: process.env.INNKEEP_URL }).properties.list().then((page) =>
  console.log(JSON.stringify({ same: Innkeep === Default, object: page.object, verified: Innkeep.webhooks.constructEvent("{}", header, "whsec_x") !== undefined })));`,
    );
    const esm = JSON.parse((await run("node", ["esm.mjs"], { cwd: dir, env })).stdout);
    expect(esm).toEqual({ same: true, object: "list", notFound: true });
    const cjs = JSON.parse((await run("node", ["cjs.cjs"], { cwd: dir, env })).stdout);
    expect(cjs).toEqual({ same: true, object: "list", verified: true });

    // The declarations resolve for both module systems, as `moduleResolution: node16` reads them.
    writeFileSync(path.join(dir, "use.mts"), `import Innkeep from "@innkeep/node";\nconst r = await new Innkeep().reservations.retrieve("res_1");\nexport const status: string = r.status;\n`);
    writeFileSync(path.join(dir, "use.cts"), `import Innkeep = require("@innkeep/node");\nexport const list = new Innkeep.Innkeep().guests.list().toArray({ limit: 1 });\n`);
    const program = ts.createProgram([path.join(dir, "use.mts"), path.join(dir, "use.cts")], {
      module: ts.ModuleKind.Node16,
      moduleResolution: ts.ModuleResolutionKind.Node16,
      target: ts.ScriptTarget.ES2022,
      lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
      strict: true,
      noEmit: true,
      types: [],
    });
    expect(ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"))).toEqual([]);
  }, 180_000);
});
