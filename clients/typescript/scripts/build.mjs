// Builds the package: one ESM and one CommonJS bundle (esbuild), and the declarations (tsc)
// for each, the CommonJS copy under a `"type": "commonjs"` folder so TypeScript reads it as such.
// `require("@innkeep/node")` answers the client class itself, every other export hung on it
// (`.Innkeep`, `.default`, the errors, `webhooks`…), and its declarations say so with
// `export =`, so `new (require("@innkeep/node"))()` and `import Innkeep = require(…)` both work.
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const require = createRequire(import.meta.url);

/** The build's own tools, from this package's devDependencies. */
function tool(name) {
  try {
    return require.resolve(name);
  } catch {
    console.error(`The build needs ${name}, one of this package's devDependencies: run \`npm install\` in ${root} first.`);
    process.exit(1);
  }
}
const { build } = require(tool("esbuild"));
const ts = require(tool("typescript"));
const dist = path.join(root, "dist");
rmSync(dist, { recursive: true, force: true });

const common = { entryPoints: [path.join(root, "src/index.ts")], bundle: true, platform: "neutral", target: "es2022", sourcemap: true, logLevel: "warning" };
await build({ ...common, format: "esm", outfile: path.join(dist, "esm/index.js") });
await build({ ...common, format: "cjs", outfile: path.join(dist, "cjs/lib.js") });
writeFileSync(path.join(dist, "cjs/package.json"), `${JSON.stringify({ type: "commonjs" })}\n`);

execFileSync(process.execPath, [tool("typescript/bin/tsc"), "-p", path.join(root, "tsconfig.json")], { stdio: "inherit" });
mkdirSync(path.join(dist, "cjs"), { recursive: true });
cpSync(path.join(dist, "esm"), path.join(dist, "cjs"), { recursive: true, filter: (f) => !f.endsWith(".js") && !f.endsWith(".js.map") });
renameSync(path.join(dist, "cjs/index.d.ts"), path.join(dist, "cjs/lib.d.ts"));

// Every name the package exports, read from its own declarations: values (classes, functions,
// constants) are aliased with `export import`, which TypeScript refuses for type-only exports;
// those become type aliases with the same type parameters.
const program = ts.createProgram([path.join(dist, "esm/index.d.ts")], { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, noEmit: true });
const checker = program.getTypeChecker();
const exported = checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(path.join(dist, "esm/index.d.ts"))));
const exportedNames = new Set(exported.map((s) => s.getName()));
const qualify = (text) => text.replace(/\b[A-Za-z_]\w*\b/g, (name) => (exportedNames.has(name) ? `lib.${name}` : name));
const members = exported
  .filter((symbol) => !["default", "Innkeep"].includes(symbol.getName()))
  .sort((a, b) => a.getName().localeCompare(b.getName()))
  .map((symbol) => {
    const name = symbol.getName();
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    if (target.flags & ts.SymbolFlags.Value) return `  export import ${name} = lib.${name};`;
    const params = target.declarations?.find((d) => d.typeParameters)?.typeParameters ?? [];
    const list = params.map((p) => `${p.name.text}${p.constraint ? ` extends ${qualify(p.constraint.getText())}` : ""}${p.default ? ` = ${qualify(p.default.getText())}` : ""}`);
    return list.length
      ? `  export type ${name}<${list.join(", ")}> = lib.${name}<${params.map((p) => p.name.text).join(", ")}>;`
      : `  export type ${name} = lib.${name};`;
  });

writeFileSync(
  path.join(dist, "cjs/index.js"),
  `"use strict";
// require("@innkeep/node") is the client class, with every export of the package on it.
const lib = require("./lib.js");
const Innkeep = lib.Innkeep;
for (const name of Object.keys(lib)) Object.defineProperty(Innkeep, name, { value: lib[name], enumerable: true, configurable: true, writable: false });
Object.defineProperty(Innkeep, "__esModule", { value: true });
module.exports = Innkeep;
`,
);
writeFileSync(
  path.join(dist, "cjs/index.d.ts"),
  `import * as lib from "./lib.js";
/** The Innkeep API client; \`require("@innkeep/node")\` is this class, every export of the package on it. */
declare class Innkeep extends lib.Innkeep {
  static readonly Innkeep: typeof Innkeep;
  static readonly default: typeof Innkeep;
}
declare namespace Innkeep {
${members.join("\n")}
}
export = Innkeep;
`,
);
console.log("built dist/esm and dist/cjs");
