import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "../support/harness";

// What an integrator gets: a copy of clients/typescript on its own (no repository around it),
// `npm install` (its own devDependencies build it) and `npm pack` there, the tarball installed
// into an empty project, imported from ESM and from CommonJS (and type-checked from both), each
// making one real call to the server. Slow (two installs and a build): once, on PGlite only.

const run = promisify(execFile);
let h: Harness;
let dir: string;
/** The temporary folder of the whole test (dir moves into the integrator project inside it). */
let root: string;

describe.skipIf(process.env.TEST_DB === "postgres")("npm pack of @innkeep/node", () => {
  beforeAll(async () => {
    h = await startHarness();
    root = dir = mkdtempSync(path.join(os.tmpdir(), "innkeep-pack-"));
  });
  afterAll(async () => {
    await h?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it("packs from a copy of the folder, installs into an empty project, imports from ESM and CommonJS, and makes a call", async () => {
    const copy = path.join(dir, "innkeep-node");
    cpSync(path.resolve("clients/typescript"), copy, { recursive: true, filter: (f) => !/[/\\](node_modules|dist)$/.test(f) });
    expect(existsSync(path.join(copy, "node_modules"))).toBe(false);
    await run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline"], { cwd: copy });
    await run("npm", ["pack", "--pack-destination", dir], { cwd: copy });
    const tarball = readdirSync(dir).find((f) => f.endsWith(".tgz"))!;
    expect(tarball).toMatch(/^innkeep-node-.*\.tgz$/);
    const listing = (await run("tar", ["-tzf", tarball], { cwd: dir })).stdout.split("\n");
    expect(listing).toEqual(expect.arrayContaining(["package/LICENSE", "package/README.md", "package/package.json", "package/dist/cjs/index.js", "package/dist/cjs/index.d.ts", "package/dist/esm/index.js"]));
    const project = path.join(dir, "integrator");
    mkdirSync(project);
    writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "integrator", private: true }));
    await run("npm", ["install", `../${tarball}`, "--no-audit", "--no-fund", "--offline"], { cwd: project });
    dir = project;

    const env = { ...process.env, INNKEEP_API_KEY: h.main.token, INNKEEP_BASE_URL: h.baseUrl };
    writeFileSync(
      path.join(dir, "esm.mjs"),
      `import Innkeep, { Innkeep as Named, NotFoundError } from "@innkeep/node";
const innkeep = new Innkeep({ apiKey: process.env.INNKEEP_API_KEY, baseUrl: process.env.INNKEEP_BASE_URL });
const page = await innkeep.properties.list();
const missing = await innkeep.guests.retrieve("gst_missing").catch((e) => e);
console.log(JSON.stringify({ same: Innkeep === Named, object: page.object, notFound: missing instanceof NotFoundError }));`,
    );
    writeFileSync(
      path.join(dir, "cjs.cjs"),
      `const Innkeep = require("@innkeep/node");
const { Innkeep: Named, webhooks, NotFoundError } = require("@innkeep/node");
const Default = require("@innkeep/node").default;
const header = webhooks.generateTestHeader({ payload: "{}", secret: "whsec_x" });
const innkeep = new Innkeep({ apiKey: process.env.INNKEEP_API_KEY, baseUrl: process.env.INNKEEP_BASE_URL });
innkeep.properties.list().then(async (page) => {
  const missing = await innkeep.guests.retrieve("gst_missing").catch((e) => e);
  console.log(JSON.stringify({ constructor: typeof Innkeep, same: Innkeep === Named && Innkeep === Default, object: page.object, notFound: missing instanceof NotFoundError, verified: Innkeep.webhooks.constructEvent("{}", header, "whsec_x") !== undefined }));
});`,
    );
    const esm = JSON.parse((await run("node", ["esm.mjs"], { cwd: dir, env })).stdout);
    expect(esm).toEqual({ same: true, object: "list", notFound: true });
    const cjs = JSON.parse((await run("node", ["cjs.cjs"], { cwd: dir, env })).stdout);
    expect(cjs).toEqual({ constructor: "function", same: true, object: "list", notFound: true, verified: true });

    // The declarations resolve for both module systems, as `moduleResolution: node16` reads them.
    writeFileSync(path.join(dir, "use.mts"), `import Innkeep from "@innkeep/node";\nconst r = await new Innkeep().reservations.retrieve("res_1");\nexport const status: string = r.status;\n`);
    writeFileSync(
      path.join(dir, "use.cts"),
      [
        `import Innkeep = require("@innkeep/node");`,
        `const innkeep = new Innkeep({ apiKey: "hk_x" });`,
        `export const list = innkeep.guests.list().toArray({ limit: 1 });`,
        `export const same: typeof Innkeep = Innkeep.Innkeep === Innkeep.default ? Innkeep.Innkeep : Innkeep;`,
        `export function missing(e: unknown): boolean { return e instanceof Innkeep.NotFoundError && e.code === "resource_missing"; }`,
        `export type Reservation = Innkeep.Schemas["Reservation"];`,
        `export const check = (e: Innkeep.InnkeepError) => e.code === "parameter_missing";`,
      ].join("\n"),
    );
    writeFileSync(path.join(dir, "wrong.cts"), `import Innkeep = require("@innkeep/node");\nexport const check = (e: Innkeep.InnkeepError) => e.code === "resouce_missing";\n`);
    const program = ts.createProgram([path.join(dir, "use.mts"), path.join(dir, "use.cts"), path.join(dir, "wrong.cts")], {
      module: ts.ModuleKind.Node16,
      moduleResolution: ts.ModuleResolutionKind.Node16,
      target: ts.ScriptTarget.ES2022,
      lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
      strict: true,
      noEmit: true,
      types: [],
    });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => `${path.basename(d.file?.fileName ?? "")}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
    // The one error is the misspelt code: the declarations are exact, not `any`.
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatch(/^wrong\.cts: .*resouce_missing/);
  }, 180_000);
});
