// `npm run build` (after `next build`): the custom server compiled to one ES module, dist/server.mjs,
// so that `npm start` is plain `node` with no TypeScript loader in the process. Packages stay
// external (loaded from node_modules as before); `@/` imports are resolved from tsconfig.json.
import path from "node:path";
import { build } from "esbuild";

const root = path.resolve(import.meta.dirname, "..");

const started = performance.now();
await build({
  absWorkingDir: root,
  // The dashboard thread (Next, apart from the API's isolate) is its own entry, loaded by path; the
  // CLI is built too, so production needs no TypeScript loader for it either (`node dist/innkeep.mjs`).
  entryPoints: {
    server: "server/main.ts",
    "dashboard-thread": "server/process/dashboard-thread.ts",
    innkeep: "scripts/innkeep.ts",
  },
  outdir: "dist",
  outExtension: { ".js": ".mjs" },
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20.18",
  packages: "external",
  // Readable output for stack traces; the map is there for `node --enable-source-maps` when debugging.
  sourcemap: "linked",
  logLevel: "warning",
});
process.stderr.write(`built dist/server.mjs, dist/dashboard-thread.mjs and dist/innkeep.mjs in ${Math.round(performance.now() - started)} ms\n`);
