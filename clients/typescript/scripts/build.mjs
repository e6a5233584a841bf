// Builds the package: one ESM and one CommonJS bundle (esbuild), and the declarations (tsc)
// for each, the CommonJS copy under a `"type": "commonjs"` folder so TypeScript reads it as such.
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const require = createRequire(import.meta.url);
const { build } = require("esbuild");
const dist = path.join(root, "dist");
rmSync(dist, { recursive: true, force: true });

const common = { entryPoints: [path.join(root, "src/index.ts")], bundle: true, platform: "neutral", target: "es2022", sourcemap: true, logLevel: "warning" };
await build({ ...common, format: "esm", outfile: path.join(dist, "esm/index.js") });
await build({ ...common, format: "cjs", outfile: path.join(dist, "cjs/index.js") });
writeFileSync(path.join(dist, "cjs/package.json"), `${JSON.stringify({ type: "commonjs" })}\n`);

execFileSync(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", path.join(root, "tsconfig.json")], { stdio: "inherit" });
mkdirSync(path.join(dist, "cjs"), { recursive: true });
cpSync(path.join(dist, "esm"), path.join(dist, "cjs"), { recursive: true, filter: (f) => !f.endsWith(".js") && !f.endsWith(".js.map") });
console.log("built dist/esm and dist/cjs");
